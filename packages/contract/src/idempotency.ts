/**
 * Idempotent joins (docs/product.md §3.9, joining on a bad network): the diner's join carries an
 * `Idempotency-Key` header, one per join attempt and kept across its retries; the server answers a
 * key it has seen with the first answer again for a day, so a retry creates at most one entry.
 */
export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';

/** 8 to 128 characters of letters, digits, `_` and `-` (a UUID or 22 base64url characters fit). */
export const IDEMPOTENCY_KEY_PATTERN = /^[A-Za-z0-9_-]{8,128}$/;

/** How long the server keeps a key with its first answer. */
export const IDEMPOTENCY_KEY_KEEP_MS = 24 * 3_600_000;

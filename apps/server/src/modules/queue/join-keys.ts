import { createHash } from 'node:crypto';
import { type CreateWaitlistResponse, ErrorCode, IDEMPOTENCY_KEY_HEADER, IDEMPOTENCY_KEY_KEEP_MS } from '@vez/contract';
import type { Db } from '../../db/connect.js';
import type { IdempotencyKeyTable } from '../../db/types.js';
import { AppError } from '../../lib/app-error.js';
import { deleteIdempotencyKeysBefore } from './idempotency-keys.repository.js';

/**
 * Idempotent joins (docs/product.md §3.9): a join's `Idempotency-Key` is claimed in the join's own
 * transaction and kept with the answer of the join that created the entry; the same key again
 * gets that answer again (status and body), the same key with another body is refused. A join
 * that created nothing (refused, or a repeat join answered with the open entry) keeps no key, so
 * the same key is tried afresh: never a second entry either way.
 */

/** A join's key and the hash of what it asked for. */
export interface JoinKey {
  key: string;
  bodyHash: string;
}

/** What the create route answers. */
export interface JoinAnswer {
  status: 200 | 201;
  body: CreateWaitlistResponse;
}

/** A join found its key claimed by an earlier join: the answer is that join's. */
export class JoinKeyTaken extends Error {
  constructor(readonly kept: IdempotencyKeyTable | undefined) {
    super('Idempotency-Key taken');
  }
}

/** JSON with sorted keys: the same body hashes the same whatever order its keys came in. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    return `{${entries
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}

export function joinKeyOf(key: string, venueId: string, body: unknown): JoinKey {
  return { key, bodyHash: createHash('sha256').update(canonical({ venueId, body })).digest('hex') };
}

/** The kept answer for a key, or the refusal when the key came with another body. */
export function answerOfKey(kept: IdempotencyKeyTable | undefined, key: JoinKey): JoinAnswer {
  if (!kept || kept.status === 0 || kept.body_hash !== key.bodyHash) {
    throw new AppError(ErrorCode.IDEMPOTENCY_KEY_REUSED, undefined, IDEMPOTENCY_KEY_HEADER);
  }
  return { status: kept.status === 201 ? 201 : 200, body: JSON.parse(kept.answer) as CreateWaitlistResponse };
}

/** The retention job's part (docs/security.md, Retention): keys older than a day go. */
export function pruneJoinKeys(db: Db, now: number): Promise<number> {
  return deleteIdempotencyKeysBefore(db.kysely, now - IDEMPOTENCY_KEY_KEEP_MS);
}

/**
 * One Idempotency-Key per join attempt, kept across its retries (docs/product.md §3.9): the same
 * body sent again (the retry after a network failure) carries the key it was first sent with, so
 * the server answers its first answer and at most one entry is made; a changed body is a new attempt
 * with a new key. The key is forgotten once the server has answered.
 */
export interface JoinAttempts {
  keyFor(body: object): string;
  /** The server answered (an entry or a refusal): the next send is a new attempt. */
  settle(): void;
}

/** 16 random bytes as 32 hex characters: within the server's 8-128 characters of [A-Za-z0-9_-]. */
export function newIdempotencyKey(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
}

export function joinAttempts(): JoinAttempts {
  let last: { key: string; body: string } | undefined;
  return {
    keyFor(body) {
      const text = JSON.stringify(body);
      if (last?.body !== text) last = { key: newIdempotencyKey(), body: text };
      return last.key;
    },
    settle() {
      last = undefined;
    },
  };
}

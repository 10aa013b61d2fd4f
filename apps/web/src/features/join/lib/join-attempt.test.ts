import { IDEMPOTENCY_KEY_PATTERN } from '@vez/contract';
import { describe, expect, it } from 'vitest';
import { joinAttempts, newIdempotencyKey } from './join-attempt';

/** One Idempotency-Key per join attempt, kept across its retries (docs/product.md §3.9). */
describe('joinAttempts', () => {
  it('keeps the key while the same body is sent again, and takes a new one for another body or after an answer', () => {
    const attempts = joinAttempts();
    const body = { customer: { name: 'Ana Souza', phone: '+5511987650001' }, partySize: 2 };
    const first = attempts.keyFor(body);
    expect(attempts.keyFor({ ...body })).toBe(first);
    const edited = attempts.keyFor({ ...body, partySize: 3 });
    expect(edited).not.toBe(first);
    attempts.settle();
    expect(attempts.keyFor({ ...body, partySize: 3 })).not.toBe(edited);
  });

  it('makes keys the server takes', () => {
    const key = newIdempotencyKey();
    expect(key).toMatch(IDEMPOTENCY_KEY_PATTERN);
    expect(newIdempotencyKey()).not.toBe(key);
  });
});

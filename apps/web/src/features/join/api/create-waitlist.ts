import { type CreateWaitlistBody, type CreateWaitlistResponse, IDEMPOTENCY_KEY_HEADER } from '@vez/contract';
import { apiRequest } from '../../../lib/api-client';

/**
 * POST /waitlists/{venueId}/create: 201 a new entry, 200 the existing one of a repeat join. The
 * attempt's Idempotency-Key (docs/product.md §3.9) makes a retry answer the first answer again.
 */
export function createWaitlist({
  body,
  idempotencyKey,
}: {
  body: CreateWaitlistBody;
  idempotencyKey: string;
}): Promise<CreateWaitlistResponse> {
  return apiRequest<CreateWaitlistResponse>(`/waitlists/${encodeURIComponent(body.venue)}/create`, {
    method: 'POST',
    body,
    headers: { [IDEMPOTENCY_KEY_HEADER]: idempotencyKey },
  });
}

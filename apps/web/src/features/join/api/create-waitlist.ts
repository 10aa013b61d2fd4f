import type { CreateWaitlistBody, CreateWaitlistResponse } from '@vez/contract';
import { apiPost } from '../../../lib/api-client';

/** POST /waitlists/{venueId}/create: 201 a new entry, 200 the existing one of a repeat join. */
export function createWaitlist(body: CreateWaitlistBody): Promise<CreateWaitlistResponse> {
  return apiPost<CreateWaitlistResponse>(`/waitlists/${encodeURIComponent(body.venue)}/create`, body);
}

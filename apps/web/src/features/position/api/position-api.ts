import { type CancelBody, type Language, type PositionResponse, type StatusResponse } from '@vez/contract';
import { apiGet, apiRequest } from '../../../lib/api-client';

const id = encodeURIComponent;

/** GET /waitlists/{waitlistId}/position: the own id or the read-only share id. */
export function fetchPosition(waitlistId: string, lng: Language, signal?: AbortSignal): Promise<PositionResponse> {
  return apiGet<PositionResponse>(`/waitlists/${id(waitlistId)}/position?lng=${lng}`, signal);
}

/** PUT /waitlists/{waitlistId}/{venueId}/cancel with the body of docs/product.md §17 (reason Customer). */
export function leaveWaitlist(waitlistId: string, venueId: string, customerId: string): Promise<StatusResponse> {
  const body: CancelBody = {
    logs: { customer: customerId, actionType: 'Remove' },
    customer: customerId,
    cancelReason: 'Customer',
  };
  return apiRequest<StatusResponse>(`/waitlists/${id(waitlistId)}/${id(venueId)}/cancel`, { method: 'PUT', body });
}

import type {
  ChangePasswordBody,
  EndedSessionsResponse,
  InviteInfoResponse,
  StaffRole,
  TeamInviteResponse,
  TeamMemberResponse,
  TeamResponse,
  HostCancelBody,
  HostCreateEntryBody,
  HostEntryPatch,
  HostEntryResponse,
  HostLoginBody,
  HostMeResponse,
  HostQueueResponse,
  HostSettingsResponse,
  HostStatsResponse,
  ImageUploadResponse,
  StaffMessageResponse,
  ThreadResponse,
  VenueSettingsPatch,
  WaitlistState,
  WaitlistStateResponse,
} from '@vez/contract';
import { ApiError, apiRequest } from '../../../lib/api-client';
import { getRuntimeConfig } from '../../../lib/runtime-config';
import { assertOnline } from '../lib/host-query-client';

// Every host call carries the staff session cookie. Writes need no extra header: the server's
// cross-site guard reads the browser's own Sec-Fetch-Site / Origin headers. A write made offline
// fails at once and is never sent later (docs/decisions/032-the-door-on-a-busy-night.md).
const get = <T>(path: string) => apiRequest<T>(path, { credentials: true });
const send = <T>(method: 'POST' | 'PUT' | 'PATCH', path: string, body?: unknown) => {
  assertOnline();
  return apiRequest<T>(path, { method, body: body ?? {}, credentials: true });
};
const remove = <T>(path: string) => {
  assertOnline();
  return apiRequest<T>(path, { method: 'DELETE', credentials: true });
};
const venuePath = (venueId: string) => `/host/venues/${encodeURIComponent(venueId)}`;
const entryPath = (venueId: string, entryId: string) => `${venuePath(venueId)}/entries/${encodeURIComponent(entryId)}`;

export const hostApi = {
  login: (body: HostLoginBody) => send<HostMeResponse>('POST', '/host/login', body),
  logout: () => send<void>('POST', '/host/logout'),
  me: () => get<HostMeResponse>('/host/me'),
  queue: (venueId: string) => get<HostQueueResponse>(`${venuePath(venueId)}/entries`),
  addWalkIn: (venueId: string, body: HostCreateEntryBody) => send<HostEntryResponse>('POST', `${venuePath(venueId)}/entries`, body),
  call: (venueId: string, entryId: string) => send<HostEntryResponse>('POST', `${entryPath(venueId, entryId)}/call`),
  seat: (venueId: string, entryId: string) => send<HostEntryResponse>('POST', `${entryPath(venueId, entryId)}/seat`),
  cancel: (venueId: string, entryId: string, reason: HostCancelBody['reason']) =>
    send<HostEntryResponse>('POST', `${entryPath(venueId, entryId)}/cancel`, { reason }),
  restore: (venueId: string, entryId: string) => send<HostEntryResponse>('POST', `${entryPath(venueId, entryId)}/restore`),
  edit: (venueId: string, entryId: string, patch: HostEntryPatch) => send<HostEntryResponse>('PATCH', entryPath(venueId, entryId), patch),
  setWaitlist: (venueId: string, state: WaitlistState) => send<WaitlistStateResponse>('PUT', `${venuePath(venueId)}/waitlist`, state),
  settings: (venueId: string) => get<HostSettingsResponse>(`${venuePath(venueId)}/settings`),
  patchSettings: (venueId: string, patch: VenueSettingsPatch) =>
    send<HostSettingsResponse>('PATCH', `${venuePath(venueId)}/settings`, patch),
  thread: (venueId: string, entryId: string) => get<ThreadResponse>(`${entryPath(venueId, entryId)}/messages`),
  sendMessage: (venueId: string, entryId: string, text: string) =>
    send<StaffMessageResponse>('POST', `${entryPath(venueId, entryId)}/messages`, { text }),
  resend: (venueId: string, entryId: string, messageId: string) =>
    send<HostEntryResponse>('POST', `${entryPath(venueId, entryId)}/messages/${encodeURIComponent(messageId)}/resend`),
  stats: (venueId: string, date: string, tz: number) =>
    get<HostStatsResponse>(`${venuePath(venueId)}/stats?date=${encodeURIComponent(date)}&tz=${tz}`),
  // The team and one's own account (docs/decisions/023-staff-roles.md).
  team: (venueId: string) => get<TeamResponse>(`${venuePath(venueId)}/team`),
  invite: (venueId: string, email: string) => send<TeamInviteResponse>('POST', `${venuePath(venueId)}/invites`, { email }),
  revokeInvite: (venueId: string, inviteId: string) => remove<void>(`${venuePath(venueId)}/invites/${encodeURIComponent(inviteId)}`),
  setRole: (venueId: string, staffId: string, role: StaffRole) =>
    send<TeamMemberResponse>('PATCH', `${venuePath(venueId)}/staff/${encodeURIComponent(staffId)}`, { role }),
  removeMember: (venueId: string, staffId: string) => remove<void>(`${venuePath(venueId)}/staff/${encodeURIComponent(staffId)}`),
  endSessions: (venueId: string, staffId: string) =>
    remove<EndedSessionsResponse>(`${venuePath(venueId)}/staff/${encodeURIComponent(staffId)}/sessions`),
  changePassword: (body: ChangePasswordBody) => send<EndedSessionsResponse>('POST', '/host/password', body),
  inviteInfo: (token: string) => get<InviteInfoResponse>(`/host/invites/${encodeURIComponent(token)}`),
  acceptInvite: (token: string, password: string) =>
    send<HostMeResponse>('POST', `/host/invites/${encodeURIComponent(token)}/accept`, { password }),
};

export const hostStreamUrl = (venueId: string) => `${getRuntimeConfig().apiBaseUrl}${venuePath(venueId)}/events`;
export const posterQrUrl = (venueId: string) => `${getRuntimeConfig().apiBaseUrl}${venuePath(venueId)}/poster.svg`;

/** Multipart upload to the image host (the JSON client cannot send files). */
export async function uploadVenueImage(venueId: string, file: File): Promise<ImageUploadResponse> {
  const form = new FormData();
  form.append('file', file);
  let response: Response;
  try {
    response = await fetch(`${getRuntimeConfig().apiBaseUrl}${venuePath(venueId)}/images`, {
      method: 'POST',
      body: form,
      credentials: 'include',
    });
  } catch (error) {
    throw new ApiError(0, { code: 'UNKNOWN_ERROR', message: error instanceof Error ? error.message : 'Network error' });
  }
  const data: unknown = await response.json().catch(() => undefined);
  if (!response.ok) {
    const body = data as { code?: ApiError['code']; message?: string; field?: string } | undefined;
    throw new ApiError(response.status, {
      code: body?.code ?? 'UNKNOWN_ERROR',
      message: body?.message ?? `HTTP ${response.status}`,
      field: body?.field,
    });
  }
  return data as ImageUploadResponse;
}

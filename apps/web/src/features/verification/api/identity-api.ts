import {
  type CreateUserWithOtpBody,
  type Language,
  type OtpChannel,
  type OtpSendResponse,
  PRODUCT_NAME,
  type ProductUser,
  type UserEventBody,
} from '@vez/contract';
import { apiRequest, isApiError } from '../../../lib/api-client';

// Every call of the user-manager API carries the session cookie (vez_user, httpOnly).
const post = <T>(path: string, body: unknown) => apiRequest<T>(path, { method: 'POST', body, credentials: true });

/** POST /otp/send: a 6-digit code to the phone (sms) or the email (email). */
export function sendCode(input: { channel: OtpChannel; target: string; venueId: string; lang: Language }): Promise<OtpSendResponse> {
  return post<OtpSendResponse>('/otp/send', { productName: PRODUCT_NAME, type: 'validate', ...input });
}

/** POST /product-user/otp: creates (or logs in) the user with the verified code; starts the session. */
export function createUserWithCode(body: Omit<CreateUserWithOtpBody, 'productName'>): Promise<ProductUser> {
  return post<ProductUser>('/product-user/otp', { ...body, productName: PRODUCT_NAME });
}

/** GET /product-user: the logged-in diner, or null when there is no session (401). */
export async function fetchProductUser(signal?: AbortSignal): Promise<ProductUser | null> {
  try {
    return await apiRequest<ProductUser>('/product-user', { signal, credentials: true });
  } catch (error) {
    if (isApiError(error) && error.status === 401) return null;
    throw error;
  }
}

/** POST /product-user/logout: ends the session (also fine when there is none). */
export function logout(): Promise<{ loggedOut: true }> {
  return post<{ loggedOut: true }>('/product-user/logout', {});
}

/** POST /product-user/event: waitlist-login after verification, waitlist-enter after joining. */
export function sendUserEvent(body: UserEventBody): Promise<unknown> {
  return post('/product-user/event', body);
}

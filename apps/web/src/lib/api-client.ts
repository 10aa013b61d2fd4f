import { type ApiErrorBody, type ErrorCode, isApiErrorBody } from '@vez/contract';

// The diner pages name error codes as typed literals (`'UNKNOWN_ERROR'`, checked against ErrorCode),
// never through the ErrorCode object: that object lists every code the server has and would sit in
// the shared chunk of the position page's JS budget (bench/web.bench.ts).
import { getRuntimeConfig } from './runtime-config';

/** An answer that was not 2xx, or no answer at all (status 0). Carries the catalogue's code. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: ErrorCode;
  readonly field: string | undefined;
  /** Seconds the server asked to wait (its Retry-After header), on a 429. */
  readonly retryAfterSeconds: number | undefined;

  constructor(status: number, body: Pick<ApiErrorBody, 'code' | 'message' | 'field'>, retryAfterSeconds?: number) {
    super(body.message);
    this.name = 'ApiError';
    this.status = status;
    this.code = body.code;
    this.field = body.field;
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

export const isApiError = (error: unknown): error is ApiError => error instanceof ApiError;

interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  signal?: AbortSignal;
  /** Send cookies (product-user and host calls). */
  credentials?: boolean;
  /** More request headers (a join's Idempotency-Key). */
  headers?: Record<string, string>;
}

/** The public API client: JSON in, JSON out, errors as ApiError. Paths start after `/api`. */
export async function apiRequest<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const { method = 'GET', body, signal, credentials, headers } = options;
  let response: Response;
  try {
    response = await fetch(`${getRuntimeConfig().apiBaseUrl}${path}`, {
      method,
      signal,
      credentials: credentials ? 'include' : 'same-origin',
      headers: { accept: 'application/json', ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new ApiError(0, { code: 'UNKNOWN_ERROR', message: error instanceof Error ? error.message : 'Network error' });
  }
  const text = await response.text();
  let data: unknown = undefined;
  if (text) {
    try {
      data = JSON.parse(text);
    } catch {
      data = undefined;
    }
  }
  if (!response.ok) {
    const retryAfter = Number(response.headers.get('retry-after') ?? Number.NaN);
    throw new ApiError(
      response.status,
      isApiErrorBody(data) ? data : { code: 'UNKNOWN_ERROR', message: `HTTP ${response.status}` },
      Number.isFinite(retryAfter) && retryAfter >= 0 ? retryAfter : undefined,
    );
  }
  return data as T;
}

export const apiGet = <T>(path: string, signal?: AbortSignal) => apiRequest<T>(path, { signal });
export const apiPost = <T>(path: string, body: unknown) => apiRequest<T>(path, { method: 'POST', body });

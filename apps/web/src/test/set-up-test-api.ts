import { afterAll, beforeAll } from 'vitest';
import { type TestApi, startTestApi } from './api-server';

/**
 * The real API for a whole test file: started before its first test, closed after its last
 * (docs/ARCHITECTURE.md, habit 17: one set-up, used by every suite). The returned object is filled in when the
 * API has started, so tests use it as they would the API itself.
 */
export function setUpTestApi(env: Record<string, string> = {}): TestApi {
  const api = {} as TestApi;
  beforeAll(async () => {
    Object.assign(api, await startTestApi(env));
  });
  afterAll(async () => {
    await api.close?.();
  });
  return api;
}

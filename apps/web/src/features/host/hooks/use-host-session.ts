import type { HostLoginBody } from '@vez/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { isApiError } from '../../../lib/api-client';
import { hostApi } from '../api/host-api';
import { hostKeys } from '../api/query-keys';

/** The signed-in staff member (null when signed out: a 401 is an answer, not an error). */
export function useHostMe() {
  return useQuery({
    queryKey: hostKeys.me,
    queryFn: async () => {
      try {
        return await hostApi.me();
      } catch (error) {
        if (isApiError(error) && error.status === 401) return null;
        throw error;
      }
    },
    staleTime: 5 * 60_000,
  });
}

export function useLogin() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: HostLoginBody) => hostApi.login(body),
    onSuccess: (me) => client.setQueryData(hostKeys.me, me),
  });
}

export function useLogout() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => hostApi.logout().catch(() => undefined),
    onSettled: () => {
      // Drop the venue data; keep the session query so its observers see `null` (the login screen).
      client.removeQueries({ queryKey: ['host'], predicate: (query) => query.queryKey[1] !== 'me' });
      client.setQueryData(hostKeys.me, null);
    },
  });
}

import type { ProductUser } from '@vez/contract';
import { type QueryClient, useQuery } from '@tanstack/react-query';
import { fetchProductUser } from './identity-api';

/** One cache entry for the logged-in diner: null when logged out, the user when logged in. */
export const productUserKey = ['product-user'] as const;

/** GET /product-user once per page (the session changes only through this feature's calls). */
export function useProductUser(enabled: boolean) {
  return useQuery({
    queryKey: productUserKey,
    queryFn: ({ signal }) => fetchProductUser(signal),
    enabled,
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });
}

export const setProductUser = (queryClient: QueryClient, user: ProductUser | null) =>
  queryClient.setQueryData<ProductUser | null>(productUserKey, user);

export const isLoggedIn = (queryClient: QueryClient) => Boolean(queryClient.getQueryData<ProductUser | null>(productUserKey));

import { useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useCallback, useMemo } from 'react';
import { reportError } from '../../../lib/error-reporter';
import { sendUserEvent } from '../api/identity-api';
import { isLoggedIn, useProductUser } from '../api/product-user-query';
import { LazyCodeStep } from '../components/lazy-code-step';
import { LoggedUserSummary } from '../components/logged-user-summary';
import type { VerificationContact } from '../lib/build-user-payload';

/** What the join screen receives for a login-journey venue (the route passes it in). */
export interface LoginJourney {
  /** The logged-in diner (prefill, summary, no code step); null when logged out; undefined while unknown. */
  user: VerificationContact | null | undefined;
  /** The summary with Editar, shown in place of name, phone and email while logged in. */
  userSummary: ReactNode;
  /** Step 1. */
  CodeStep: typeof LazyCodeStep;
  /** After a join: the waitlist-enter event with the create data, when a diner is logged in. */
  onJoined: (data: { venue: string }, waitlistId: string) => void;
}

/**
 * The login journey of docs/product.md §12.5 for one venue; undefined when the venue has not
 * hired it (the session is then never asked for).
 */
export function useLoginJourney(venueId: string | undefined, hasLoginJourney: boolean | undefined): LoginJourney | undefined {
  const enabled = Boolean(venueId && hasLoginJourney);
  const queryClient = useQueryClient();
  const { data, isError } = useProductUser(enabled);
  // A failed session check (not a 401) counts as logged out: the code step still works.
  const account = isError ? null : data;

  const onJoined = useCallback(
    (payload: { venue: string }, waitlistId: string) => {
      if (!isLoggedIn(queryClient)) return;
      sendUserEvent({ venueId: payload.venue, eventType: 'waitlist-enter', eventBody: { data: payload, waitlistId } }).catch(
        (error: unknown) => reportError(error, { venueId: payload.venue, area: 'user-event' }),
      );
    },
    [queryClient],
  );

  return useMemo(() => {
    if (!enabled) return undefined;
    const user = account && { name: `${account.firstName} ${account.lastName}`, phone: account.phone, email: account.email ?? '' };
    return {
      user,
      userSummary: account ? <LoggedUserSummary user={account} /> : null,
      CodeStep: LazyCodeStep,
      onJoined,
    };
  }, [enabled, account, onJoined]);
}

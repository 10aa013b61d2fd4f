import type { CreateWaitlistBody, Language } from '@vez/contract';
import type { ComponentType, ReactNode } from 'react';

/** Step 0's contact as step 1 needs it; `phone` is digits with a leading plus. */
export interface JoinContact {
  name: string;
  phone: string;
  email: string;
}

export interface JoinCodeStepProps {
  venueId: string;
  language: Language;
  contact: JoinContact;
  onBack: () => void;
  onJoin: () => Promise<void>;
  isJoining: boolean;
}

/**
 * The login journey (docs/product.md §12.5), handed in by the route from the verification
 * feature, so the join feature never imports it: the logged-in diner (prefill, summary, no code
 * step) or null; step 1; and what to do once joined.
 */
export interface JoinLoginJourney {
  user: JoinContact | null | undefined;
  userSummary: ReactNode;
  CodeStep: ComponentType<JoinCodeStepProps>;
  onJoined: (payload: CreateWaitlistBody, waitlistId: string) => void;
}

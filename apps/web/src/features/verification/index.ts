/**
 * The verification feature: join step 1 (one-time code, channel toggle, resend countdown, user
 * creation) and the logged-in diner's summary. The route composes it into the join screen.
 */
export { useLoginJourney, type LoginJourney } from './hooks/use-login-journey';
export type { CodeStepProps } from './components/code-step';
export { splitFullName, buildUserPayload, FullNameRequiredError } from './lib/build-user-payload';

/** The join feature: step 0 of the remote join screen and its outcomes. */
export { JoinScreen, type JoinVenue } from './components/join-screen';
export type { JoinLoginJourney, JoinCodeStepProps, JoinContact } from './lib/login-journey-slot';
export { splitName, buildCreatePayload } from './lib/build-create-payload';
export { joinFormSchema, type JoinFormValues } from './lib/join-form-schema';

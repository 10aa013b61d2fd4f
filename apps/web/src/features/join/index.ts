/** The join feature: step 0 of the remote join screen and its outcomes. */
export { JoinScreen, type JoinVenue } from './components/join-screen';
export { splitName, buildCreatePayload } from './lib/build-create-payload';
export { joinFormSchema, type JoinFormValues } from './lib/join-form-schema';

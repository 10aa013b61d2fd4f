import { type ErrorCode, type Language, phoneDigits } from '@vez/contract';
import { useMutation } from '@tanstack/react-query';
import { Suspense, lazy, useCallback, useEffect, useMemo, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { preloadModal } from '../../../components/ui/lazy-modal';
import { Spinner } from '../../../components/ui/spinner';
import { isApiError } from '../../../lib/api-client';
import { reportError } from '../../../lib/error-reporter';
import { zodMiniResolver } from '../../../lib/zod-mini-resolver';
import { createWaitlist } from '../api/create-waitlist';
import { FullNameMissingError, buildCreatePayload } from '../lib/build-create-payload';
import { joinAttempts } from '../lib/join-attempt';
import { type JoinFormValues, type JoinRules, type PhoneRule, emptyJoinForm, joinFormSchema } from '../lib/join-form-schema';
import { findJoinProof, findSessionLock, writeSessionLock } from '../lib/session-lock';
import type { JoinLoginJourney } from '../lib/login-journey-slot';
import { countryNames } from '../lib/country-names';
import { serverErrorKey, serverFieldToFormField } from '../lib/validation-messages';
import type { JoinOutcome } from './join-outcome-modal';
import { PartySizeSelect } from './party-size-select';
import './join-form.css';

const loadPersonalData = () => import('./personal-data-fields');
const PersonalDataFields = lazy(loadPersonalData);
const loadPhoneRule = () => import('../lib/phone-rule');

/** Step 0 is the form; step 1 (code verification, login-journey issue) is inserted after it. */
export type JoinStep = 0 | 1;

interface JoinFormProps {
  venueId: string;
  rules: JoinRules;
  /** The venue's SMS countries (ISO codes): a refused phone's message names them. */
  smsCountries: readonly string[];
  hidePriorityDisclaimer: boolean;
  /** The login journey is hired: step 1 applies to guests who are not logged in. */
  hasLoginJourney: boolean;
  /** WhatsApp: an unticked consent box; without it the party gets SMS (docs/product.md §10). */
  channel: 'sms' | 'whatsapp';
  language: Language;
  /** The waitlist is closed or its status unknown: nothing can be submitted. */
  disabled: boolean;
  onOutcome: (outcome: JoinOutcome) => void;
  /** The verification feature's part, composed by the route (used when hasLoginJourney). */
  loginJourney?: JoinLoginJourney;
}

export function JoinForm({
  venueId,
  rules,
  smsCountries,
  hidePriorityDisclaimer,
  hasLoginJourney,
  channel,
  language,
  disabled,
  onOutcome,
  loginJourney,
}: JoinFormProps) {
  const { t } = useTranslation();
  const [step, setStep] = useState<JoinStep>(0);
  const [verifying, setVerifying] = useState<JoinFormValues>();
  const journey = hasLoginJourney ? loginJourney : undefined;
  const user = journey?.user;
  // The contract's phone reading comes with the personal-data block's chunk (phone metadata):
  // until then the schema checks plausibility (lib/join-form-schema.ts).
  const [phoneRule, setPhoneRule] = useState<PhoneRule>();
  const resolver = useMemo(() => zodMiniResolver(joinFormSchema(rules, phoneRule)), [rules, phoneRule]);
  const form = useForm<JoinFormValues>({ mode: 'onChange', defaultValues: emptyJoinForm, resolver });
  const loadPersonalDataAndPhoneRule = useCallback(() => {
    void loadPersonalData();
    // The outcome dialogs too: a join sent offline must still show its error and retry.
    preloadModal();
    void loadPhoneRule().then((module) => setPhoneRule(() => module.phoneRule));
  }, []);
  // Sent at once or failed at once, never held to run later on its own (docs/product.md §12.7).
  const join = useMutation({ mutationFn: createWaitlist, networkMode: 'always' });
  const [attempts] = useState(joinAttempts);
  const partySize = form.watch('partySize');
  const { isValid, isSubmitting, errors } = form.formState;
  const { setValue } = form;
  // A logged-in diner's details prefill the form (docs/product.md §16); they stay after Editar.
  useEffect(() => {
    if (!user) return;
    setValue('name', user.name, { shouldValidate: true });
    setValue('phone', user.phone, { shouldValidate: true });
    setValue('email', user.email, { shouldValidate: true });
  }, [user, setValue]);
  useEffect(() => {
    if (partySize !== '' || user) loadPersonalDataAndPhoneRule();
  }, [partySize, user, loadPersonalDataAndPhoneRule]);
  // A phone entered before the rule arrived (a logged-in diner's) is checked again with it.
  const { getValues, trigger } = form;
  useEffect(() => {
    if (phoneRule && getValues('phone')) void trigger('phone');
  }, [phoneRule, getValues, trigger]);
  // The summary replaces name, phone and email, unless one of them needs the diner's hand.
  const showSummary = Boolean(user) && !errors.name && !errors.phone && !errors.email;

  const submitJoin = async (values: JoinFormValues) => {
    let payload;
    try {
      payload = buildCreatePayload(values, { venueId, settings: rules.settings, channel }, language);
    } catch (error) {
      if (error instanceof FullNameMissingError) return onOutcome({ kind: 'error', messageKey: 'join.fullName' });
      throw error;
    }
    // The success names the channel the messages go by (docs/product.md §10).
    const by = payload.whatsappOptIn ? 'whatsapp' : 'sms';
    const lock = findSessionLock(venueId, payload.customer.phone);
    if (lock) return onOutcome({ kind: 'success', waitlistId: lock.waitlistId, channel: by });
    // This browser's own earlier join: its proof gets the entry back (docs/product.md §3).
    const joinProof = findJoinProof(venueId, payload.customer.phone);
    const body = joinProof ? { ...payload, joinProof } : payload;
    try {
      // The retry of an attempt that got no answer carries the same key (docs/product.md §3.9).
      const created = await join.mutateAsync({ body, idempotencyKey: attempts.keyFor(body) });
      attempts.settle();
      writeSessionLock(venueId, payload.customer.phone, created._id, Date.now(), created.joinProof ?? joinProof);
      journey?.onJoined(payload, created._id);
      onOutcome({ kind: 'success', waitlistId: created._id, channel: by });
    } catch (error) {
      // No answer (offline, or the network dropped): the form keeps what was typed, and the retry
      // sends the same attempt again, so at most one entry is made (docs/product.md §12.7).
      if (isApiError(error) && error.status === 0) return onOutcome({ kind: 'networkError', retry: () => void submitJoin(values) });
      attempts.settle();
      // Refusals the diner can act on, not failures to report.
      if (isApiError(error) && error.code === 'ALREADY_ON_WAITLIST') return onOutcome({ kind: 'alreadyOnList', channel });
      if (isApiError(error) && error.code === 'WAITLIST_FULL') return onOutcome({ kind: 'error', messageKey: 'join.waitlistFull' });
      if (isApiError(error) && error.code === 'TOO_MANY_OPEN_FROM_ADDRESS') {
        return onOutcome({ kind: 'error', messageKey: 'join.tooManyFromAddress' });
      }
      if (isApiError(error) && error.code === 'PHONE_COUNTRY_NOT_ALLOWED') {
        form.setError('phone', { type: 'server', message: 'validation.phoneCountry' }, { shouldFocus: true });
        const countries = countryNames(smsCountries, language);
        return onOutcome({ kind: 'error', messageKey: 'join.phoneCountry', values: { countries } });
      }
      // docs/product.md §15: a field the server refused shows at that field, not as a failure to join.
      const field = isApiError(error) && error.field ? serverFieldToFormField[error.field] : undefined;
      if (field && isApiError(error) && error.status === 422) {
        setStep(0);
        form.setError(field, { type: 'server', message: serverErrorKey(field, error.message) }, { shouldFocus: true });
        return;
      }
      reportError(error, { venueId, code: 'FAILED_TO_CREATE_NEW_WAITLIST' satisfies ErrorCode });
      if (isApiError(error) && error.code === 'WAITLIST_LOCKED') return onOutcome({ kind: 'closed', reason: 'locked' });
      if (isApiError(error) && error.code === 'WAITLIST_STATUS_NOT_ACTIVE') return onOutcome({ kind: 'closed', reason: 'inactive' });
      onOutcome({ kind: 'error', messageKey: 'join.createFailed' });
    }
  };

  const onValid = async (values: JoinFormValues) => {
    // Login journey (docs/product.md §14): step 0 moves to step 1 when the venue has the login journey
    // and the guest is not logged in.
    if (journey && !journey.user) {
      setVerifying(values);
      setStep(1);
      return;
    }
    await submitJoin(values);
  };

  // Step 0 stays mounted while hidden: its inputs keep their state for the back link.
  return (
    <>
      {step === 1 && journey && verifying && (
        <journey.CodeStep
          venueId={venueId}
          language={language}
          contact={{ name: verifying.name, phone: `+${phoneDigits(verifying.phone)}`, email: verifying.email }}
          onBack={() => setStep(0)}
          onJoin={() => submitJoin(verifying)}
          isJoining={join.isPending}
        />
      )}
      <form className="join-form" noValidate onSubmit={form.handleSubmit(onValid)} aria-busy={isSubmitting} hidden={step !== 0}>
        <fieldset className="join-form__fieldset" disabled={disabled}>
          <legend className="visually-hidden">{t('join.summaryTitle')}</legend>
          {showSummary && journey?.userSummary}
          <PartySizeSelect control={form.control} maxPartySize={rules.maxPartySize} onFirstInteraction={loadPersonalDataAndPhoneRule} />
          {partySize !== '' && (
            <>
              {!hidePriorityDisclaimer && <p className="join-form__disclaimer">{t('join.priorityDisclaimer')}</p>}
              <Suspense fallback={<Spinner label={t('common.loading')} />}>
                <PersonalDataFields
                  control={form.control}
                  settings={rules.settings}
                  sections={rules.sections}
                  hideContact={showSummary}
                  askWhatsApp={channel === 'whatsapp'}
                />
              </Suspense>
            </>
          )}
          <button
            type="submit"
            className="button button--primary button--block join-form__submit"
            disabled={disabled || !isValid || isSubmitting}
          >
            {isSubmitting ? t('join.submitting') : t('join.submit')}
          </button>
        </fieldset>
      </form>
    </>
  );
}

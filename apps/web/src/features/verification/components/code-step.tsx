import { type Language, type OtpChannel } from '@vez/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../../lib/api-client';
import { reportError } from '../../../lib/error-reporter';
import { createUserWithCode, sendCode, sendUserEvent } from '../api/identity-api';
import { setProductUser } from '../api/product-user-query';
import { useResendCountdown } from '../hooks/use-resend-countdown';
import { FullNameRequiredError, type VerificationContact, buildUserPayload } from '../lib/build-user-payload';
import { ChannelToggle } from './channel-toggle';
import { CodeBoxes, emptyCode } from './code-boxes';
import '../verification.css';

export interface CodeStepProps {
  venueId: string;
  language: Language;
  /** Step 0's name, phone (digits with a leading plus) and email. */
  contact: VerificationContact;
  /** The back link to step 0. */
  onBack: () => void;
  /** Joins with step 0's data; enabled only once the code is verified. */
  onJoin: () => void | Promise<void>;
  isJoining: boolean;
}

type Verification = { state: 'idle' | 'checking' | 'verified' } | { state: 'failed'; message: string };

/**
 * Join step 1 (docs/product.md §12.5): the code goes out on entering and on each channel toggle;
 * its send failures stay silent (only reported). The sixth digit creates the user with the code,
 * which starts the session; then Get in waitlist joins with step 0's data.
 */
export default function CodeStep({ venueId, language, contact, onBack, onJoin, isJoining }: CodeStepProps) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const messageId = useId();
  const [channel, setChannel] = useState<OtpChannel>('sms');
  const [sendRound, setSendRound] = useState(0);
  const [sentTo, setSentTo] = useState<OtpChannel>();
  const [digits, setDigits] = useState(emptyCode);
  const [attempt, setAttempt] = useState(0);
  const [verification, setVerification] = useState<Verification>({ state: 'idle' });
  const countdown = useResendCountdown();
  const lastSend = useRef('');
  const section = useRef<HTMLElement>(null);
  const verified = verification.state === 'verified';

  // Step 0 was scrolled down to its submit button: show step 1 from its back link and title.
  useEffect(() => {
    section.current?.scrollIntoView?.({ block: 'start' });
  }, []);

  useEffect(() => {
    // One send per entry, toggle or resend (StrictMode runs effects twice in development).
    const key = `${channel}:${sendRound}`;
    if (lastSend.current === key) return;
    lastSend.current = key;
    setSentTo(undefined);
    const target = channel === 'sms' ? contact.phone : contact.email.trim();
    sendCode({ channel, target, venueId, lang: language }).then(
      () => setSentTo(channel),
      (error: unknown) => reportError(error, { venueId, area: 'otp-send' }),
    );
  }, [channel, sendRound, contact.phone, contact.email, venueId, language]);

  const resetCode = () => {
    setDigits(emptyCode());
    setAttempt((n) => n + 1);
  };

  const toggle = (next: OtpChannel) => {
    if (next === channel || verified) return;
    setChannel(next);
    setVerification({ state: 'idle' });
    resetCode();
    countdown.restart();
  };

  const resend = () => {
    setSendRound((n) => n + 1);
    setVerification({ state: 'idle' });
    resetCode();
    countdown.restart();
  };

  const verify = async (otp: string) => {
    setVerification({ state: 'checking' });
    try {
      const user = await createUserWithCode(buildUserPayload(contact, { otp, channel }, venueId, language));
      setVerification({ state: 'verified' });
      setProductUser(queryClient, user);
      sendUserEvent({ venueId, eventType: 'waitlist-login', eventBody: {} }).catch((error: unknown) =>
        reportError(error, { venueId, area: 'user-event' }),
      );
    } catch (error) {
      reportError(error, { venueId, area: 'otp-verify' });
      const message =
        error instanceof FullNameRequiredError
          ? t('verification.fullName')
          : isApiError(error) && error.status >= 400 && error.status < 500 && error.message
            ? error.message
            : t('verification.unexpected');
      setVerification({ state: 'failed', message });
      resetCode();
    }
  };

  const status = verified
    ? t('verification.verified')
    : sentTo
      ? t(sentTo === 'email' ? 'verification.sentEmail' : 'verification.sentSms')
      : '';

  return (
    <section ref={section} className="code-step" aria-labelledby={`${messageId}-title`}>
      <button type="button" className="code-step__back" onClick={onBack}>
        <span aria-hidden="true">← </span>
        {t('verification.back')}
      </button>
      <h2 id={`${messageId}-title`} className="code-step__title">
        {t('verification.title')}
      </h2>
      <p className="code-step__intro">{t('verification.intro')}</p>
      <ChannelToggle value={channel} onChange={toggle} hasEmail={contact.email.trim() !== ''} disabled={verified} />
      <p className="code-step__status" role="status">
        {status}
      </p>
      <CodeBoxes
        key={attempt}
        digits={digits}
        onChange={setDigits}
        onComplete={(code) => void verify(code)}
        groupLabel={t('verification.codeLabel')}
        boxLabel={(n) => t('verification.digit', { n })}
        disabled={verified || verification.state === 'checking'}
        invalid={verification.state === 'failed'}
        describedBy={verification.state === 'failed' ? `${messageId}-error` : undefined}
        autoFocus
      />
      <p id={`${messageId}-error`} className="code-step__error" role="alert">
        {verification.state === 'failed' ? verification.message : ''}
      </p>
      {!verified && (
        <div className="code-step__resend">
          <button type="button" className="button button--secondary button--small" disabled={!countdown.canResend} onClick={resend}>
            {t('verification.resend')}
          </button>
          {!countdown.canResend && (
            <span className="code-step__countdown">{t('verification.resendIn', { count: countdown.remaining })}</span>
          )}
        </div>
      )}
      <button
        type="button"
        className="button button--primary button--block code-step__join"
        disabled={!verified || isJoining}
        onClick={() => void onJoin()}
      >
        {isJoining ? t('verification.joining') : t('verification.join')}
      </button>
    </section>
  );
}

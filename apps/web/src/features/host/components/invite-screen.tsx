import { STAFF_PASSWORD_MIN } from '@vez/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Spinner } from '../../../components/ui/spinner';
import { paths } from '../../../config/paths';
import { isApiError } from '../../../lib/api-client';
import { currentLanguage } from '../../../lib/i18n';
import { hostApi } from '../api/host-api';
import { hostKeys } from '../api/query-keys';
import { errorText } from '../lib/error-text';
import { navigateHost } from '../lib/host-location';
import { useHostT } from '../lib/host-i18n';
import { LanguageToggle } from './language-toggle';

/**
 * The page an invitation email links to (docs/decisions/023-staff-roles.md). A new account sets its
 * password; an existing account gives its own password to add the venue. Then the console opens.
 */
export function InviteScreen({ token }: { token: string }) {
  const { t, i18n } = useHostT();
  const client = useQueryClient();
  const info = useQuery({ queryKey: hostKeys.invite(token), queryFn: () => hostApi.inviteInfo(token), retry: false });
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const [problem, setProblem] = useState('');
  const accept = useMutation({
    mutationFn: () => hostApi.acceptInvite(token, password),
    onSuccess: (me) => {
      client.setQueryData(hostKeys.me, me);
      navigateHost(paths.host.href(info.data?.venue._id ?? me.venues[0]?._id), { replace: true });
    },
    onError: (error) =>
      setProblem(
        isApiError(error) && error.code === 'WRONG_PASSWORD'
          ? t('invite.wrong')
          : isApiError(error) && (error.status === 404 || error.status === 410)
            ? t(`invite.error.${error.code}`, { defaultValue: error.message })
            : errorText(t, error),
      ),
  });

  if (info.isPending)
    return (
      <main className="host host--center">
        <Spinner label={t('loading')} />
      </main>
    );
  const isNew = info.data ? !info.data.hasAccount : false;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (isNew && password.length < STAFF_PASSWORD_MIN) return setProblem(t('account.tooShort', { min: STAFF_PASSWORD_MIN }));
    if (isNew && password !== repeat) return setProblem(t('account.mismatch'));
    setProblem('');
    accept.mutate();
  };
  const venueName = info.data ? info.data.venue.name[currentLanguage(i18n.language)] || info.data.venue.name.pt : '';

  return (
    <main className="host host--center">
      <form className="host-card host-login" onSubmit={submit}>
        <div className="host-login__top">
          <h1>{t('invite.title')}</h1>
          <LanguageToggle />
        </div>
        {!info.data ? (
          <p role="alert" className="host-error">
            {isApiError(info.error)
              ? t(`invite.error.${info.error.code}`, { defaultValue: errorText(t, info.error) })
              : errorText(t, info.error)}
          </p>
        ) : (
          <>
            <p>{t(isNew ? 'invite.welcomeNew' : 'invite.welcomeExisting', { venue: venueName })}</p>
            <label className="host-field">
              <span>{t('login.email')}</span>
              <input type="email" autoComplete="username" value={info.data.email} readOnly />
            </label>
            <label className="host-field">
              <span>{t(isNew ? 'invite.newPassword' : 'invite.yourPassword')}</span>
              <input
                type="password"
                autoComplete={isNew ? 'new-password' : 'current-password'}
                required
                value={password}
                onChange={(e) => setPassword(e.target.value)}
                {...(isNew ? { 'aria-describedby': 'invite-rules', minLength: STAFF_PASSWORD_MIN } : {})}
              />
              {isNew && <small id="invite-rules">{t('account.rules', { min: STAFF_PASSWORD_MIN })}</small>}
            </label>
            {isNew && (
              <label className="host-field">
                <span>{t('account.repeat')}</span>
                <input type="password" autoComplete="new-password" required value={repeat} onChange={(e) => setRepeat(e.target.value)} />
              </label>
            )}
            <p className="host-error" role="alert">
              {problem}
            </p>
            <button type="submit" className="button button--primary button--block" disabled={accept.isPending}>
              {t(isNew ? 'invite.submitNew' : 'invite.submitExisting')}
            </button>
          </>
        )}
      </form>
    </main>
  );
}

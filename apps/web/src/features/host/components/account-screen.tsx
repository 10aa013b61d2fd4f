import { STAFF_PASSWORD_MIN } from '@vez/contract';
import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { isApiError } from '../../../lib/api-client';
import { hostApi } from '../api/host-api';
import { errorText } from '../lib/error-text';
import { useHostT } from '../lib/host-i18n';

/** Everyone changes their own password (docs/product.md §9): the current one first; other sessions end. */
export function AccountScreen({ email }: { email: string }) {
  const { t } = useHostT();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [repeat, setRepeat] = useState('');
  const [message, setMessage] = useState<{ kind: 'ok' | 'error'; text: string } | null>(null);
  const change = useMutation({
    mutationFn: () => hostApi.changePassword({ currentPassword: current, newPassword: next }),
    onSuccess: ({ ended }) => {
      setCurrent('');
      setNext('');
      setRepeat('');
      setMessage({ kind: 'ok', text: t('account.changed', { count: ended }) });
    },
    onError: (error) => {
      const text =
        isApiError(error) && error.code === 'WRONG_PASSWORD'
          ? t('account.wrong')
          : isApiError(error) && error.field === 'newPassword'
            ? t('account.tooShort', { min: STAFF_PASSWORD_MIN })
            : errorText(t, error);
      setMessage({ kind: 'error', text });
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (next.length < STAFF_PASSWORD_MIN) return setMessage({ kind: 'error', text: t('account.tooShort', { min: STAFF_PASSWORD_MIN }) });
    if (next !== repeat) return setMessage({ kind: 'error', text: t('account.mismatch') });
    setMessage(null);
    change.mutate();
  };

  return (
    <section aria-labelledby="account-title" className="host-settings">
      <h1 id="account-title">{t('account.title')}</h1>
      <p>{t('account.signedInAs', { email })}</p>
      <form className="host-card host-login" onSubmit={submit}>
        <h2 className="host-team__subtitle">{t('account.passwordTitle')}</h2>
        {/* A hidden username lets password managers file the new password under the right account. */}
        <input type="email" autoComplete="username" value={email} readOnly hidden />
        <label className="host-field">
          <span>{t('account.current')}</span>
          <input type="password" autoComplete="current-password" required value={current} onChange={(e) => setCurrent(e.target.value)} />
        </label>
        <label className="host-field">
          <span>{t('account.new')}</span>
          <input
            type="password"
            autoComplete="new-password"
            required
            minLength={STAFF_PASSWORD_MIN}
            value={next}
            onChange={(e) => setNext(e.target.value)}
            aria-describedby="new-password-hint"
          />
          <small id="new-password-hint">{t('account.rules', { min: STAFF_PASSWORD_MIN })}</small>
        </label>
        <label className="host-field">
          <span>{t('account.repeat')}</span>
          <input type="password" autoComplete="new-password" required value={repeat} onChange={(e) => setRepeat(e.target.value)} />
        </label>
        <p role={message?.kind === 'error' ? 'alert' : 'status'} className={message?.kind === 'error' ? 'host-error' : 'host-ok'}>
          {message?.text ?? ''}
        </p>
        <button type="submit" className="button button--primary button--block" disabled={change.isPending}>
          {t('account.submit')}
        </button>
      </form>
    </section>
  );
}

import { type FormEvent, useState } from 'react';
import { isApiError } from '../../../lib/api-client';
import { useLogin } from '../hooks/use-host-session';
import { useHostT } from '../lib/host-i18n';
import { LanguageToggle } from './language-toggle';

export function LoginScreen() {
  const { t } = useHostT();
  const login = useLogin();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');

  const submit = (event: FormEvent) => {
    event.preventDefault();
    login.mutate({ email: email.trim(), password });
  };
  const error = login.error;
  const message = !error
    ? ''
    : isApiError(error) && error.status === 401
      ? t('login.wrong')
      : isApiError(error) && error.status === 429
        ? t('login.limited')
        : t('error.generic');

  return (
    <main className="host host--center">
      <form className="host-card host-login" onSubmit={submit} noValidate={false}>
        <div className="host-login__top">
          <h1>{t('login.title')}</h1>
          <LanguageToggle />
        </div>
        <label className="host-field">
          <span>{t('login.email')}</span>
          <input type="email" autoComplete="username" required value={email} onChange={(e) => setEmail(e.target.value)} />
        </label>
        <label className="host-field">
          <span>{t('login.password')}</span>
          <input type="password" autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.target.value)} />
        </label>
        <p className="host-error" role="alert">
          {message}
        </p>
        <button type="submit" className="button button--primary button--block" disabled={login.isPending}>
          {t('login.submit')}
        </button>
      </form>
    </main>
  );
}

import type { ProductUser } from '@vez/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { reportError } from '../../../lib/error-reporter';
import { logout } from '../api/identity-api';
import { setProductUser } from '../api/product-user-query';
import { useFormattedPhone } from '../hooks/use-formatted-phone';
import '../verification.css';

/**
 * The logged-in diner's name, phone and email (docs/product.md §12) in place of those fields. Editar
 * logs out: the fields come back, prefilled, and the code step applies again.
 */
export function LoggedUserSummary({ user }: { user: ProductUser }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [state, setState] = useState<'idle' | 'busy' | 'failed'>('idle');
  const phone = useFormattedPhone(user.phone);

  const edit = async () => {
    setState('busy');
    try {
      await logout();
      setProductUser(queryClient, null);
    } catch (error) {
      reportError(error, { area: 'logout' });
      setState('failed');
    }
  };

  return (
    <section className="user-summary" aria-label={t('verification.summaryTitle')}>
      <dl className="user-summary__list">
        <div>
          <dt>{t('verification.summaryName')}</dt>
          <dd>{`${user.firstName} ${user.lastName}`}</dd>
        </div>
        <div>
          <dt>{t('verification.summaryPhone')}</dt>
          <dd>{phone}</dd>
        </div>
        {user.email && (
          <div>
            <dt>{t('verification.summaryEmail')}</dt>
            <dd>{user.email}</dd>
          </div>
        )}
      </dl>
      <button type="button" className="button button--secondary button--small" disabled={state === 'busy'} onClick={() => void edit()}>
        {t('verification.edit')}
      </button>
      {state === 'failed' && (
        <p className="user-summary__error" role="alert">
          {t('verification.unexpected')}
        </p>
      )}
    </section>
  );
}

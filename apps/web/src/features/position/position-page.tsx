import { useTranslation } from 'react-i18next';
import { Spinner } from '../../components/ui/spinner';

/**
 * Placeholder of /waitlist/:waitlistId. The position-page issue replaces this file (and adds the
 * feature's api/, components/, hooks/); the router already loads it lazily.
 */
export default function PositionPage() {
  const { t } = useTranslation();
  return (
    <main className="page page--loading">
      <h1 className="visually-hidden">{t('position.loading')}</h1>
      <Spinner label={t('position.loading')} />
    </main>
  );
}

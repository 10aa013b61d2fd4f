import { useTranslation } from 'react-i18next';
import { Spinner } from '../components/ui/spinner';

export function PageLoading() {
  const { t } = useTranslation();
  return (
    <div className="page page--loading">
      <Spinner label={t('common.loading')} />
    </div>
  );
}

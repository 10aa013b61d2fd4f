import { useTranslation } from 'react-i18next';
import { Spinner } from '../components/ui/spinner';
import { BootHeader } from '../features/venue-info';

/** While a screen's code loads; a venue page keeps its boot screen's header image meanwhile. */
export function PageLoading() {
  const { t } = useTranslation();
  return (
    <>
      <BootHeader />
      <div className="page page--loading">
        <Spinner label={t('common.loading')} />
      </div>
    </>
  );
}

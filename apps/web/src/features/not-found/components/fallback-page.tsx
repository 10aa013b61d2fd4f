import { useTranslation } from 'react-i18next';
import poweredByLogo from '../../../assets/powered-by-vez.svg';

/** Any path outside docs/product.md §12's routes: a quiet screen with the product's mark. */
export function FallbackPage() {
  const { t } = useTranslation();
  return (
    <main className="page page--loading">
      <h1 className="visually-hidden">{t('fallback.title')}</h1>
      <img src={poweredByLogo} alt="Vez" width={144} height={48} />
    </main>
  );
}

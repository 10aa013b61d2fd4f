import { useTranslation } from 'react-i18next';
import { Link } from '../../lib/router';
import { paths } from '../../config/paths';
import './site-footer.css';

export function SiteFooter() {
  const { t } = useTranslation();
  return (
    <footer className="site-footer">
      <Link to={paths.terms.href()}>{t('common.termsLink')}</Link>
      <p>{t('common.footer')}</p>
    </footer>
  );
}

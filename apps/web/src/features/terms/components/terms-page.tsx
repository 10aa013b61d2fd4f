import { useTranslation } from 'react-i18next';
import { ReturnButton } from '../../../components/ui/return-button';
import poweredByLogo from '../../../assets/powered-by-vez.svg';
import './terms-page.css';

/** Terms of service and waitlist (docs/product.md §12), on the venue's background colour. */
export function TermsPage({ background }: { background: string }) {
  const { t } = useTranslation();
  const general = t('terms.general', { returnObjects: true }) as string[];
  const security = t('terms.security', { returnObjects: true }) as string[];
  return (
    <div className="terms" style={{ background }}>
      <main className="page terms__page">
        <ReturnButton label={t('common.back')} />
        <div className="terms__head">
          <svg className="terms__padlock" viewBox="0 0 48 48" width="48" height="48" aria-hidden="true" focusable="false">
            <rect x="10" y="21" width="28" height="21" rx="4" fill="currentColor" />
            <path d="M16 21v-6a8 8 0 0116 0v6" fill="none" stroke="currentColor" strokeWidth="4" />
            <circle cx="24" cy="31" r="3" fill="#fff" />
          </svg>
          <h1>{t('terms.title')}</h1>
        </div>
        <section aria-labelledby="terms-general">
          <h2 id="terms-general">{t('terms.generalTitle')}</h2>
          {general.map((p) => (
            <p key={p}>{p}</p>
          ))}
        </section>
        <section aria-labelledby="terms-security">
          <h2 id="terms-security">{t('terms.securityTitle')}</h2>
          {security.map((p) => (
            <p key={p}>{p}</p>
          ))}
        </section>
        <p className="terms__powered">
          <span>{t('common.poweredBy')}</span>
          <img src={poweredByLogo} alt="Vez" width={72} height={24} />
        </p>
      </main>
      <footer className="terms__footer">
        <p>© 2026 Vez · {t('common.footer')}</p>
      </footer>
    </div>
  );
}

import { useTranslation } from 'react-i18next';
import { ReturnButton } from '../../../components/ui/return-button';
import notFoundImage from '../../../assets/not-found-404.svg';
import './not-found-page.css';

/** /404-not-found: the 404 image and a way back. */
export function NotFoundPage() {
  const { t } = useTranslation();
  return (
    <main className="page not-found">
      <ReturnButton label={t('common.back')} />
      <img className="not-found__image" src={notFoundImage} alt={t('notFound.imageAlt')} width={320} height={180} />
      <h1>{t('notFound.title')}</h1>
      <p>{t('notFound.text')}</p>
    </main>
  );
}

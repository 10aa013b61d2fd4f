import { joinPageUrl } from '@vez/contract';
import { useQuery } from '@tanstack/react-query';
import { Spinner } from '../../../components/ui/spinner';
import { currentLanguage } from '../../../lib/i18n';
import { getRuntimeConfig } from '../../../lib/runtime-config';
import { hostApi, posterQrUrl } from '../api/host-api';
import { hostKeys } from '../api/query-keys';
import { imageSrc } from '../lib/format';
import { useHostT } from '../lib/host-i18n';

/** A printable A4 poster: logo, name, the QR code of the join page and its address. */
export function PosterScreen({ venueId }: { venueId: string }) {
  const { t, i18n } = useHostT();
  const settings = useQuery({ queryKey: hostKeys.settings(venueId), queryFn: () => hostApi.settings(venueId) });
  if (!settings.data) return <Spinner label={t('loading')} />;
  const { venue, theme } = settings.data;
  const name = venue.name[currentLanguage(i18n.language)] || venue.name.pt;
  const logo = imageSrc(getRuntimeConfig().imageBaseUrl, theme.logo.vertical);
  const url = joinPageUrl(window.location.origin, venueId);
  return (
    <section aria-labelledby="poster-title" className="host-poster-screen">
      <div className="host-row host-row--spread host-chrome">
        <h1 id="poster-title">{t('poster.title')}</h1>
        <button type="button" className="button button--primary" onClick={() => window.print()}>
          {t('poster.print')}
        </button>
      </div>
      <article className="host-poster" style={{ borderColor: theme.color.main }} aria-label={t('poster.preview')}>
        {logo && <img className="host-poster__logo" src={logo} alt={t('poster.logoAlt', { name })} />}
        <h2 className="host-poster__name">{name}</h2>
        <p className="host-poster__call" style={{ color: theme.color.main }}>
          {t('poster.headline')}
        </p>
        <img className="host-poster__qr" src={posterQrUrl(venueId)} alt={t('poster.qrAlt', { url })} width={320} height={320} />
        <p className="host-poster__steps">{t(venue.channel === 'whatsapp' ? 'poster.stepsWhatsApp' : 'poster.steps')}</p>
        <p className="host-poster__url">{url}</p>
      </article>
    </section>
  );
}

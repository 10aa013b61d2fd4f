import { useTranslation } from 'react-i18next';
import { Navigate, useParams } from '../../lib/router';
import { ReturnButton } from '../../components/ui/return-button';
import { Spinner } from '../../components/ui/spinner';
import { paths } from '../../config/paths';
import { JoinScreen } from '../../features/join';
import { VenueInaccessibleModal, isOnlyThemeProblem, useVenueBranding, useVenueInfo, venueNameIn } from '../../features/venue-info';
import { useLoginJourney } from '../../features/verification';
import { currentLanguage } from '../../lib/i18n';
import '../../locales/forms';
import { VenueLayout } from '../layouts/venue-layout';

/** /remote-waitlist/:venueId: the venue-branded join screen. */
export default function RemoteWaitlistRoute() {
  const { venueId = '' } = useParams();
  const { t, i18n } = useTranslation();
  const { data } = useVenueInfo(venueId);
  const venueInfo = data?.venueInfo;
  useVenueBranding(venueInfo?.color);
  const loginJourney = useLoginJourney(venueInfo?._id, venueInfo?.hiredServices.loginJourney);

  if (data?.notFound) return <Navigate to={paths.notFound.href()} replace />;
  const inaccessible = data && !data.success && !isOnlyThemeProblem(data.errors);
  const language = currentLanguage(i18n.language);

  return (
    <VenueLayout venueInfo={venueInfo}>
      <ReturnButton label={t('common.back')} />
      {!venueInfo && <Spinner label={t('common.loading')} />}
      {venueInfo && inaccessible && <VenueInaccessibleModal reservationUrl={venueInfo.reservationUrl} />}
      {venueInfo && !inaccessible && (
        <JoinScreen
          language={language}
          loginJourney={loginJourney}
          venue={{
            venueId: venueInfo._id,
            venueName: venueNameIn(venueInfo, language),
            place: [venueInfo.neighborhood, venueInfo.city].filter(Boolean).join(', '),
            maxPartySize: venueInfo.maxPartySize,
            sections: venueInfo.sections,
            settings: venueInfo.settings,
            hasLoginJourney: venueInfo.hiredServices.loginJourney,
            reservationUrl: venueInfo.reservationUrl,
            channel: venueInfo.channel ?? 'sms',
          }}
        />
      )}
    </VenueLayout>
  );
}

import { PositionScreen, usePosition } from '../../features/position';
import { useVenueBranding, useVenueInfo, venueNameIn } from '../../features/venue-info';
import { useParams } from '../../lib/router';
import { VenueLayout } from '../layouts/venue-layout';

/**
 * /waitlist/:waitlistId: the position feature inside the venue's branded frame. The venue is
 * known only once the position answers (it names the entry's venue), so the branding follows it.
 */
export default function WaitlistRoute() {
  const { waitlistId = '' } = useParams();
  const position = usePosition(waitlistId);
  const { data: venue } = useVenueInfo(position.data?.waitlist.venue);
  const venueInfo = venue?.venueInfo;
  useVenueBranding(venueInfo?.color);
  return (
    <VenueLayout venueInfo={venueInfo}>
      <PositionScreen
        waitlistId={waitlistId}
        position={position}
        venue={
          venueInfo && {
            name: venueNameIn(venueInfo, position.lng),
            menuUrl: venueInfo.hasMenu ? venueInfo.settings.menuUrl : null,
            wording: venueInfo.settings.wording,
          }
        }
      />
    </VenueLayout>
  );
}

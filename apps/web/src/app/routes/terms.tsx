import { defaultColor } from '@vez/contract';
import { useState } from 'react';
import { TermsPage } from '../../features/terms';
import { readLastVenueInfo, useVenueBranding } from '../../features/venue-info';
import '../../locales/forms';

/** /terms-service: on the background colour of the venue of this session, light beige by default. */
export default function TermsRoute() {
  const [color] = useState(() => readLastVenueInfo()?.color ?? defaultColor);
  useVenueBranding(color);
  return <TermsPage background={color.background} />;
}

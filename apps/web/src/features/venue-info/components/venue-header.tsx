import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { VenueInfo } from '../lib/venue-info';
import { venueNameIn } from '../lib/venue-info';
import './venue-header.css';

interface VenueHeaderProps {
  venueInfo: VenueInfo | undefined;
  /** Right-hand controls (the language selector), composed by the route. */
  actions?: ReactNode;
}

/** Venue header: the spotlight image, the horizontal logo and the venue name in the current language. */
export function VenueHeader({ venueInfo, actions }: VenueHeaderProps) {
  const { t, i18n } = useTranslation();
  const name = venueInfo ? venueNameIn(venueInfo, i18n.language) : '';
  return (
    <header className="venue-header">
      <div className="venue-header__hero">
        {venueInfo && (
          <picture>
            <source media="(min-width: 768px)" srcSet={venueInfo.largeBackgroundImage} />
            <img
              className="venue-header__image"
              src={venueInfo.smallBackgroundImage}
              alt=""
              width={720}
              height={240}
              fetchPriority="high"
              decoding="async"
            />
          </picture>
        )}
      </div>
      <div className="venue-header__bar">
        <div className="venue-header__brand">
          {venueInfo?.logoHorizontal ? (
            <img
              className="venue-header__logo"
              src={venueInfo.logoHorizontal}
              alt={t('venue.logoAlt', { venueName: name })}
              width={160}
              height={48}
            />
          ) : null}
          {/* The horizontal logo already shows the name; the text stands in when there is none. */}
          <p className={venueInfo?.logoHorizontal ? 'visually-hidden' : 'venue-header__name'}>{name}</p>
        </div>
        {actions}
      </div>
    </header>
  );
}

import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { HEADER_IMAGE_SIZES, HEADER_WIDE_MEDIA, responsiveImage } from '@vez/contract';
import { keptBootSpotlight } from '../lib/boot-spotlight';
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
  // Until the venue's data is there, the boot screen's image goes on showing (docs/decisions/034-lean-diner-pages.md).
  const boot = venueInfo ? undefined : keptBootSpotlight();
  return (
    <header className="venue-header">
      <div className="venue-header__hero">
        {venueInfo && <HeaderImage small={venueInfo.smallBackgroundImage} large={venueInfo.largeBackgroundImage} />}
        {boot && <HeaderImage small={boot.small} large={boot.large} />}
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

/**
 * While a page's first screen loads: the header image of its boot screen, in the header's own frame,
 * or nothing when the boot screen had none.
 */
export function BootHeader() {
  const boot = keptBootSpotlight();
  if (!boot) return null;
  return (
    <header className="venue-header">
      <div className="venue-header__hero">
        <HeaderImage small={boot.small} large={boot.large} />
      </div>
    </header>
  );
}

/**
 * The spotlight image, the largest paint of the page: a phone gets a variant of its width
 * (srcset + sizes), at high priority; the hero's aspect-ratio reserves its box (no layout shift).
 * app/prefetch.ts preloads the same candidates (same srcset, sizes and media).
 */
function HeaderImage({ small, large }: { small: string; large: string }) {
  const wide = responsiveImage(large);
  const narrow = responsiveImage(small);
  return (
    <picture>
      <source media={HEADER_WIDE_MEDIA} srcSet={wide.srcSet ?? wide.src} sizes={HEADER_IMAGE_SIZES} />
      <img
        className="venue-header__image"
        src={narrow.src}
        srcSet={narrow.srcSet}
        sizes={HEADER_IMAGE_SIZES}
        alt=""
        width={720}
        height={240}
        fetchPriority="high"
        decoding="async"
      />
    </picture>
  );
}

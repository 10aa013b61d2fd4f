import type { ReactNode } from 'react';
import { LanguageSelector } from '../../features/language';
import { VenueHeader, type VenueInfo } from '../../features/venue-info';
import { SiteFooter } from './site-footer';

/** The branded frame of venue pages: header with logo, name and language selector; footer. */
export function VenueLayout({ venueInfo, children }: { venueInfo: VenueInfo | undefined; children: ReactNode }) {
  return (
    <>
      <VenueHeader venueInfo={venueInfo} actions={<LanguageSelector />} />
      <main className="page">{children}</main>
      <SiteFooter />
    </>
  );
}

import { type ThemeResponse, type VenueSettings, defaultVenueSettings } from '@vez/contract';
import type { Db } from '../db/connect.js';
import type { NewEntryRow, NewVenueRow } from '../db/types.js';
import { inTransaction } from '../db/transaction.js';
import { newEntryId } from '../lib/ids.js';
import { seedDemoStaff } from '../modules/staff/staff-seed.js';
import { advanceVenueSeq, countVenues, insertVenue } from '../modules/venues/venues.repository.js';
import { insertEntryRow } from '../modules/queue/index.js';

export const DEMO_BISTRO_ID = '6553f1a2b3c4d5e6f7a8b901';
export const DEMO_CLUB_ID = '6553f1a2b3c4d5e6f7a8b902';

export interface DemoVenue {
  row: Omit<NewVenueRow, 'created_at' | 'updated_at' | 'settings' | 'theme' | 'sections'>;
  settings: Partial<VenueSettings>;
  theme: ThemeResponse;
  sections: string[];
}

export const demoVenues: DemoVenue[] = [
  {
    row: {
      id: DEMO_BISTRO_ID,
      slug: 'bistro-demo',
      name_pt: 'Bistrô Demo',
      name_en: 'Demo Bistro',
      name_fr: 'Bistrot Démo',
      name_es: 'Bistró Demo',
      city: 'São Paulo',
      neighborhood: 'Pinheiros',
      has_menu: 1,
      login_journey: 0,
      max_party_size: 8,
      waitlist_active: 1,
      waitlist_locked: 0,
      next_seq: 1,
    },
    settings: { menuUrl: '/images/demo/menu.svg' },
    sections: [],
    theme: {
      color: { main: '#9a3412', background: '#fdf6ec', accentBackground: '#f6e7d3', border: '#e3cdb0' },
      logo: {
        vertical: '/demo/bistro-logo.svg',
        horizontal: '/demo/bistro-logo.svg',
        horizontalWhite: '/demo/bistro-logo.svg',
      },
      typeImageSpotlight: 'banners',
      inspirationalImage: { small: '', large: '' },
      banners: {
        list: [
          { isActive: true, imageUrl: '/demo/bistro-banner-1.svg' },
          { isActive: true, imageUrl: '/demo/bistro-banner-2.svg' },
          { isActive: false, imageUrl: '/demo/bistro-banner-old.svg' },
        ],
      },
    },
  },
  {
    row: {
      id: DEMO_CLUB_ID,
      slug: 'clube-demo',
      name_pt: 'Clube Demo',
      name_en: 'Demo Club',
      name_fr: null,
      name_es: null,
      city: 'Rio de Janeiro',
      neighborhood: 'Leblon',
      has_menu: 0,
      login_journey: 1,
      max_party_size: 6,
      waitlist_active: 1,
      waitlist_locked: 0,
      next_seq: 1,
    },
    settings: { emailRequired: true, sectionMode: 'required' },
    sections: ['Salão', 'Varanda', 'Bar'],
    theme: {
      color: { main: '#1e3a5f', background: '#eef3f8', accentBackground: '#dde7f1', border: '#b9cadb' },
      logo: {
        vertical: '/demo/clube-logo.svg',
        horizontal: '/demo/clube-logo.svg',
        horizontalWhite: '/demo/clube-logo.svg',
      },
      typeImageSpotlight: 'inspirational',
      inspirationalImage: { small: '/demo/clube-small.svg', large: '/demo/clube-large.svg' },
      banners: { list: [] },
    },
  },
];

const waitingParties = [
  { name: 'Marina Albuquerque', phone: '+5511987650001', size: 2 },
  { name: 'Rafael Nogueira', phone: '+5511987650002', size: 4 },
  { name: 'Carla Menezes', phone: '+5511987650003', size: 3 },
];

/** Seeds the demo venues of docs/product.md §5 and a few waiting parties; only into an empty database. */
export async function seedDemo(db: Db, now = Date.now(), options: { staff?: boolean } = {}): Promise<boolean> {
  if ((await countVenues(db.kysely)) > 0) return false;
  await inTransaction(db.kysely, async (trx) => {
    for (const venue of demoVenues) {
      await insertVenue(trx, {
        ...venue.row,
        sections: JSON.stringify(venue.sections),
        settings: JSON.stringify({ ...defaultVenueSettings, ...venue.settings }),
        theme: JSON.stringify(venue.theme),
        created_at: now,
        updated_at: now,
      });
    }
    let seq = 1;
    for (const party of waitingParties) {
      const entry: NewEntryRow = {
        id: newEntryId(),
        share_id: newEntryId(),
        venue_id: DEMO_BISTRO_ID,
        seq,
        status: 'active',
        priority: 0,
        party_size: party.size,
        band: party.size <= 2 ? 0 : party.size <= 4 ? 1 : 2,
        name: party.name,
        phone: party.phone,
        email: null,
        note: null,
        section: null,
        origin_label: 'Host',
        lang: 'pt',
        created_at: now - (waitingParties.length - seq + 1) * 6 * 60_000,
      };
      await insertEntryRow(trx, entry);
      seq += 1;
    }
    await advanceVenueSeq(trx, DEMO_BISTRO_ID, seq);
  });
  // A test of an early migration seeds the venues and parties alone: the staff tables of today are not there yet.
  if (options.staff !== false) await seedDemoStaff(db.kysely, now);
  return true;
}

import { type HostSettingsResponse, VenueSettingsPatch, defaultColor, defaultVenueSettings } from '@vez/contract';
import { describe, expect, it } from 'vitest';
import { DraftError, toDraft, toPatch } from './settings-draft';

const theme = {
  color: defaultColor,
  logo: { vertical: '/images/v.svg', horizontal: '/images/h.svg', horizontalWhite: '/images/w.svg' },
  typeImageSpotlight: 'banners',
  inspirationalImage: { small: '/images/s.svg', large: '/images/l.svg' },
  banners: { list: [{ isActive: true, imageUrl: '/images/b.svg' }] },
};
const answer: HostSettingsResponse = {
  venue: {
    _id: '6553f1a2b3c4d5e6f7a8b901',
    slug: 'bistro-demo',
    name: { pt: 'Bistrô Demo', en: 'Demo Bistro' },
    address: { city: 'São Paulo', neighborhood: 'Pinheiros' },
    hasMenu: true,
    hiredServices: { loginJourney: false },
    reservationUrl: 'https://example.com/r',
    settings: defaultVenueSettings,
  },
  theme,
  settings: { ...defaultVenueSettings, wording: { pt: { joinTitle: 'Entre na fila' } }, menuUrl: 'https://example.com/menu' },
  maxPartySize: 8,
  sections: ['Salão', 'Varanda'],
  waitlist: { active: true, locked: false },
};

/** Write bodies are strict on the server (an unknown key is a 422): the form sends only known keys. */
describe('settings form PATCH body', () => {
  it('is accepted by the strict contract schema as the form builds it', () => {
    const patch = toPatch(toDraft(answer));
    const parsed = VenueSettingsPatch.safeParse(patch);
    expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
    expect(Object.keys(patch).sort()).toEqual([
      'address',
      'hasMenu',
      'loginJourney',
      'maxPartySize',
      'name',
      'sections',
      'settings',
      'theme',
    ]);
  });

  it('leaves out empty names and refuses wording that is not JSON', () => {
    const draft = toDraft(answer);
    expect(toPatch(draft).name).toEqual({ pt: 'Bistrô Demo', en: 'Demo Bistro' });
    expect(() => toPatch({ ...draft, wordingText: '{' })).toThrow(DraftError);
  });

  it('sends the tables as numbers, drops empty rows, and refuses a size twice or a value out of range', () => {
    const draft = toDraft({ ...answer, settings: { ...answer.settings, tables: [{ seats: 2, count: 9 }] } });
    expect(draft.tablesRows).toEqual([{ seats: '2', count: '9' }]);
    const rows = (...tablesRows: { seats: string; count: string }[]) => toPatch({ ...draft, tablesRows }).settings?.tables;
    expect(rows({ seats: '2', count: '9' }, { seats: '', count: ' ' }, { seats: '4', count: '8' })).toEqual([
      { seats: 2, count: 9 },
      { seats: 4, count: 8 },
    ]);
    expect(VenueSettingsPatch.safeParse(toPatch({ ...draft, tablesRows: [{ seats: '4', count: '8' }] })).success).toBe(true);
    for (const bad of [
      [{ seats: '0', count: '1' }],
      [{ seats: '2', count: '1.5' }],
      [{ seats: '2', count: '201' }],
      [{ seats: '', count: '3' }],
    ])
      expect(() => rows(...bad), JSON.stringify(bad)).toThrow(new DraftError('settings.tables', 'tablesNumbers'));
    expect(() => rows({ seats: '2', count: '1' }, { seats: '2', count: '3' })).toThrow('tablesOnce');
  });
});

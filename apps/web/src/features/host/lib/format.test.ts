import { type HostEntry, type HostSettingsResponse, defaultVenueSettings } from '@vez/contract';
import { describe, expect, it } from 'vitest';
import { bandLabels, countByBand, imageSrc, localToday, minutesSince } from './format';
import { DraftError, toDraft, toPatch } from './settings-draft';

const entry = (partySize: number): HostEntry => ({
  _id: String(partySize),
  customerTab: '1',
  status: 'active',
  priority: false,
  partySize,
  name: 'Ana Souza',
  phone: null,
  email: null,
  note: null,
  section: null,
  originLabel: 'Host',
  globalPos: 1,
  pos: 1,
  quoted: null,
  arrivedAt: '2026-11-22T10:00:00.000Z',
  notifiedAt: null,
  reply: null,
  calls: 0,
  calledAt: null,
  holdUntil: null,
  unread: 0,
  lastMessage: null,
});

describe('console formatting', () => {
  it('counts parties and people per table-size band', () => {
    expect(bandLabels()).toEqual(['1–2', '3–4', '5–6', '7+']);
    expect(countByBand([entry(1), entry(2), entry(4), entry(9), entry(12)])).toEqual([
      { parties: 2, people: 3 },
      { parties: 1, people: 4 },
      { parties: 0, people: 0 },
      { parties: 2, people: 21 },
    ]);
  });

  it('builds webp image URLs and leaves empty paths empty', () => {
    expect(imageSrc('/images', '/uploads/a.png')).toBe('/images/uploads/a.png?quality=70&format=webp');
    expect(imageSrc('/images/', 'https://cdn.example/x.png?v=2')).toBe('https://cdn.example/x.png?v=2&quality=70&format=webp');
    expect(imageSrc('/images', '')).toBe('');
    expect(imageSrc('/images', 'undefined')).toBe('');
  });

  it('counts whole minutes waited and the local day', () => {
    expect(minutesSince('2026-11-22T10:00:00.000Z', Date.parse('2026-11-22T10:12:59.000Z'))).toBe(12);
    expect(minutesSince('2026-11-22T10:00:00.000Z', Date.parse('2026-11-22T09:59:00.000Z'))).toBe(0);
    const today = localToday(new Date('2026-11-22T01:30:00.000Z'));
    expect(today.tz).toBe(-new Date('2026-11-22T01:30:00.000Z').getTimezoneOffset());
    expect(today.date).toMatch(/^2026-11-2[12]$/);
  });
});

describe('settings draft', () => {
  const settings: HostSettingsResponse = {
    venue: {
      _id: '6553f1a2b3c4d5e6f7a8b901',
      slug: 'bistro-demo',
      name: { pt: 'Bistrô Demo', en: 'Demo Bistro' },
      address: { city: 'São Paulo', neighborhood: 'Pinheiros' },
      hasMenu: true,
      hiredServices: { loginJourney: false },
      reservationUrl: 'https://reservas.example/x',
      settings: {} as HostSettingsResponse['settings'],
    },
    theme: {
      color: { main: '#9a3412', background: '#fdf6ec', accentBackground: '#f6e7d3', border: '#e3cdb0' },
      logo: { vertical: '', horizontal: '', horizontalWhite: '' },
      typeImageSpotlight: 'banners',
      inspirationalImage: { small: '', large: '' },
      banners: { list: [] },
    },
    settings: {
      hidePriorityDisclaimer: false,
      emailRequired: false,
      sectionMode: 'none',
      noteMode: 'note',
      hideReceptionistHint: false,
      hidePosition: false,
      showWaitBeforeJoin: true,
      wording: { en: { 'join.title': 'Hi' } },
      menuUrl: '/menu.pdf',
      reservationUrl: null,
      operationMode: 'basic',
      maxWaitingParties: 200,
      smsCountries: ['BR'],
      // docs/product.md §8's settings, as every venue starts them.
      holdMinutes: defaultVenueSettings.holdMinutes,
      autoNoShow: defaultVenueSettings.autoNoShow,
      gettingCloseAt: defaultVenueSettings.gettingCloseAt,
      gettingCloseMinutes: defaultVenueSettings.gettingCloseMinutes,
      seatedMessage: defaultVenueSettings.seatedMessage,
      smsWithoutAccents: defaultVenueSettings.smsWithoutAccents,
      channel: defaultVenueSettings.channel,
      messageTemplates: defaultVenueSettings.messageTemplates,
      // docs/product.md §2: no tables given.
      tables: defaultVenueSettings.tables,
    },
    maxPartySize: 8,
    sections: ['Salão', 'Varanda'],
    waitlist: { active: true, locked: false },
  };

  it('round-trips into a PATCH body: sections from lines, empty names and URLs dropped, wording parsed', () => {
    const draft = toDraft(settings);
    expect(draft.sectionsText).toBe('Salão\nVaranda');
    const patch = toPatch({ ...draft, sectionsText: 'Salão\n\n Bar , Terraço', settings: { ...draft.settings, menuUrl: '  ' } });
    expect(patch.sections).toEqual(['Salão', 'Bar', 'Terraço']);
    expect(patch.name).toEqual({ pt: 'Bistrô Demo', en: 'Demo Bistro' });
    expect(patch.settings).toMatchObject({ menuUrl: null, reservationUrl: null, wording: { en: { 'join.title': 'Hi' } } });
    expect(patch.loginJourney).toBe(false);
  });

  it('refuses wording that is not a JSON object', () => {
    const draft = toDraft(settings);
    expect(() => toPatch({ ...draft, wordingText: '{oops' })).toThrow(DraftError);
    expect(() => toPatch({ ...draft, wordingText: '[1]' })).toThrow(DraftError);
    expect(toPatch({ ...draft, wordingText: '' }).settings?.wording).toEqual({});
  });

  it('edits the SMS countries and the cap of waiting parties (docs/product.md §3): codes upper-cased, empty cap is none', () => {
    const draft = toDraft(settings);
    expect(draft).toMatchObject({ smsCountriesText: 'BR', maxWaitingText: '200' });
    expect(toPatch({ ...draft, smsCountriesText: 'br, pt  us', maxWaitingText: ' 50 ' }).settings).toMatchObject({
      smsCountries: ['BR', 'PT', 'US'],
      maxWaitingParties: 50,
    });
    expect(toPatch({ ...draft, maxWaitingText: '' }).settings?.maxWaitingParties).toBeNull();
    expect(() => toPatch({ ...draft, maxWaitingText: 'many' })).toThrow(DraftError);
    expect(() => toPatch({ ...draft, maxWaitingText: '2.5' })).toThrow(DraftError);
  });
});

/**
 * Plain values with no schema library behind them: the browser bundles them without zod
 * (package.json `sideEffects: false` lets the bundler skip the schema files a page does not use).
 */
import { DEFAULT_MAX_WAITING_PARTIES, DEFAULT_SMS_COUNTRIES } from './constants.js';
import type { Color, VenueSettings } from './venue.js';

export const defaultVenueSettings: VenueSettings = {
  hidePriorityDisclaimer: false,
  emailRequired: false,
  sectionMode: 'none',
  noteMode: 'note',
  hideReceptionistHint: false,
  hidePosition: false,
  showWaitBeforeJoin: true,
  wording: {},
  menuUrl: null,
  reservationUrl: null,
  operationMode: 'basic',
  maxWaitingParties: DEFAULT_MAX_WAITING_PARTIES,
  smsCountries: [...DEFAULT_SMS_COUNTRIES],
  holdMinutes: 10,
  autoNoShow: false,
  gettingCloseAt: 3,
  gettingCloseMinutes: 15,
  seatedMessage: false,
  channel: 'sms',
  smsWithoutAccents: true,
  messageTemplates: {},
  tables: [],
};

export const defaultColor: Color = {
  main: '#8a3b12',
  background: '#f7f1e8',
  accentBackground: '#efe4d3',
  border: '#d9c7ad',
};

import { BISTRO_HOST, DEMO_PASSWORD } from '../staff-session.js';
import { DEMO_BISTRO_ID, DEMO_CLUB_ID, createBody } from '../fixtures.js';

/** Replaced by a fresh phone in each request, so a valid mutant is a new party, not a repeat join. */
export const PHONE = '__PHONE__';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/**
 * A valid body per write route (`METHOD url` as the route table names it): the fuzzer mutates it
 * so most requests get past the first check. A route without one here is fuzzed with arbitrary
 * JSON and other bodies only; add its valid body here to fuzz it deeper.
 */
export const seedBodies: Record<string, Json> = {
  'POST /api/waitlists/:venueId/create': { ...createBody({ customer: { phone: PHONE }, note: 'Mesa perto da janela' }), lang: 'pt' },
  'PUT /api/waitlists/:waitlistId/:venueId/cancel': {
    logs: { customer: 'c1', actionType: 'Remove' },
    customer: 'c1',
    cancelReason: 'Customer',
  },
  'POST /api/host/login': { email: BISTRO_HOST, password: DEMO_PASSWORD },
  'POST /api/host/venues/:venueId/entries': {
    customer: { name: 'Bruno Lima', phone: PHONE, email: '' },
    partySize: 2,
    note: 'walk-in',
    priority: false,
    lang: 'en',
  },
  'POST /api/host/venues/:venueId/entries/:entryId/cancel': { reason: 'NoShow' },
  'PATCH /api/host/venues/:venueId/entries/:entryId': { partySize: 3, note: 'perto da porta', priority: true },
  'PUT /api/host/venues/:venueId/waitlist': { active: true, locked: false },
  'PATCH /api/host/venues/:venueId/settings': {
    name: { pt: 'Bistrô Demo', en: 'Demo Bistro' },
    address: { city: 'São Paulo', neighborhood: 'Pinheiros' },
    maxPartySize: 8,
    sections: ['Salão', 'Varanda'],
    settings: {
      hidePosition: false,
      wording: { pt: { joinTitle: 'Entre na fila' } },
      menuUrl: 'https://example.com/menu',
      maxWaitingParties: 200,
      smsCountries: ['BR'],
    },
    theme: {
      color: { main: '#112233' },
      typeImageSpotlight: 'banners',
      banners: { list: [{ isActive: true, imageUrl: '/images/demo/bistro-banner-1.svg' }] },
    },
  },
  'POST /api/otp/send': { productName: 'waitlist', channel: 'sms', target: PHONE, venueId: DEMO_CLUB_ID, type: 'validate', lang: 'pt' },
  'POST /api/product-user/otp': {
    firstName: 'Ana',
    lastName: 'Souza',
    phone: PHONE,
    email: '',
    productName: 'waitlist',
    otp: '123456',
    channel: 'sms',
    venueId: DEMO_CLUB_ID,
  },
  'POST /api/product-user': {
    firstName: 'Ana',
    lastName: 'Souza',
    phone: PHONE,
    email: '',
    productName: 'waitlist',
    otp: '123456',
    channel: 'sms',
  },
  'PATCH /api/product-user': {
    firstName: 'Ana',
    lastName: 'Souza',
    birthday: '1990-05-17',
    gender: 'f',
    email: 'ana@example.com',
    lang: 'en',
  },
  'POST /api/product-user/oauth2/passport': { passport: 'p'.repeat(43), productName: 'waitlist', lang: 'pt' },
  'POST /api/product-user/event': { venueId: DEMO_BISTRO_ID, eventType: 'waitlist-enter', eventBody: { data: { partySize: 2 } } },
};

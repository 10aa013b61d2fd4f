import { CreateWaitlistBody, defaultVenueSettings } from '@vez/contract';
import { describe, expect, it } from 'vitest';
import { FullNameMissingError, buildCreatePayload, splitName } from './build-create-payload';
import { emptyJoinForm } from './join-form-schema';

const venueId = '6553f1a2b3c4d5e6f7a8b901';
const values = {
  ...emptyJoinForm,
  partySize: '3',
  name: '  Maria  da Silva ',
  phone: '+55 (11) 98765-4321',
  email: 'maria@example.com',
  note: 'Cadeira de bebê',
};

describe('create payload (docs/product.md §13)', () => {
  it('is exactly the spec payload plus the language', () => {
    const payload = buildCreatePayload(values, { venueId, settings: defaultVenueSettings }, 'en');
    expect(payload).toEqual({
      customer: { name: 'Maria da Silva', phone: '+5511987654321', email: 'maria@example.com' },
      venue: venueId,
      origin: { label: 'Widget' },
      partySize: 3,
      benefits: '',
      logs: { actionType: 'Add' },
      data: { origin: 'Waitlist widget' },
      sendSms: true,
      note: 'Cadeira de bebê',
      lang: 'en',
    });
    expect(CreateWaitlistBody.safeParse(payload).success).toBe(true);
  });

  it('sends an empty email and note when none was given', () => {
    const payload = buildCreatePayload({ ...values, email: '', note: '' }, { venueId, settings: defaultVenueSettings }, 'pt');
    expect(payload.customer.email).toBe('');
    expect(payload.note).toBe('');
    expect(CreateWaitlistBody.safeParse(payload).success).toBe(true);
  });

  it("prefixes the note with 'Localização: <section>' when the venue asks for a section", () => {
    const settings = { ...defaultVenueSettings, sectionMode: 'required' as const };
    expect(buildCreatePayload({ ...values, section: 'Varanda' }, { venueId, settings }, 'pt').note).toBe(
      'Localização: Varanda\nCadeira de bebê',
    );
    expect(buildCreatePayload({ ...values, note: '', section: 'Bar' }, { venueId, settings }, 'pt').note).toBe('Localização: Bar');
  });

  it('joins location and company name into the note in that mode', () => {
    const settings = { ...defaultVenueSettings, noteMode: 'locationAndCompany' as const };
    const payload = buildCreatePayload({ ...values, location: 'Torre B, 5º andar', company: 'Acme' }, { venueId, settings }, 'pt');
    expect(payload.note).toBe('Torre B, 5º andar - Acme');
  });

  it('splits the full name: the last word is the last name, the rest the first name', () => {
    expect(splitName('Maria da Silva')).toEqual({ firstName: 'Maria da', lastName: 'Silva' });
    expect(splitName('  Ana   Lu ')).toEqual({ firstName: 'Ana', lastName: 'Lu' });
    expect(splitName('Maria')).toBeUndefined();
  });

  it("refuses a single word with 'Por favor, informe seu nome completo.'", () => {
    expect(() => buildCreatePayload({ ...values, name: 'Maria' }, { venueId, settings: defaultVenueSettings }, 'pt')).toThrow(
      new FullNameMissingError(),
    );
    expect(new FullNameMissingError().message).toBe('Por favor, informe seu nome completo.');
  });
});

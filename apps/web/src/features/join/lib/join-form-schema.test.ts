import { defaultVenueSettings, phoneProblem } from '@vez/contract';
import { describe, expect, it } from 'vitest';
import { type JoinFormValues, type JoinRules, emptyJoinForm, joinFormSchema } from './join-form-schema';

const rules = (over: Partial<JoinRules['settings']> = {}, sections: string[] = []): JoinRules => ({
  maxPartySize: 8,
  sections,
  settings: { ...defaultVenueSettings, ...over },
});

const valid: JoinFormValues = { ...emptyJoinForm, partySize: '2', name: 'Maria Silva', phone: '+55 (11) 98765-4321' };

/** The message of each failing field, as the contract writes it (docs/product.md §15, word for word). */
function errorsOf(values: Partial<JoinFormValues>, r: JoinRules = rules()): Record<string, string> {
  const result = joinFormSchema(r).safeParse({ ...valid, ...values });
  if (result.success) return {};
  return Object.fromEntries(result.error.issues.map((i) => [i.path.join('.'), i.message]));
}

describe('join form rules (docs/product.md §15)', () => {
  it('accepts a complete form', () => {
    expect(errorsOf({})).toEqual({});
  });

  it('asks for a surname: two letters, a space, a surname of at least two characters', () => {
    expect(errorsOf({ name: 'Maria' })).toEqual({ name: 'Insert Surname' });
    expect(errorsOf({ name: 'M Silva' })).toEqual({ name: 'Insert Surname' });
    expect(errorsOf({ name: 'Maria S' })).toEqual({ name: 'Insert Surname' });
    expect(errorsOf({ name: 'Zé da Silva' })).toEqual({});
    expect(errorsOf({ name: 'Ana Lú' })).toEqual({});
  });

  it('needs a phone with at least 9 digits after the country code', () => {
    expect(errorsOf({ phone: '' })).toEqual({ phone: 'Invalid phone number' });
    expect(errorsOf({ phone: '+55 1234-5678' })).toEqual({ phone: 'Invalid phone number' });
    expect(errorsOf({ phone: '+1 (201) 555-0123' })).toEqual({});
    expect(errorsOf({ phone: '+55 123456789012345678' })).toEqual({ phone: 'Invalid phone number' });
  });

  it('with the contract’s phone rule: a mobile, and a landline refused with its own message', () => {
    const withRule = (phone: string) => joinFormSchema(rules(), phoneProblem).safeParse({ ...valid, phone }).error?.issues;
    expect(withRule('+55 (11) 97777-6543')).toBeUndefined();
    expect(withRule('+55 (11) 3456-7890')).toEqual([expect.objectContaining({ path: ['phone'], message: 'Use a mobile number' })]);
    expect(withRule('+55 (11) 8765-4321')).toEqual([expect.objectContaining({ path: ['phone'], message: 'Invalid phone number' })]);
    expect(withRule('+1 (201) 555-0123')).toBeUndefined();
  });

  it('takes an optional email, which must look like an address', () => {
    expect(errorsOf({ email: '' })).toEqual({});
    expect(errorsOf({ email: 'maria@' })).toEqual({ email: 'Invalid email' });
    expect(errorsOf({ email: 'maria@example.com' })).toEqual({});
  });

  it('requires the email when the venue says so', () => {
    expect(errorsOf({ email: '' }, rules({ emailRequired: true }))).toEqual({ email: 'Invalid email' });
    expect(errorsOf({ email: 'maria@example.com' }, rules({ emailRequired: true }))).toEqual({});
  });

  it('requires a party size between 1 and maxPartySize', () => {
    expect(errorsOf({ partySize: '' })).toEqual({ partySize: 'Party size is required' });
    expect(errorsOf({ partySize: '9' })).toEqual({ partySize: 'Party size is required' });
    expect(errorsOf({ partySize: '8' })).toEqual({});
  });

  it('keeps the note at most 255 characters, prefix included', () => {
    expect(errorsOf({ note: 'x'.repeat(255) })).toEqual({});
    expect(errorsOf({ note: 'x'.repeat(256) })).toEqual({ note: 'At most 255 characters' });
    const sectioned = rules({ sectionMode: 'required' }, ['Bar']);
    expect(errorsOf({ section: 'Bar', note: 'x'.repeat(250) }, sectioned)).toEqual({ note: 'At most 255 characters' });
  });

  it('requires the unit in unit mode, and the location in location-and-company mode', () => {
    expect(errorsOf({ note: ' ' }, rules({ noteMode: 'unit' }))).toEqual({ note: 'Required' });
    expect(errorsOf({ note: 'Unidade Centro' }, rules({ noteMode: 'unit' }))).toEqual({});
    expect(errorsOf({ location: '' }, rules({ noteMode: 'locationAndCompany' }))).toEqual({ location: 'Required' });
    expect(errorsOf({ location: 'Torre B' }, rules({ noteMode: 'locationAndCompany' }))).toEqual({});
  });

  it('requires one of the venue sections in section mode', () => {
    const sectioned = rules({ sectionMode: 'required' }, ['Salão', 'Varanda']);
    expect(errorsOf({ section: '' }, sectioned)).toEqual({ section: 'Required' });
    expect(errorsOf({ section: 'Cozinha' }, sectioned)).toEqual({ section: 'Required' });
    expect(errorsOf({ section: 'Varanda' }, sectioned)).toEqual({});
  });
});

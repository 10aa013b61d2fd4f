import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { messages } from './messages.js';
import { CreateWaitlistBody } from './join-body.js';
import { parsePhoneNumberFromString } from 'libphonenumber-js/min';
import { parsePhone, readByLibrary, readPhone, recentCountryOf } from './phone.js';
import { isPlausiblePhone } from './phone-digits.js';
import { Phone } from './phone-schema.js';

/** docs/product.md §15: phones as people paste them (WhatsApp, contact cards, typed by hand). */
describe('phones as people paste them', () => {
  it.each([
    ['+55 11 98765-4321', '+5511987654321'],
    ['55 (11) 98765 4321', '+5511987654321'],
    ['011 98765-4321', '+5511987654321'],
    ['(11)98765-4321', '+5511987654321'],
    ['+55 (11) 97777-6543', '+5511977776543'],
    ['11987654321', '+5511987654321'],
    ['+5511987654321', '+5511987654321'],
    ['11.98765.4321', '+5511987654321'],
    ['11 98765 4321', '+5511987654321'],
    ['  (21) 99876-5432  ', '+5521998765432'],
    ['021 99876-5432', '+5521998765432'],
    ['5511977776543', '+5511977776543'],
    // Area code 55 (Santa Maria, RS) is not mistaken for the country code.
    ['(55) 98765-4321', '+5555987654321'],
    ['+55 (55) 98765-4321', '+5555987654321'],
    // Foreign numbers: valid here; the venue's SMS countries decide (docs/product.md §3.6).
    ['+1 (415) 555-2671', '+14155552671'],
    ['+351 912 345 678', '+351912345678'],
  ])('%j is %s', (input, e164) => {
    expect(readPhone(input)).toMatchObject({ ok: true, phone: { e164 } });
    expect(Phone.safeParse(input).success).toBe(true);
  });

  it.each([['+55 11 3456-7890'], ['(11) 3456-7890'], ['1134567890'], ['55 11 3456 7890'], ['011 2345-6789'], ['+55 (21) 5432-1098']])(
    '%j is a landline: "Use a mobile number"',
    (input) => {
      expect(parsePhone(input)).toBeDefined();
      expect(readPhone(input)).toEqual({ ok: false, problem: 'landline' });
      const result = Phone.safeParse(input);
      expect(result.success).toBe(false);
      expect(result.error?.issues.map((i) => i.message)).toEqual([messages.mobile]);
    },
  );

  it.each([
    ['1234'],
    ['11 9abc-12345'],
    ['+55 00 00000-0000'],
    ['+55 5511977776543'],
    // Without the area code, or an old 8-digit mobile without its 9.
    ['98765-4321'],
    ['(11) 8765-4321'],
    // An area code Brazil does not have.
    ['(10) 98765-4321'],
    ['(11) 1234-5678'],
    ['0800 123 4567'],
    ['+55 11 98765-43210'],
    ['1-800-FLOWERS'],
    [''],
  ])('%j is refused: "Invalid phone number"', (input) => {
    expect(readPhone(input)).toEqual({ ok: false, problem: 'invalid' });
    const result = Phone.safeParse(input);
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => i.message)).toEqual([messages.phone]);
  });

  it('reads a number typed without its country code in the country the form shows', () => {
    expect(readPhone('(415) 555-2671', 'US')).toMatchObject({ ok: true, phone: { e164: '+14155552671', country: 'US' } });
    expect(readPhone('912 345 678', 'pt')).toMatchObject({ ok: true, phone: { e164: '+351912345678', country: 'PT' } });
  });

  it('the create payload refuses a landline at customer.phone', () => {
    const body = {
      customer: { name: 'Ana Souza', phone: '+55 11 3456-7890', email: '' },
      venue: '6553f1a2b3c4d5e6f7a8b901',
      origin: { label: 'Widget' },
      partySize: 2,
      benefits: '',
      logs: { actionType: 'Add' },
      data: { origin: 'Waitlist widget' },
      sendSms: true,
    };
    const result = CreateWaitlistBody.safeParse(body);
    expect(result.error?.issues).toEqual([expect.objectContaining({ path: ['customer', 'phone'], message: messages.mobile })]);
    expect(CreateWaitlistBody.safeParse({ ...body, customer: { ...body.customer, phone: '+55 (11) 97777-6543' } }).success).toBe(true);
  });
});

describe('the country of a phone just read', () => {
  it('is what parsing its E.164 number again would say, and unknown for a number never read', () => {
    const inputs = ['+55 11 98765-4321', '+1 416 555 0199', '+1 212 555 0199', '+351 912 345 678', '+44 7911 123456', '+882 3400 0123'];
    for (const input of inputs) {
      const reading = readPhone(input);
      if (!reading.ok) continue;
      expect(recentCountryOf(reading.phone.e164), input).toEqual({ country: parsePhoneNumberFromString(reading.phone.e164)?.country });
    }
    expect(recentCountryOf('+5511900000000')).toBeUndefined();
  });
});

describe('Brazilian mobiles read without the phone library', () => {
  const AREAS = [
    '11',
    '19',
    '21',
    '27',
    '31',
    '38',
    '41',
    '51',
    '55',
    '61',
    '71',
    '79',
    '81',
    '91',
    '99',
    '10',
    '20',
    '23',
    '50',
    '52',
    '56',
    '60',
    '70',
    '72',
    '90',
  ];
  const digits = (n: number) => fc.array(fc.integer({ min: 0, max: 9 }), { minLength: n, maxLength: n }).map((d) => d.join(''));
  // A number as people write it: a prefix (or none), the area code, a 9 or another first digit, eight digits,
  // with spaces, dots, dashes and brackets anywhere between the characters.
  const written = fc
    .tuple(
      fc.constantFrom('', '+55', '55', '0', '+1', '+351', '+550', '0055'),
      fc.constantFrom(...AREAS),
      fc.constantFrom('9', '9', '9', '8', '3'),
      digits(8),
      fc.array(fc.constantFrom('', '', '', ' ', '-', '.', '(', ')', '  '), { minLength: 24, maxLength: 24 }),
    )
    .map(([prefix, area, first, rest, gaps]) => [...`${prefix}${area}${first}${rest}`].map((char, i) => char + gaps[i]!).join(''));

  it('reads every way of writing a number as the library does, whatever the default country', () => {
    fc.assert(
      fc.property(written, fc.constantFrom('br', 'pt', 'us'), (input, country) => {
        expect(parsePhone(input, country)).toEqual(isPlausiblePhone(input) ? readByLibrary(input, country) : undefined);
      }),
      { numRuns: 5000 },
    );
  });
});

import { isBrazilianMobileE164 } from '@vez/contract';
import { parsePhoneNumberFromString } from 'libphonenumber-js/min';
import { describe, expect, it } from 'vitest';
import { phoneCountryOf } from './phone.js';
import { seededRandom } from './seeded-random.js';

const r = seededRandom(2026_11_27);
const digits = (n: number) => Array.from({ length: n }, () => Math.floor(r() * 10)).join('');

/**
 * Stored phones as the server texts them: Brazilian numbers of every area code (valid or not) and
 * first digit (mobiles start with 9), of 10 and 11 digits, and other countries' numbers.
 */
const storedPhones = [
  ...Array.from({ length: 3_000 }, () => `+55${String(10 + Math.floor(r() * 90))}${digits(1)}${digits(7 + Math.floor(r() * 2))}`),
  ...Array.from({ length: 500 }, () => `+55${String(10 + Math.floor(r() * 90))}9${digits(8)}`),
  ...['1', '351', '44', '54', '595'].flatMap((code) => Array.from({ length: 100 }, () => `+${code}${digits(10)}`)),
];

/** docs/decisions/063-join-texts-without-libraries.md: a phone's country without the phone library, for Brazilian mobiles. */
describe("a stored phone's country", () => {
  it("is the phone library's for every number, Brazilian mobile or not", () => {
    let fast = 0;
    for (const phone of storedPhones) {
      if (isBrazilianMobileE164(phone)) fast += 1;
      expect(phoneCountryOf(phone), phone).toBe(parsePhoneNumberFromString(phone)?.country);
    }
    // The numbers read without the library are many, and not all of the Brazilian ones.
    expect(fast).toBeGreaterThan(400);
    expect(fast).toBeLessThan(3_500);
  });

  it('of a Brazilian mobile is Brazil, by its digits alone', () => {
    expect(isBrazilianMobileE164('+5511987654321')).toBe(true);
    expect(isBrazilianMobileE164('+5521998765432')).toBe(true);
    // A landline, an area code Brazil does not use, a digit short, another country.
    expect(isBrazilianMobileE164('+551133334444')).toBe(false);
    expect(isBrazilianMobileE164('+5520987654321')).toBe(false);
    expect(isBrazilianMobileE164('+551198765432')).toBe(false);
    expect(isBrazilianMobileE164('+15511987654321')).toBe(false);
  });
});

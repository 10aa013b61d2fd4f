/**
 * The cheap checks of a phone's text, without the phone library: the join page's first load uses
 * them (its JS budget, docs/decisions/028); `phone.ts` reads the number itself.
 */

export function phoneDigits(value: string): string {
  return value.replace(/\D/g, '');
}

/**
 * docs/product.md §15: an optional country prefix plus at least 9 digits; parsing rejects numbers under
 * 2 or over 17 digits. Only digits, spaces, dots, dashes and brackets: never letters (no vanity numbers).
 */
export function isPlausiblePhone(value: string): boolean {
  if (!/^\+?[\d\s().-]+$/.test(value.trim())) return false;
  const digits = phoneDigits(value).length;
  return digits >= 9 && digits <= 17;
}

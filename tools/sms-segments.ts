/**
 * Prints the SMS segments of every built-in text (docs/product.md §8), per language, for the README:
 * `node --import tsx tools/sms-segments.ts`. Worst case: a venue name of 30 characters, the position
 * link of `https://vez.example` (a 22-character entry id), a hold of 120 minutes, place 50. The
 * venue's name has accents, as many in Brazil do: it alone makes an English SMS UCS-2.
 */
import { MESSAGE_KINDS, builtInTemplate, renderTemplate, smsSegments, toGsm7 } from '@vez/contract';

const venue = 'Cantina e Pizzaria São Gonçalo'; // 30 characters
const link = 'https://vez.example/waitlist/Xk3pQ9rT2vLm8nB4cD6fGh';
const withPassport = `${link}?passport=${'p'.repeat(43)}`;
const rows: string[] = [
  '| text | pt, accents kept | pt, SMS sem acentos | en, accents kept | en, SMS sem acentos |',
  '|---|---|---|---|---|',
];
const cost = (text: string) => {
  const { segments, encoding, units } = smsSegments(text);
  return `${segments} (${encoding}, ${units})`;
};
const cases = [
  ...MESSAGE_KINDS.map((kind) => ({ kind, label: kind, link })),
  { kind: 'join' as const, label: 'join, login link', link: withPassport },
];
for (const { kind, label, link: url } of cases) {
  const render = (lang: 'pt' | 'en') =>
    renderTemplate(builtInTemplate(kind, lang, { hideReceptionistHint: false, holdMinutes: 120 }), {
      venue,
      link: url,
      hold: 120,
      position: 50,
    });
  rows.push(`| ${label} | ${cost(render('pt'))} | ${cost(toGsm7(render('pt')))} | ${cost(render('en'))} | ${cost(toGsm7(render('en')))} |`);
}
console.log(rows.join('\n'));

// A join's phone and its SMS text, read and written as every join does (docs/decisions/063-join-texts-without-libraries.md),
// each against the way before, in the same process, in turns (bench/lib/micro-compare.ts):
// - the phone: a Brazilian mobile as the API benchmark writes it and as people type it, read by the
//   phone library (before) and by `parsePhone`'s own reading of a Brazilian mobile (now);
// - the join SMS in Portuguese with its link, without accents and counted (`toGsm7`, `smsSegments`):
//   every character looked up in GSM 03.38's two lists (before), one class searched once (now);
// - a stored phone's country, as a call's or a seat's SMS asks it (decision 063).
// Run: node --import tsx bench/lib/join-text-micro.ts
import { GSM_03_38, parsePhone, readByLibrary, renderTemplate, smsSegments, toGsm7 } from '@vez/contract';
import { parsePhoneNumberFromString } from 'libphonenumber-js/min';
import { builtInTemplate } from '../../packages/contract/src/message-texts.js';
import { phoneCountryOf } from '../../apps/server/src/lib/phone.js';
import { compareInTurns } from './micro-compare.js';

let n = 0;
for (const [name, write] of [
  ['the API benchmark\'s phone, "+55 11 9…"', (i: number) => `+55 11 9${80_000_000 + (i % 10_000_000)}`],
  ['a phone as typed, "(11) 9….-…."', (i: number) => `(11) 9${String(8000 + (i % 2000))}-${String(1000 + (i % 9000))}`],
] as const) {
  if (JSON.stringify(parsePhone(write(1))) !== JSON.stringify(readByLibrary(write(1))))
    throw new Error(`the two readings differ: ${write(1)}`);
  compareInTurns(
    `reading ${name}: the phone library / the shortcut`,
    () => readByLibrary(write(n++)),
    () => parsePhone(write(n++)),
  );
}

const { basic, extension } = GSM_03_38;
const inLists = (char: string) => basic.includes(char) || extension.includes(char);
/** toGsm7 and smsSegments as they were: each character looked up in the lists (no lookalike in this text). */
const byCharacter = (text: string) => {
  let out = '';
  for (const char of text.normalize('NFC')) {
    if (inLists(char)) out += char;
    else if (/^\s$/u.test(char)) out += ' ';
    else {
      const bare = char.normalize('NFD').replace(/\p{M}+/gu, '');
      if (bare.length > 0) out += [...bare].every(inLists) ? bare : '?';
    }
  }
  let septets = 0;
  for (const char of out) septets += basic.includes(char) ? 1 : 2;
  return { out, septets };
};
const text = renderTemplate(builtInTemplate('join', 'pt', { hideReceptionistHint: false, holdMinutes: 10 }), {
  venue: 'Bistrô São Jorge',
  link: 'https://vez.example/waitlist/q3Jx9ZrT0bLkW2mN5vA8cQ',
  name: 'Ana',
});
const now = () => {
  const out = toGsm7(text);
  return { out, septets: smsSegments(out).units };
};
if (JSON.stringify(byCharacter(text)) !== JSON.stringify(now())) throw new Error('the two writings differ');
compareInTurns(`the join SMS without accents, counted (${text.length} characters): by character / one class`, () => byCharacter(text), now);

// A call's or a seat's SMS asks the country of the party's stored phone, read long before (out of
// the server's memo of recent phones): the phone library's parse (before), the phone's own digits
// (now, docs/decisions/063-join-texts-without-libraries.md).
const stored = (i: number) => `+55119${80_000_000 + (i % 10_000_000)}`;
if (phoneCountryOf(stored(1)) !== parsePhoneNumberFromString(stored(1))?.country) throw new Error('the two countries differ');
compareInTurns(
  "a stored Brazilian mobile's country: the phone library / its digits",
  () => parsePhoneNumberFromString(stored(n++))?.country,
  () => phoneCountryOf(stored(n++)),
);

import * as z from 'zod/mini';
import { plainText } from './plain-text.js';

/**
 * The venue's message texts (docs/product.md §8): one per kind and language, with variables in
 * braces; built-in defaults where the venue wrote none. Shared by the server (what it sends) and
 * the console's editor (its preview and segment count).
 */

export const MESSAGE_KINDS = ['join', 'gettingClose', 'call', 'seated', 'noShow'] as const;
export type MessageKind = (typeof MESSAGE_KINDS)[number];
export const TEMPLATE_VARIABLES = ['name', 'venue', 'link', 'position', 'minutes', 'hold'] as const;
export type TemplateVariable = (typeof TEMPLATE_VARIABLES)[number];
export const TEMPLATE_MAX_LENGTH = 480;

const VARIABLE = /\{(\w+)\}/g;

/** The variables a text names that are not ours (a typo would go out as written). */
export function unknownVariables(template: string): string[] {
  return [...template.matchAll(VARIABLE)].map((m) => m[1]!).filter((v) => !(TEMPLATE_VARIABLES as readonly string[]).includes(v));
}

const Template = z.string().check(
  plainText(),
  z.minLength(1),
  z.maxLength(TEMPLATE_MAX_LENGTH),
  z.refine((t) => unknownVariables(t).length === 0, {
    error: `Use only these variables: ${TEMPLATE_VARIABLES.map((v) => `{${v}}`).join(' ')}.`,
  }),
);
const ByLanguage = z.strictObject({ pt: z.optional(Template), en: z.optional(Template) });

export const MessageTemplates = z
  .strictObject({
    join: z.optional(ByLanguage),
    gettingClose: z.optional(ByLanguage),
    call: z.optional(ByLanguage),
    seated: z.optional(ByLanguage),
    noShow: z.optional(ByLanguage),
  })
  .check(
    z.superRefine((templates, ctx) => {
      // The join message is how a party finds its page: its text must keep the link.
      for (const lang of ['pt', 'en'] as const) {
        const text = templates.join?.[lang];
        if (text !== undefined && !text.includes('{link}')) {
          ctx.issues.push({ code: 'custom', message: 'The join message must keep {link}.', input: text, path: ['join', lang] });
        }
      }
    }),
  );
export type MessageTemplates = z.infer<typeof MessageTemplates>;

export type TemplateValues = Partial<Record<TemplateVariable, string | number>>;

/** The text with its variables filled; a variable without a value becomes empty. */
export function renderTemplate(template: string, values: TemplateValues): string {
  return template.replace(VARIABLE, (_, name: string) => String(values[name as TemplateVariable] ?? ''));
}

export interface SmsSegments {
  encoding: 'GSM-7' | 'UCS-2';
  /** Septets (GSM-7) or UTF-16 code units (UCS-2). */
  units: number;
  segments: number;
  /** How many units one segment holds in this encoding (a single message; parts of a longer one hold fewer). */
  perSegment: number;
}

/**
 * GSM 03.38's basic set, and its extension table (each of those counts twice), as the standard lists
 * them. The checks below are NOT_GSM7, one class of the same characters; `templates.test.ts` checks
 * the class against these lists, code point by code point.
 */
export const GSM_03_38 = {
  basic:
    '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà',
  extension: '^{}\\[~]|€\f',
} as const;

/**
 * A character outside GSM 03.38's basic set and its extension table, as one class of code points:
 * a text is searched once, not each character against both lists (a join's SMS is counted and
 * written without accents at every join: docs/decisions/063-join-texts-without-libraries.md).
 */
const NOT_GSM7 = /[^@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&'()*+,\-./0-9:;<=>?¡A-ZÄÖÑÜ§¿a-zäöñüà^{}\\[~\]|€\f]/gu;
/** Whether every character of a text is in GSM-7's set (`search` ignores the class's `g` and its lastIndex). */
const isGsm7 = (text: string) => text.search(NOT_GSM7) < 0;
/** The extension table's characters: each costs two septets. */
const EACH_GSM7_EXTENSION = /[\^{}\\[~\]|€\f]/g;

/** How many SMS a text costs: GSM-7 when every character is in its set, else UCS-2. */
export function smsSegments(text: string): SmsSegments {
  if (isGsm7(text)) {
    // Every character of the set is one UTF-16 unit; the extension's cost a septet more.
    const septets = text.length + (text.match(EACH_GSM7_EXTENSION)?.length ?? 0);
    return { encoding: 'GSM-7', units: septets, segments: septets <= 160 ? 1 : Math.ceil(septets / 153), perSegment: 160 };
  }
  const units = text.length;
  return { encoding: 'UCS-2', units, segments: units <= 70 ? 1 : Math.ceil(units / 67), perSegment: 70 };
}

/** What GSM-7 lacks, written with what it has (after the accents are dropped). */
const GSM_LOOKALIKES: Record<string, string> = {
  º: 'o',
  ª: 'a',
  '°': 'o',
  '‘': "'",
  '’': "'",
  '‚': "'",
  '′': "'",
  '´': "'",
  '`': "'",
  '“': '"',
  '”': '"',
  '„': '"',
  '″': '"',
  '«': '"',
  '»': '"',
  '–': '-',
  '—': '-',
  '‐': '-',
  '‑': '-',
  '−': '-',
  '•': '-',
  '·': '.',
  '…': '...',
  '×': 'x',
  Œ: 'OE',
  œ: 'oe',
  Ð: 'D',
  ð: 'd',
  Þ: 'Th',
  þ: 'th',
  Ł: 'L',
  ł: 'l',
  Đ: 'D',
  đ: 'd',
  ı: 'i',
};
/** Marks that only decorate what they follow: emoji's joiners and presentation selectors. */
const INVISIBLE = /^(?:\p{Extended_Pictographic}|\p{Emoji_Modifier}|[\u200b-\u200f\u2060]|\ufe0e|\ufe0f|[\u{1f1e6}-\u{1f1ff}])$/u;

/**
 * The text in GSM-7 only, so an SMS costs 160 characters a segment instead of 70 (docs/product.md
 * §8, "SMS sem acentos"): a character of GSM 03.38 stays (é, à, ü, ñ, Ç and the extension table
 * among them); any other letter loses its accents (ã→a, ç→c, ê→e); typographic quotes, dashes,
 * ordinals and spaces become their plain forms; emoji go; anything else becomes `?`.
 */
export function toGsm7(text: string): string {
  // Only the characters outside the set are looked at; most texts have a few accents or none.
  return text.normalize('NFC').replace(NOT_GSM7, gsm7Of);
}

/** A character outside GSM-7, written with what GSM-7 has. */
function gsm7Of(char: string): string {
  const kept = written.get(char);
  if (kept !== undefined) return kept;
  const lookalike = GSM_LOOKALIKES[char];
  let out: string;
  if (lookalike !== undefined) out = lookalike;
  else if (/^\s$/u.test(char)) out = ' ';
  else if (INVISIBLE.test(char)) out = '';
  else {
    // A lone accent (a combining mark) is dropped with the rest.
    const bare = char.normalize('NFD').replace(/\p{M}+/gu, '');
    out = bare.length === 0 ? '' : isGsm7(bare) ? bare : '?';
  }
  // The few accented letters of a language come back at every message: each worked out once.
  if (written.size < WRITTEN_MAX) written.set(char, out);
  return out;
}
const written = /* @__PURE__ */ new Map<string, string>();
const WRITTEN_MAX = 1_000;

// Sends that cost money (docs/security.md): the segment cap and the links a template may carry.

/**
 * The most SMS segments one rendered message may cost (docs/security.md, segment cap): 4 segments
 * are 612 GSM-7 characters or 268 UCS-2 ones (Portuguese accents such as ã and ç need UCS-2). The
 * longest built-in text, the join SMS in Portuguese with a login link, costs 4 with a 60-letter
 * venue name in UCS-2, so no venue is refused its built-in texts; it halves the 8 segments a
 * 480-character text of accents and emoji could cost.
 */
export const SMS_MAX_SEGMENTS = 4;

/** `{name}` is the party's first name, at most this many characters: its longest value. */
export const TEMPLATE_NAME_MAX_LENGTH = 20;

/** The longest link a message can carry: the position page with a login passport (join only). */
export function longestLinkOf(kind: MessageKind, publicBaseUrl: string): string {
  const page = `${publicBaseUrl}/waitlist/${'X'.repeat(22)}`;
  // An entry id is 22 characters; a passport 43 (32 random bytes, base64url).
  return kind === 'join' ? `${page}?passport=${'X'.repeat(43)}` : page;
}

/** The longest values a template is filled with at send: the check at save renders with these. */
export function longestTemplateValues(kind: MessageKind, publicBaseUrl: string): TemplateValues {
  // Wide letters are 1 septet in GSM-7 and 1 unit in UCS-2 like any other: the count is the same.
  return { name: 'X'.repeat(TEMPLATE_NAME_MAX_LENGTH), link: longestLinkOf(kind, publicBaseUrl), position: 10_000, minutes: 999 };
}

/** Top-level domains a phone turns into a link even without `https://` or a path. */
const LINKED_TLDS = new Set(
  'com net org info biz io co me ly app dev page site online shop store link click xyz top club live gl to cc tk gg ws su ru cn br pt es fr de it nl uk us eu in ai'.split(
    ' ',
  ),
);
const SCHEME_URL = /\b[a-z][a-z0-9+.-]*:\/\/([^\s/?#]*)[^\s]*/gi;
const BARE_HOST = /(?<![\w@.-])((?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+([a-z]{2,24}))(?![\w-])(\/[^\s]*)?/gi;

/** A link found in a text and the host it points to (lower case, without user or port). */
export interface FoundLink {
  link: string;
  host: string;
}

const hostOf = (authority: string) => authority.replace(/^.*@/, '').replace(/:\d*$/, '').replace(/\.$/, '').toLowerCase();

/**
 * Every link a phone would show in this text: addresses with a scheme (`https://…`), and bare
 * hosts (`bit.ly/x`, `www.example.com`, `example.com`) that carry a path, start with `www.` or end
 * in a common top-level domain. `{link}` is ours and no link here.
 */
export function linksIn(text: string): FoundLink[] {
  const found: FoundLink[] = [];
  const rest = text.replace(SCHEME_URL, (link: string, authority: string) => {
    found.push({ link, host: hostOf(authority) });
    return ' ';
  });
  for (const m of rest.matchAll(BARE_HOST)) {
    const [link, host, tld, path] = m as unknown as [string, string, string, string | undefined];
    if (path || /^www\./i.test(host) || LINKED_TLDS.has(tld.toLowerCase())) found.push({ link, host: hostOf(host) });
  }
  return found;
}

/** The host of an absolute http(s) address, or undefined for a path or anything else. */
export function linkHostOf(url: string | null | undefined): string | undefined {
  const m = url ? /^https?:\/\/([^\s/?#\\]+)/i.exec(url) : null;
  return m ? hostOf(m[1]!) : undefined;
}

/** What a venue's own text is checked against at save and at send (docs/security.md). */
export interface TemplateCheck {
  /** The venue's name in the template's language. */
  venueName: string;
  /** Where the position pages are (the server's PUBLIC_BASE_URL). */
  publicBaseUrl: string;
  holdMinutes: number;
  /** The venue writes its SMS without accents ("SMS sem acentos"): a text is counted as it is sent. */
  withoutAccents?: boolean;
  /** Hosts a template may link to: the site's own, the venue's menu and reservation sites. */
  allowedHosts: readonly string[];
}

export type TemplateProblem = { kind: 'link'; link: string } | { kind: 'tooLong'; segments: number };

/** Why a venue's text may not be saved or sent: a link elsewhere, or past SMS_MAX_SEGMENTS at its longest. */
export function templateProblem(kind: MessageKind, template: string, check: TemplateCheck): TemplateProblem | undefined {
  const allowed = new Set(check.allowedHosts.map((h) => h.toLowerCase()));
  const foreign = linksIn(template).find((l) => !allowed.has(l.host));
  if (foreign) return { kind: 'link', link: foreign.link };
  const longest = renderTemplate(template, {
    ...longestTemplateValues(kind, check.publicBaseUrl),
    venue: check.venueName,
    hold: check.holdMinutes,
  });
  const { segments } = smsSegments(check.withoutAccents ? toGsm7(longest) : longest);
  return segments > SMS_MAX_SEGMENTS ? { kind: 'tooLong', segments } : undefined;
}

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

/** What the built-in texts depend on besides the language. */
export interface BuiltInOptions {
  hideReceptionistHint: boolean;
  holdMinutes: number;
}

/** The built-in text of a kind, as a template (the editor shows it; the server sends it when the venue wrote none). */
export function builtInTemplate(kind: MessageKind, lang: 'pt' | 'en', options: BuiltInOptions): string {
  const en = lang === 'en';
  const replies = en ? 'Reply 1 if you are on your way, 9 to leave.' : 'Responda 1 se estiver a caminho, 9 para sair.';
  switch (kind) {
    case 'join':
      return en
        ? `{venue}: you joined the waitlist. Follow your position: {link} ${replies}`
        : `{venue}: você entrou na fila de espera. Acompanhe sua posição: {link} ${replies}`;
    case 'call': {
      // English fits one GSM-7 SMS with a venue name of a dozen letters and a real link.
      const hint = options.hideReceptionistHint ? '' : en ? ' See the host.' : ' Procure a recepção.';
      const hold = options.holdMinutes > 0 ? (en ? ' Table held {hold} min.' : ' Sua mesa fica reservada por {hold} min.') : '';
      return en ? `{venue}: it's your turn!${hint}${hold} {link} ${replies}` : `{venue}: chegou a sua vez!${hint}${hold} {link} ${replies}`;
    }
    case 'gettingClose':
      return en
        ? '{venue}: almost your turn! You are number {position} in line. Please head to the venue. {link}'
        : '{venue}: falta pouco! Você é o {position}º da fila. Dirija-se ao restaurante. {link}';
    case 'seated':
      return en ? '{venue}: enjoy your meal! Thank you for waiting.' : '{venue}: bom apetite! Obrigado por esperar.';
    case 'noShow':
      return en
        ? "{venue}: we could not hold your table any longer, so your place was released. You can join again from the venue's link."
        : '{venue}: não foi possível segurar mais a sua mesa e a sua vez foi liberada. Você pode entrar de novo pelo link do restaurante.';
  }
}

/** GSM 03.38's basic set, and its extension table (each of those counts twice). */
const GSM_BASIC =
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà';
const GSM_EXTENSION = '^{}\\[~]|€\f';

export interface SmsSegments {
  encoding: 'GSM-7' | 'UCS-2';
  /** Septets (GSM-7) or UTF-16 code units (UCS-2). */
  units: number;
  segments: number;
  /** How many units one segment holds in this encoding (a single message; parts of a longer one hold fewer). */
  perSegment: number;
}

/** How many SMS a text costs: GSM-7 when every character is in its set, else UCS-2. */
export function smsSegments(text: string): SmsSegments {
  let septets = 0;
  let gsm = true;
  for (const char of text) {
    if (GSM_BASIC.includes(char)) septets += 1;
    else if (GSM_EXTENSION.includes(char)) septets += 2;
    else {
      gsm = false;
      break;
    }
  }
  if (gsm) return { encoding: 'GSM-7', units: septets, segments: septets <= 160 ? 1 : Math.ceil(septets / 153), perSegment: 160 };
  const units = text.length;
  return { encoding: 'UCS-2', units, segments: units <= 70 ? 1 : Math.ceil(units / 67), perSegment: 70 };
}

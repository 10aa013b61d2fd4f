import type { Language } from '@vez/contract';
import type { FastifyRequest } from 'fastify';

/** Messages the client shows as they are (docs/product.md §18: the server's message). */
const texts = {
  invalidCode: { pt: 'Código inválido. Confira e tente de novo.', en: 'Invalid code. Check it and try again.' },
  expiredCode: { pt: 'O código expirou. Peça um novo código.', en: 'The code has expired. Ask for a new code.' },
  lockedCode: { pt: 'Muitas tentativas erradas. Peça um novo código.', en: 'Too many wrong tries. Ask for a new code.' },
  noCode: { pt: 'Peça um código primeiro.', en: 'Ask for a code first.' },
  sendsPerTarget: {
    pt: 'Muitos códigos enviados para este contato. Tente de novo em {min} min.',
    en: 'Too many codes sent to this contact. Try again in {min} min.',
  },
  sendsPerAddress: {
    pt: 'Muitos códigos pedidos desta rede. Tente de novo em {min} min.',
    en: 'Too many codes requested from this network. Try again in {min} min.',
  },
  noLoginJourney: {
    pt: 'Este restaurante não usa login por código.',
    en: 'This restaurant does not use login codes.',
  },
  notLoggedIn: { pt: 'Faça login para continuar.', en: 'Please log in.' },
  passportInvalid: {
    pt: 'Este link de acesso expirou ou já foi usado.',
    en: 'This login link has expired or was already used.',
  },
  crossSite: { pt: 'Pedido recusado: origem não permitida.', en: 'Request refused: it came from another site.' },
  phoneChange: {
    pt: 'Para mudar o telefone, confirme o novo número com um código.',
    en: 'To change the phone, verify the new number with a code.',
  },
  entryNotFound: { pt: 'Entrada da fila não encontrada.', en: 'Waitlist entry not found.' },
  waitlistIdRequired: { pt: 'Informe o waitlistId.', en: 'waitlistId is required.' },
  eventTooLarge: { pt: 'Dados do evento grandes demais.', en: 'The event data is too large.' },
} as const;

export type TextKey = keyof typeof texts;

export function text(lang: Language, key: TextKey, values: Record<string, string | number> = {}): string {
  return texts[key][lang].replace(/\{(\w+)\}/g, (_, name: string) => String(values[name] ?? ''));
}

/** The body's `lang`, else the Accept-Language header; Portuguese by default. */
export function langOfRequest(request: FastifyRequest): Language {
  const bodyLang = (request.body as { lang?: unknown } | undefined)?.lang;
  if (bodyLang === 'en' || bodyLang === 'pt') return bodyLang;
  return /^en\b/i.test(request.headers['accept-language'] ?? '') ? 'en' : 'pt';
}

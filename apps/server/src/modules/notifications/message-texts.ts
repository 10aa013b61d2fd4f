import { type Language, type MessageKind, type TemplateValues, builtInTemplate, renderTemplate } from '@vez/contract';
import type { Venue } from '../venues/venue.js';

/** What the diner reads in SMS and email, per language (pt is the default and fallback). */
export function venueNameIn(venue: Venue, lang: string): string {
  return (lang === 'en' ? venue.name.en : undefined) ?? venue.name.pt;
}

export const langOf = (value: string | null | undefined): Language => (value === 'en' ? 'en' : 'pt');

/**
 * A message of one kind (docs/product.md §8) in the party's language: the venue's own text if it
 * wrote one, else the built-in text; variables filled. `{position}` and `{minutes}` are filled
 * where the sender knows them (the getting-close message knows the place).
 */
export function venueText(kind: MessageKind, venue: Venue, lang: Language, values: TemplateValues): string {
  const { settings } = venue;
  const template =
    settings.messageTemplates[kind]?.[lang] ??
    builtInTemplate(kind, lang, { hideReceptionistHint: settings.hideReceptionistHint, holdMinutes: settings.holdMinutes });
  return renderTemplate(template, { venue: venueNameIn(venue, lang), hold: settings.holdMinutes, ...values });
}

/** The first name of a party, for `{name}`. */
export const firstNameOf = (name: string | null): string => (name ?? '').trim().split(/\s+/)[0] ?? '';

/** A message from staff to the party, by SMS: the venue's name first, so the party knows who writes. */
export const staffSms = (venueName: string, text: string): string => `${venueName}: ${text}`;

/** The answer to an SMS reply (TwiML), in the party's language (docs/product.md §7). */
export type SmsReplyOutcome = 'onMyWay' | 'needMoreTime' | 'leave' | 'stop' | 'message' | 'noEntry' | 'ended';

export function smsReplyConfirmation(lang: Language, outcome: SmsReplyOutcome, venueName: string): string {
  const en: Record<SmsReplyOutcome, string> = {
    onMyWay: `${venueName} knows you are on your way.`,
    needMoreTime: `${venueName} knows you need 10 more minutes.`,
    leave: `You left the waitlist of ${venueName}.`,
    stop: 'You will get no more messages from Vez.',
    message: `Your message went to ${venueName}.`,
    noEntry: 'You are on no waitlist at the moment.',
    ended: `Your place at ${venueName} has already ended.`,
  };
  const pt: Record<SmsReplyOutcome, string> = {
    onMyWay: `${venueName} já sabe que você está a caminho.`,
    needMoreTime: `${venueName} já sabe que você precisa de mais 10 minutos.`,
    leave: `Você saiu da fila de ${venueName}.`,
    stop: 'Você não receberá mais mensagens da Vez.',
    message: `Sua mensagem foi para ${venueName}.`,
    noEntry: 'Você não está em nenhuma fila no momento.',
    ended: `Sua vez em ${venueName} já terminou.`,
  };
  return (lang === 'en' ? en : pt)[outcome];
}

export function codeMessage(lang: Language, code: string, venueName: string | undefined): { subject: string; body: string } {
  const from = venueName ? `${venueName} (Vez)` : 'Vez';
  return lang === 'en'
    ? { subject: 'Your verification code', body: `${from}: your code is ${code}. It is valid for 10 minutes. Do not share it.` }
    : { subject: 'Seu código de verificação', body: `${from}: seu código é ${code}. Ele vale por 10 minutos. Não o compartilhe.` };
}

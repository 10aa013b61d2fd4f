import type { Language } from '@vez/contract';
import type { Venue } from '../venues/venue.js';

/** What the diner reads in SMS and email, per language (pt is the default and fallback). */
export function venueNameIn(venue: Venue, lang: string): string {
  return (lang === 'en' ? venue.name.en : undefined) ?? venue.name.pt;
}

export const langOf = (value: string | null | undefined): Language => (value === 'en' ? 'en' : 'pt');

/** Which SMS replies work (docs/product.md §7): said in the join and call SMS. */
export const replyHint = (lang: Language): string =>
  lang === 'en' ? 'Reply 1 if you are on your way, 9 to leave.' : 'Responda 1 se estiver a caminho, 9 para sair.';

export function joinedSms(lang: Language, venueName: string, link: string): string {
  return lang === 'en'
    ? `${venueName}: you joined the waitlist. Follow your position: ${link} ${replyHint(lang)}`
    : `${venueName}: você entrou na fila de espera. Acompanhe sua posição: ${link} ${replyHint(lang)}`;
}

export function calledSms(lang: Language, venueName: string, link: string, showReceptionistHint: boolean, holdMinutes = 0): string {
  if (lang === 'en') {
    const hold = holdMinutes > 0 ? ` Your table is held for ${holdMinutes} min.` : '';
    return `${venueName}: it's your turn!${showReceptionistHint ? ' Look for the receptionist.' : ''}${hold} ${link} ${replyHint(lang)}`;
  }
  const hold = holdMinutes > 0 ? ` Sua mesa fica reservada por ${holdMinutes} min.` : '';
  return `${venueName}: chegou a sua vez!${showReceptionistHint ? ' Procure a recepção.' : ''}${hold} ${link} ${replyHint(lang)}`;
}

/** docs/product.md §8: one message when the party is this many places from the front. */
export const gettingCloseSms = (lang: Language, venueName: string, place: number, link: string): string =>
  lang === 'en'
    ? `${venueName}: almost your turn! You are number ${place} in line. Please head to the venue. ${link}`
    : `${venueName}: falta pouco! Você é o ${place}º da fila. Dirija-se ao restaurante. ${link}`;

/** A called party whose hold window ran out, marked no-show by the venue's rule. */
export const noShowSms = (lang: Language, venueName: string): string =>
  lang === 'en'
    ? `${venueName}: we could not hold your table any longer, so your place was released. You can join again from the venue's link.`
    : `${venueName}: não foi possível segurar mais a sua mesa e a sua vez foi liberada. Você pode entrar de novo pelo link do restaurante.`;

/** The party was seated, when the venue sends this (`seatedMessage`). */
export const seatedSms = (lang: Language, venueName: string): string =>
  lang === 'en' ? `${venueName}: enjoy your meal! Thank you for waiting.` : `${venueName}: bom apetite! Obrigado por esperar.`;

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

import type { Language } from '@vez/contract';
import type { Venue } from '../venues/venue.js';

/** What the diner reads in SMS and email, per language (pt is the default and fallback). */
export function venueNameIn(venue: Venue, lang: string): string {
  return (lang === 'en' ? venue.name.en : undefined) ?? venue.name.pt;
}

export const langOf = (value: string | null | undefined): Language => (value === 'en' ? 'en' : 'pt');

export function joinedSms(lang: Language, venueName: string, link: string): string {
  return lang === 'en'
    ? `${venueName}: you joined the waitlist. Follow your position: ${link}`
    : `${venueName}: você entrou na fila de espera. Acompanhe sua posição: ${link}`;
}

export function calledSms(lang: Language, venueName: string, link: string, showReceptionistHint: boolean): string {
  if (lang === 'en') {
    return `${venueName}: it's your turn!${showReceptionistHint ? ' Look for the receptionist.' : ''} ${link}`;
  }
  return `${venueName}: chegou a sua vez!${showReceptionistHint ? ' Procure a recepção.' : ''} ${link}`;
}

export function codeMessage(lang: Language, code: string, venueName: string | undefined): { subject: string; body: string } {
  const from = venueName ? `${venueName} (Vez)` : 'Vez';
  return lang === 'en'
    ? { subject: 'Your verification code', body: `${from}: your code is ${code}. It is valid for 10 minutes. Do not share it.` }
    : { subject: 'Seu código de verificação', body: `${from}: seu código é ${code}. Ele vale por 10 minutos. Não o compartilhe.` };
}

import { SMS_MORE_TIME_MINUTES } from './conversation.js';
import type { MessageKind } from './templates.js';

/**
 * The one home of every message text the venue's parties get (docs/ARCHITECTURE.md, habit 20): the
 * built-in texts of each kind, the answers to an SMS or WhatsApp reply and the verification code.
 * The server sends them; the console's editor previews the same texts. Minutes come from where the
 * rule lives: the hold from the venue's setting (`{hold}`), the extension of a reply from
 * SMS_MORE_TIME_MINUTES, the code's life from its caller.
 */

/** What the built-in texts depend on besides the language. */
export interface BuiltInOptions {
  hideReceptionistHint: boolean;
  holdMinutes: number;
}

/**
 * The built-in text of a kind, as a template (the editor shows it; the server sends it when the venue wrote none).
 *
 * Each fits one SMS (160 GSM-7 characters, docs/product.md §8) with a venue name of 30 characters, a
 * real position link (`https://vez.example/waitlist/` and a 22-character entry id), a hold of 120
 * minutes and a place of 50; the Portuguese ones once written without accents (`toGsm7`, the venue's
 * "SMS sem acentos", on by default). Only the join link with a login passport (43 more characters)
 * takes two. The join and call texts say which replies work (docs/product.md §7).
 */
export function builtInTemplate(kind: MessageKind, lang: 'pt' | 'en', options: BuiltInOptions): string {
  const en = lang === 'en';
  const replies = en ? 'Reply 1 (on my way) or 9 (leave).' : 'Responda 1 (a caminho) ou 9 (sair).';
  switch (kind) {
    case 'join':
      return en ? `{venue}: you're on the waitlist. Follow: {link} ${replies}` : `{venue}: você está na fila. Acompanhe: {link} ${replies}`;
    case 'call': {
      const hint = !options.hideReceptionistHint;
      const hold = options.holdMinutes > 0;
      const detail = en
        ? hint && hold
          ? ' See the host within {hold} min.'
          : hint
            ? ' See the host.'
            : hold
              ? ' Table held {hold} min.'
              : ''
        : hint && hold
          ? ' Vá à recepção em até {hold} min.'
          : hint
            ? ' Vá à recepção.'
            : hold
              ? ' Mesa guardada por {hold} min.'
              : '';
      return en ? `{venue}: your turn!${detail} {link} ${replies}` : `{venue}: sua vez!${detail} {link} ${replies}`;
    }
    case 'gettingClose':
      return en
        ? '{venue}: almost your turn! You are number {position} in line. Please head to the venue. {link}'
        : '{venue}: falta pouco! Sua posição na fila: {position}. Venha para o restaurante. {link}';
    case 'seated':
      return en ? '{venue}: enjoy your meal! Thank you for waiting.' : '{venue}: bom apetite! Obrigado por esperar.';
    case 'noShow':
      return en
        ? "{venue}: we could not hold your table any longer, so your place was released. You can join again from the venue's link."
        : '{venue}: não foi possível segurar mais a sua mesa e a sua vez foi liberada. Você pode entrar de novo pelo link do restaurante.';
  }
}

/** What an SMS or WhatsApp reply did (docs/product.md §7): the answer names it, in the party's language. */
export type ReplyOutcome = 'onMyWay' | 'needMoreTime' | 'leave' | 'stop' | 'message' | 'noEntry' | 'ended';

/** The answer to a reply; `minutes` is what "more time" gave (SMS_MORE_TIME_MINUTES by default). */
export function replyConfirmation(lang: 'pt' | 'en', outcome: ReplyOutcome, venueName: string, minutes = SMS_MORE_TIME_MINUTES): string {
  const en: Record<ReplyOutcome, string> = {
    onMyWay: `${venueName} knows you are on your way.`,
    needMoreTime: `${venueName} knows you need ${minutes} more minutes.`,
    leave: `You left the waitlist of ${venueName}.`,
    stop: 'You will get no more messages from Vez.',
    message: `Your message went to ${venueName}.`,
    noEntry: 'You are on no waitlist at the moment.',
    ended: `Your place at ${venueName} has already ended.`,
  };
  const pt: Record<ReplyOutcome, string> = {
    onMyWay: `${venueName} já sabe que você está a caminho.`,
    needMoreTime: `${venueName} já sabe que você precisa de mais ${minutes} minutos.`,
    leave: `Você saiu da fila de ${venueName}.`,
    stop: 'Você não receberá mais mensagens da Vez.',
    message: `Sua mensagem foi para ${venueName}.`,
    noEntry: 'Você não está em nenhuma fila no momento.',
    ended: `Sua vez em ${venueName} já terminou.`,
  };
  return (lang === 'en' ? en : pt)[outcome];
}

/** The verification code by SMS or email (docs/product.md §3), valid `validMinutes`. */
export function codeMessage(
  lang: 'pt' | 'en',
  code: string,
  venueName: string | undefined,
  validMinutes: number,
): { subject: string; body: string } {
  const from = venueName ? `${venueName} (Vez)` : 'Vez';
  return lang === 'en'
    ? {
        subject: 'Your verification code',
        body: `${from}: your code is ${code}. It is valid for ${validMinutes} minutes. Do not share it.`,
      }
    : {
        subject: 'Seu código de verificação',
        body: `${from}: seu código é ${code}. Ele vale por ${validMinutes} minutos. Não o compartilhe.`,
      };
}

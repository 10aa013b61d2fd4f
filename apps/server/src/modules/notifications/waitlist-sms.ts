import type { Language, MessageChannel, MessageKind, TemplateValues } from '@vez/contract';
import type { Kysely } from 'kysely';
import type { WhatsAppTemplates } from '../../config.js';
import type { Database, EntryRow } from '../../db/types.js';
import { type JoinContext, type PartyMessenger, recordLastMessage } from '../queue/index.js';
import { type Venue, canTextPhone } from '../venues/venue.js';
import { getVenue } from '../venues/venues.service.js';
import { firstNameOf, langOf, smsTextFor, staffSms, venueNameIn, venueText } from './message-texts.js';
import { findMessageOfEntry } from './messages.repository.js';
import { type PushPayload, hasSubscriptions } from './push.js';
import type { Notifier, OutgoingMessage } from './notifier.js';
import { isWhatsAppParty, isWindowOpen, templateSend } from './whatsapp.js';

type Executor = Kysely<Database>;

/** A fresh single-use login token for the logged-in diner of this session, if any. */
export type PassportIssuer = (trx: Executor, sessionToken: string | undefined, entry: EntryRow) => Promise<string | undefined>;

/** A message to the party's phone, as queued, and the channel it goes by. */
type PhoneMessage = Pick<OutgoingMessage, 'to' | 'body' | 'template' | 'fallbackBody'> & { route: MessageChannel };

/**
 * A message the venue starts (join, getting close, call, seated, no-show) to the party's phone
 * (docs/product.md §10): by WhatsApp, as the operator's approved template, when the venue's channel
 * is WhatsApp, the party said yes and a template of this kind and language exists, with the SMS
 * text kept for the fallback; otherwise by SMS (GSM-7 when the venue writes its SMS so).
 */
function venueStarted(
  templates: WhatsAppTemplates,
  venue: Venue,
  entry: EntryRow,
  phone: string,
  message: { kind: MessageKind; lang: Language; text: string; values: TemplateValues; fallbackText?: string },
): PhoneMessage {
  if (isWhatsAppParty(venue, entry)) {
    const filled = { venue: venueNameIn(venue, message.lang), hold: venue.settings.holdMinutes, ...message.values };
    const template = templateSend(templates, message.kind, message.lang, filled);
    if (template) {
      const sms = smsTextFor(venue.settings, phone, message.fallbackText ?? message.text);
      return { to: `whatsapp:${phone}`, body: message.text, template, fallbackBody: sms, route: 'whatsapp' };
    }
  }
  return { to: phone, body: smsTextFor(venue.settings, phone, message.text), route: 'sms' };
}

/**
 * Free text (a staff message) to the party's phone: by WhatsApp only inside the customer-service
 * window, 24 hours from its last inbound WhatsApp message; otherwise by SMS, so the party still gets
 * it (docs/product.md §10, docs/decisions/029-whatsapp-templates.md).
 */
function freeText(venue: Venue, entry: EntryRow, phone: string, text: string, now: number): PhoneMessage {
  const sms = smsTextFor(venue.settings, phone, text);
  if (isWhatsAppParty(venue, entry) && isWindowOpen(entry, now)) {
    return { to: `whatsapp:${phone}`, body: text, fallbackBody: sms, route: 'whatsapp' };
  }
  return { to: phone, body: sms, route: 'sms' };
}

const queued = ({ route: _route, ...message }: PhoneMessage) => message;

function positionLink(publicBaseUrl: string, entryId: string, passport?: string): string {
  const link = `${publicBaseUrl}/waitlist/${entryId}`;
  return passport ? `${link}?passport=${encodeURIComponent(passport)}` : link;
}

/**
 * The SMS on join (docs/product.md §1): the position page link, in the diner's language, queued in the
 * join's own transaction. The link carries a passport only to a logged-in diner's own verified
 * phone (passport.service.ts).
 */
export function smsOnJoin(notifier: Notifier, publicBaseUrl: string, issuePassport: PassportIssuer, templates: WhatsAppTemplates = {}) {
  return async (trx: Executor, entry: EntryRow, venue: Venue, context: JoinContext): Promise<void> => {
    // Only the venue's SMS countries (docs/product.md §3): a walk-in's foreign phone gets no SMS.
    if (!entry.phone || !canTextPhone(venue, entry.phone)) return;
    const phone = entry.phone;
    const passport = await issuePassport(trx, context.dinerSessionToken, entry);
    const lang = langOf(entry.lang);
    const values = (login?: string) => ({ name: firstNameOf(entry.name), link: positionLink(publicBaseUrl, entry.id, login) });
    const text = (login?: string) => venueText('join', venue, lang, values(login));
    // The SMS fallback of a WhatsApp join carries the plain link: no passport kept in the store.
    const message = (login?: string) =>
      venueStarted(templates, venue, entry, phone, {
        kind: 'join',
        lang,
        text: text(login),
        values: values(login),
        // Without a passport the text is the plain one already.
        ...(login ? { fallbackText: text() } : {}),
      });
    const sent = message(passport);
    const id = await notifier.enqueue(trx, {
      channel: 'sms',
      ...queued(sent),
      // Once sent, the stored row keeps the plain link: no usable passport (docs/product.md §3).
      ...(passport ? { safeBody: message().body } : {}),
      idempotencyKey: `join:${entry.id}`,
      entryId: entry.id,
    });
    if (id) await recordLastMessage(trx, entry.id, id, sent.route);
  };
}

/**
 * A repeat join without the first join's proof (docs/product.md §3): the position link again, to the
 * entry's own phone and never to anyone else, without a login passport. The caller has already
 * kept this to once a minute per entry.
 */
export function smsOnRepeatJoin(notifier: Notifier, publicBaseUrl: string, templates: WhatsAppTemplates = {}) {
  return async (trx: Executor, entry: EntryRow, venue: Venue): Promise<void> => {
    if (!entry.phone || !canTextPhone(venue, entry.phone)) return;
    const lang = langOf(entry.lang);
    const values = { name: firstNameOf(entry.name), link: positionLink(publicBaseUrl, entry.id) };
    const sent = venueStarted(templates, venue, entry, entry.phone, {
      kind: 'join',
      lang,
      text: venueText('join', venue, lang, values),
      values,
    });
    const id = await notifier.enqueue(trx, {
      channel: 'sms',
      ...queued(sent),
      idempotencyKey: `rejoin:${entry.id}:${entry.link_resent_at ?? 0}`,
      entryId: entry.id,
    });
    if (id) await recordLastMessage(trx, entry.id, id, sent.route);
  };
}

/**
 * A message of one kind about an entry (docs/product.md §7, §8): one text, rendered once, by the
 * venue's channel to the party's phone (when the venue texts that country) and, with `push`, to the
 * phones that asked for notifications. Each goes once per `key`.
 */
async function sendAbout(
  notifier: Notifier,
  publicBaseUrl: string,
  templates: WhatsAppTemplates,
  trx: Executor,
  entry: EntryRow,
  message: { kind: MessageKind; key: string; values?: TemplateValues; push?: boolean; byStaff?: boolean },
): Promise<void> {
  const venue = await getVenue(trx, entry.venue_id);
  const lang = langOf(entry.lang);
  const link = positionLink(publicBaseUrl, entry.id);
  const values = { name: firstNameOf(entry.name), link, ...message.values };
  const body = venueText(message.kind, venue, lang, values, message.byStaff ? 'refuse' : 'builtIn');
  if (entry.phone && canTextPhone(venue, entry.phone)) {
    // The notification below keeps the accents: only an SMS is written in GSM-7.
    const sent = venueStarted(templates, venue, entry, entry.phone, { kind: message.kind, lang, text: body, values });
    const id = await notifier.enqueue(trx, {
      channel: 'sms',
      ...queued(sent),
      idempotencyKey: `${message.key}:${entry.id}`,
      entryId: entry.id,
    });
    if (id) await recordLastMessage(trx, entry.id, id, sent.route);
  }
  if (message.push)
    await pushToEntry(notifier, trx, entry, { title: venueNameIn(venue, lang), body, url: link }, `${message.key}:${entry.id}`);
}

/** The SMS (and notification) when the host calls the party, queued with the status change; one per call. */
export function smsOnCall(notifier: Notifier, publicBaseUrl: string, templates: WhatsAppTemplates = {}) {
  return (trx: Executor, entry: EntryRow): Promise<void> =>
    // One message per call: a call again (docs/product.md §8) is a new message.
    sendAbout(notifier, publicBaseUrl, templates, trx, entry, { kind: 'call', key: `call:${entry.calls}`, push: true, byStaff: true });
}

/**
 * Staff messages by the venue's channel (docs/product.md §7), and "send again" for a message about
 * an entry: the same recipient and text (a login link stays masked), a new row in the queue.
 */
export function partyMessenger(notifier: Notifier, now: () => number, publicBaseUrl: string): PartyMessenger {
  return {
    async send(trx, entry, text, idempotencyKey) {
      const venue = await getVenue(trx, entry.venue_id);
      // Refused past the segment cap whether or not this party gets an SMS: one rule for staff.
      const sms = staffSms(venueNameIn(venue, langOf(entry.lang)), text, venue.settings.smsWithoutAccents);
      const link = positionLink(publicBaseUrl, entry.id);
      await pushToEntry(notifier, trx, entry, { title: venueNameIn(venue, langOf(entry.lang)), body: text, url: link }, idempotencyKey);
      if (!entry.phone) return undefined;
      if (!canTextPhone(venue, entry.phone)) return undefined;
      const sent = freeText(venue, entry, entry.phone, sms, now());
      const id = await notifier.enqueue(trx, { channel: 'sms', ...queued(sent), idempotencyKey, entryId: entry.id });
      return id ? { id, channel: sent.route } : undefined;
    },
    async resend(trx, entry, messageId) {
      const sent = await findMessageOfEntry(trx, messageId, entry.id);
      if (!sent) return undefined;
      // A template whose slots went with a login link (masked once sent) goes again by SMS, plain link.
      const template =
        sent.content_sid && sent.content_variables ? { contentSid: sent.content_sid, contentVariables: sent.content_variables } : undefined;
      const whatsapp = sent.recipient.startsWith('whatsapp:') && (template !== undefined || sent.content_sid === null);
      const id = await notifier.enqueue(trx, {
        channel: sent.channel,
        to: whatsapp ? sent.recipient : sent.recipient.replace(/^whatsapp:/, ''),
        ...(sent.subject ? { subject: sent.subject } : {}),
        body: whatsapp ? (sent.safe_body ?? sent.body) : (sent.fallback_body ?? sent.safe_body ?? sent.body),
        ...(whatsapp && template ? { template } : {}),
        ...(whatsapp && sent.fallback_body ? { fallbackBody: sent.fallback_body } : {}),
        idempotencyKey: `again:${messageId}:${now()}`,
        entryId: entry.id,
      });
      return id ? { id, channel: whatsapp ? 'whatsapp' : 'sms' } : undefined;
    },
  };
}

/**
 * The messages of calls that end well (docs/product.md §8): getting close, no-show, seated. Each is
 * queued in the change's transaction, once per entry (its idempotency key).
 */
export function callMessages(notifier: Notifier, publicBaseUrl: string, templates: WhatsAppTemplates = {}) {
  const send = (trx: Executor, entry: EntryRow, message: Parameters<typeof sendAbout>[5]) =>
    sendAbout(notifier, publicBaseUrl, templates, trx, entry, message);
  return {
    onGettingClose: (trx: Executor, entry: EntryRow, place: number) =>
      send(trx, entry, { kind: 'gettingClose', key: 'close', values: { position: place }, push: true }),
    onNoShow: (trx: Executor, entry: EntryRow) => send(trx, entry, { kind: 'noShow', key: 'noshow' }),
    onSeated: async (trx: Executor, entry: EntryRow) => {
      const venue = await getVenue(trx, entry.venue_id);
      if (venue.settings.seatedMessage) await send(trx, entry, { kind: 'seated', key: 'seated' });
    },
  };
}

/**
 * The same message as a browser notification to the party's subscribed phones (docs/product.md §8),
 * through the message queue (channel `push`, addressed to the entry); nothing without a subscription.
 */
export async function pushToEntry(notifier: Notifier, trx: Executor, entry: EntryRow, payload: PushPayload, key: string): Promise<void> {
  if (!(await hasSubscriptions(trx, entry.id))) return;
  await notifier.enqueue(trx, { channel: 'push', to: entry.id, body: JSON.stringify(payload), idempotencyKey: `push:${key}` });
}

import formbody from '@fastify/formbody';
import { ErrorCode, type ReplyOutcome, SMS_MORE_TIME_MINUTES, defaultVenueSettings, replyConfirmation } from '@vez/contract';
import type { FastifyBaseLogger, FastifyInstance, FastifyRequest } from 'fastify';
import * as z from 'zod/mini';
import { AppError } from '../../lib/app-error.js';
import {
  endEntry,
  findLatestEntryOfPhone,
  findOpenEntryOfPhone,
  messageFromParty,
  openWhatsAppWindow,
  recordDelivery,
  replyToVenue,
} from '../queue/index.js';
import { getVenue } from '../venues/venues.service.js';
import { langOf, smsTextFor, venueNameIn } from './message-texts.js';
import { findByProviderId, optOut } from './messages.repository.js';
import { intentOf } from './sms-keywords.js';
import { isValidTwilioSignature } from './twilio-signature.js';
import { onceForDelivery } from './webhook-replay.js';

/**
 * The provider's webhooks (docs/product.md §7): SMS replies (`/sms/inbound`) and delivery reports
 * (`/sms/status`), in Twilio's format (form-encoded). Signed with X-Twilio-Signature whenever
 * SMS_AUTH_TOKEN is set; unsigned posts are taken only without a token in the demo (its outbox has no
 * provider to sign), whatever NODE_ENV says (docs/security.md, Safe defaults).
 */

/** The longest SMS Twilio delivers as one message (10 segments of 160). */
const MAX_BODY = 1600;

/** Twilio sends more fields than these (AccountSid, NumMedia, …): they are kept, for the signature. */
const InboundBody = z.looseObject({
  From: z.string().check(z.minLength(1), z.maxLength(64)),
  /** Twilio always sends it; the demo's unsigned posts may not (then nothing is deduplicated). */
  MessageSid: z.optional(z.string().check(z.minLength(1), z.maxLength(64))),
  Body: z.string().check(z.maxLength(MAX_BODY)),
});
const StatusBody = z.looseObject({
  MessageSid: z.string().check(z.minLength(1), z.maxLength(64)),
  MessageStatus: z.string().check(z.maxLength(32)),
  ErrorCode: z.optional(z.string().check(z.maxLength(16))),
});

/** Twilio's message states, as our delivery states; the ones before `sent` change nothing. */
const DELIVERY: Record<string, 'sent' | 'delivered' | 'failed'> = {
  sent: 'sent',
  delivered: 'delivered',
  read: 'delivered',
  failed: 'failed',
  undelivered: 'failed',
};

const xml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const twiml = (message?: string) =>
  `<?xml version="1.0" encoding="UTF-8"?><Response>${message ? `<Message>${xml(message)}</Message>` : ''}</Response>`;

/** A phone as the entries keep it (E.164); WhatsApp senders come as `whatsapp:+55…`. */
const phoneOf = (from: string) => from.replace(/^whatsapp:/i, '').trim();
/** Control characters other than line breaks become spaces: the text goes to a console. */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const cleanText = (text: string) => text.replace(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g, ' ').trim();

export async function smsWebhookRoutes(app: FastifyInstance): Promise<void> {
  const { config } = app;
  const deps = app.queueDeps;
  await app.register(formbody, { bodyLimit: 16_384 });

  /** 403 unless the request is Twilio's (signed) or the demo's (no token, DEMO). */
  const verify = async (request: FastifyRequest) => {
    const token = config.SMS_AUTH_TOKEN;
    if (!token) {
      if (!config.DEMO)
        throw new AppError(ErrorCode.FORBIDDEN, 'Unsigned provider webhooks are refused outside the demo: set SMS_AUTH_TOKEN.');
      return;
    }
    const params = (request.body ?? {}) as Record<string, unknown>;
    const url = config.publicBaseUrl + request.url;
    if (!isValidTwilioSignature(token, request.headers['x-twilio-signature'], url, params)) {
      throw new AppError(ErrorCode.FORBIDDEN, 'Missing or wrong X-Twilio-Signature.');
    }
  };

  app.post<{ Body: z.infer<typeof InboundBody> }>(
    '/sms/inbound',
    {
      config: { rateLimit: { max: 600, timeWindow: 60_000 } },
      preValidation: verify,
      schema: {
        tags: ['sms'],
        summary: "An SMS reply (Twilio's inbound webhook): keywords, STOP, or a message to the venue; answers TwiML",
        body: InboundBody,
      },
    },
    async (request, reply) => {
      const sid = request.body.MessageSid;
      // The same SMS delivered again acts once, and gets no second confirmation (docs/security.md).
      const acted = await onceForDelivery(app.db, sid === undefined ? undefined : `inbound:${sid}`, deps.now(), () =>
        actOnReply(request.body.From, request.body.Body, request.log),
      );
      if (!acted) {
        request.log.info({ sid }, 'sms reply seen before: ignored');
        return reply.type('text/xml; charset=utf-8').send(twiml());
      }
      const { lang, outcome, venueName, settings } = acted.value;
      const answer = smsTextFor(settings, request.body.From, replyConfirmation(lang, outcome, venueName, SMS_MORE_TIME_MINUTES));
      return reply.type('text/xml; charset=utf-8').send(twiml(answer));
    },
  );

  /** What an SMS reply does (docs/product.md §7), and the confirmation to answer with. */
  async function actOnReply(from: string, body: string, log: FastifyBaseLogger) {
    const phone = phoneOf(from);
    const text = cleanText(body);
    const intent = intentOf(text);
    const entry = await findOpenEntryOfPhone(deps, phone);
    const latest = entry ?? (await findLatestEntryOfPhone(deps, phone));
    const lang = langOf(latest?.lang);
    const venue = latest ? await getVenue(app.db.kysely, latest.venue_id) : undefined;
    const venueName = venue ? venueNameIn(venue, lang) : '';
    // A WhatsApp message from the party opens the customer-service window for 24 hours (docs/product.md §10).
    if (entry && /^whatsapp:/i.test(from)) await openWhatsAppWindow(deps, entry);
    let outcome: ReplyOutcome;
    if (intent === 'stop') {
      // Nothing more to this phone, from any venue; what was still waiting to go is dropped.
      const dropped = await optOut(app.db.kysely, phone, deps.now());
      const aboutEntries = dropped.filter((m) => m.entry_id).map((m) => m.id);
      if (aboutEntries.length > 0) await recordDelivery(deps, aboutEntries, 'failed');
      outcome = 'stop';
    } else if (!entry) {
      outcome = latest && intent !== 'message' ? 'ended' : 'noEntry';
    } else if (intent === 'leave') {
      await endEntry(deps, entry, 'leave', 'Customer');
      outcome = 'leave';
    } else if (intent === 'onMyWay' || intent === 'needMoreTime') {
      await replyToVenue(deps, entry, intent, intent === 'needMoreTime' ? SMS_MORE_TIME_MINUTES : null);
      outcome = intent;
    } else {
      if (text !== '') await messageFromParty(deps, entry, text);
      outcome = 'message';
    }
    log.info({ intent, outcome, entryId: entry?.id }, 'sms reply');
    // The answer is an SMS too: in GSM-7 like the venue's others (docs/product.md §8), by default without a venue.
    return { outcome, lang, venueName, settings: venue?.settings ?? defaultVenueSettings };
  }

  app.post<{ Body: z.infer<typeof StatusBody> }>(
    '/sms/status',
    {
      config: { rateLimit: { max: 1200, timeWindow: 60_000 } },
      preValidation: verify,
      schema: {
        tags: ['sms'],
        summary: "A delivery report (Twilio's status callback): the party's card shows it",
        body: StatusBody,
      },
    },
    async (request, reply) => {
      const { MessageSid: sid, MessageStatus: reported, ErrorCode: code } = request.body;
      const status = DELIVERY[reported.toLowerCase()];
      // One message reports sent, then delivered: a report is its sid and status, each acted on once.
      await onceForDelivery(app.db, `status:${sid}:${reported.toLowerCase()}`, deps.now(), async () => {
        const message = status ? await findByProviderId(app.db.kysely, sid) : undefined;
        if (!message) return;
        // A WhatsApp message reported failed or undelivered goes once by SMS (docs/product.md §10).
        if (status === 'failed' && (await app.notifier.fallBack(message, `twilio reported ${reported}${code ? ` code ${code}` : ''}`))) {
          return app.notifier.kickIfQueued();
        }
        if (status && message.entry_id) await recordDelivery(deps, [message.id], status);
      });
      return reply.status(204).send();
    },
  );
}

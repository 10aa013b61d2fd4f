import type { Migration } from 'kysely';
import * as m001 from './001-initial.js';
import * as m002 from './002-staff.js';
import * as m003 from './003-identity-messages.js';
import * as m004 from './004-images.js';
import * as m005 from './005-waiting-counts.js';
import * as m006 from './006-join-proof.js';
import * as m007 from './007-verified-contacts.js';
import * as m008 from './008-conversation.js';
import * as m009 from './009-calls.js';
import * as m010 from './010-push.js';
import * as m011 from './011-estimates.js';
import * as m012 from './012-staff-roles.js';
import * as m013 from './013-floor.js';
import * as m014 from './014-send-guards.js';
import * as m015 from './015-join-address-key.js';
import * as m016 from './016-message-segments.js';
import * as m017 from './017-whatsapp.js';
import * as m018 from './018-idempotency-keys.js';
import * as m019 from './019-one-phone-index.js';
import * as m020 from './020-partial-indexes.js';

/** Every migration, in order. Later issues append here; a landed migration is never edited. */
export const migrations: Record<string, Migration> = {
  '001-initial': m001,
  '002-staff': m002,
  '003-identity-messages': m003,
  '004-images': m004,
  '005-waiting-counts': m005,
  '006-join-proof': m006,
  '007-verified-contacts': m007,
  '008-conversation': m008,
  '009-calls': m009,
  '010-push': m010,
  '011-estimates': m011,
  '012-staff-roles': m012,
  '013-floor': m013,
  '014-send-guards': m014,
  '015-join-address-key': m015,
  '016-message-segments': m016,
  '017-whatsapp': m017,
  '018-idempotency-keys': m018,
  '019-one-phone-index': m019,
  '020-partial-indexes': m020,
};

import { SMS_MAX_SEGMENTS } from '@vez/contract';
import type { TFunction } from 'i18next';
import { isApiError } from '../../../lib/api-client';
import { OFFLINE_MESSAGE } from './host-query-client';

const WHOLE_NUMBER = /^Use a whole number from (\d+) to (\d+)\.$/;

/** One sentence for a failed console call: the server's own message for a 4xx, else a generic one. */
export function errorText(t: TFunction, error: unknown): string {
  if (!isApiError(error)) return t('error.generic');
  if (error.status === 401) return t('error.session');
  // Refused before it left the browser: nothing was sent, and nothing will be sent later.
  if (error.status === 0 && error.message === OFFLINE_MESSAGE) return t('error.offline');
  if (error.status === 0) return t('error.network');
  if (error.code === 'ENTRY_NOT_ACTIVE') return `${t('error.notActive')} ${error.message}`;
  // Sends that cost money (docs/security.md): the console says how long to wait, in its language.
  if (error.code === 'PARTY_SENDS_LIMITED' || error.code === 'VENUE_SENDS_LIMITED') {
    const minutes = Math.max(1, Math.ceil((error.retryAfterSeconds ?? 60) / 60));
    return t(error.code === 'PARTY_SENDS_LIMITED' ? 'error.partySends' : 'error.venueSends', { count: minutes });
  }
  if (error.code === 'MESSAGE_TOO_LONG') return t('error.messageTooLong', { max: SMS_MAX_SEGMENTS });
  if (error.code === 'TEMPLATE_LINK_NOT_ALLOWED') return t('error.templateLink');
  if (error.status === 413 || error.status === 415) return `${t('error.image')} ${error.message}`;
  // The console's own sentence, in its language (docs/decisions/026): unused images make room in time.
  if (error.code === 'IMAGE_QUOTA_EXCEEDED') return t('error.imageQuota');
  // A whole number outside its limits (the contract's `wholeNumberMessage`): the limits, in the console's language.
  const range = error.code === 'VALIDATION_FAILED' ? WHOLE_NUMBER.exec(error.message) : null;
  if (range) return t('settings.numberRange', { min: Number(range[1]), max: Number(range[2]) });
  // Walk-in fields get the console's own sentence in the console's language.
  const fieldText = error.code === 'VALIDATION_FAILED' && error.field ? t(`error.fields.${error.field}`, { defaultValue: '' }) : '';
  if (fieldText) return fieldText;
  if (error.status >= 400 && error.status < 500) return error.message;
  return t('error.generic');
}

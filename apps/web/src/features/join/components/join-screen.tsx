import { DEFAULT_SMS_COUNTRIES, type ErrorCode, type Language, type VenueSettings } from '@vez/contract';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useConnection } from '../../../lib/connection';
import { reportError } from '../../../lib/error-reporter';
import { useWaitlistStatuses } from '../api/use-waitlist-statuses';
import type { JoinRules } from '../lib/join-form-schema';
import type { JoinLoginJourney } from '../lib/login-journey-slot';
import { JoinForm } from './join-form';
import { type JoinOutcome, JoinOutcomeModal } from './join-outcome-modal';
import { JoinSummaryCard } from './join-summary-card';

/** What the join screen needs of the venue (the route passes it from venue-info). */
export interface JoinVenue {
  venueId: string;
  venueName: string;
  place: string;
  maxPartySize: number;
  sections: readonly string[];
  settings: VenueSettings;
  hasLoginJourney: boolean;
  reservationUrl: string;
  /** WhatsApp: the form asks for consent, and the success names the channel used (docs/product.md §10). */
  channel: 'sms' | 'whatsapp';
}

/** Join screen, step 0 and its outcomes (docs/product.md §12), once the venue is known. */
export function JoinScreen({ venue, language, loginJourney }: { venue: JoinVenue; language: Language; loginJourney?: JoinLoginJourney }) {
  const { t } = useTranslation();
  const statuses = useWaitlistStatuses(venue.venueId);
  const [outcome, setOutcome] = useState<JoinOutcome>();
  const connection = useConnection();
  const { settings } = venue;
  const rules = useMemo<JoinRules>(
    () => ({ maxPartySize: venue.maxPartySize, sections: venue.sections, settings }),
    [venue.maxPartySize, venue.sections, settings],
  );

  useEffect(() => {
    if (statuses.error) reportError(statuses.error, { venueId: venue.venueId, code: 'FAILED_TO_GET_WAITLIST_STATUS' satisfies ErrorCode });
  }, [statuses.error, venue.venueId]);

  const status = statuses.data?.waitlist;
  const closed: JoinOutcome | undefined = !status
    ? statuses.isError
      ? { kind: 'venueNotFound' }
      : undefined
    : !status.active
      ? { kind: 'closed', reason: 'inactive' }
      : status.locked
        ? { kind: 'closed', reason: 'locked' }
        : undefined;

  const text = (key: string) => settings.wording?.[language]?.[key] ?? t(key);

  return (
    <>
      <h1 className="join-title">{t('join.title', { venueName: venue.venueName })}</h1>
      {/* Said at once when the network goes and when it comes back (docs/product.md §12.7). */}
      <div role="status" className="connection-notice" data-connection={connection} data-testid="connection-notice">
        {connection !== 'ok' && <p>{t(connection === 'down' ? 'join.offline' : 'join.backOnline')}</p>}
      </div>
      <JoinSummaryCard
        venueName={venue.venueName}
        place={venue.place}
        reservationUrl={venue.reservationUrl}
        currentWait={closed ? undefined : statuses.data?.currentWait}
      />
      <JoinForm
        venueId={venue.venueId}
        rules={rules}
        smsCountries={settings.smsCountries ?? DEFAULT_SMS_COUNTRIES}
        hidePriorityDisclaimer={settings.hidePriorityDisclaimer}
        hasLoginJourney={venue.hasLoginJourney}
        channel={venue.channel}
        language={language}
        disabled={!status || Boolean(closed)}
        onOutcome={setOutcome}
        loginJourney={loginJourney}
      />
      <JoinOutcomeModal
        outcome={outcome ?? closed}
        reservationUrl={venue.reservationUrl}
        hideReceptionistHint={settings.hideReceptionistHint}
        text={text}
        onDismiss={() => setOutcome(undefined)}
      />
    </>
  );
}

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useState } from 'react';
import { Spinner } from '../../../components/ui/spinner';
import { hostApi } from '../api/host-api';
import { hostKeys } from '../api/query-keys';
import { errorText } from '../lib/error-text';
import { useHostT } from '../lib/host-i18n';
import { DraftError, type SettingsDraft, toDraft, toPatch } from '../lib/settings-draft';
import { SettingsBranding } from './settings-branding';
import { SettingsIdentity } from './settings-identity';
import { SettingsCalls } from './settings-calls';
import { SettingsMessages } from './settings-messages';
import { SettingsRules } from './settings-rules';
import { SettingsTables } from './settings-tables';

export type DraftUpdate = (change: (draft: SettingsDraft) => SettingsDraft) => void;

/** Every per-venue setting (docs/product.md §2), the venue's names and its branding; one Save. */
export function SettingsScreen({ venueId }: { venueId: string }) {
  const { t } = useHostT();
  const client = useQueryClient();
  const settings = useQuery({ queryKey: hostKeys.settings(venueId), queryFn: () => hostApi.settings(venueId) });
  const [draft, setDraft] = useState<SettingsDraft | null>(null);
  const [message, setMessage] = useState<{ kind: 'ok' | 'error'; text: string } | null>(null);
  const save = useMutation({
    mutationFn: (d: SettingsDraft) => hostApi.patchSettings(venueId, toPatch(d)),
    onSuccess: (saved) => {
      client.setQueryData(hostKeys.settings(venueId), saved);
      // The header's venue name comes from the session answer.
      void client.invalidateQueries({ queryKey: hostKeys.me });
      setDraft(toDraft(saved));
      setMessage({ kind: 'ok', text: t('settings.saved') });
    },
    onError: (error) => {
      const text = error instanceof DraftError ? t(`settings.${error.message}`) : errorText(t, error);
      setMessage({ kind: 'error', text });
    },
  });

  useEffect(() => {
    if (settings.data && !draft) setDraft(toDraft(settings.data));
  }, [settings.data, draft]);

  if (settings.isError)
    return (
      <p role="alert" className="host-error">
        {errorText(t, settings.error)}
      </p>
    );
  if (!draft) return <Spinner label={t('loading')} />;
  const update: DraftUpdate = (change) => setDraft((d) => (d ? change(d) : d));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setMessage(null);
    save.mutate(draft);
  };

  return (
    <form className="host-settings" onSubmit={submit} aria-labelledby="settings-title">
      <div className="host-row host-row--spread host-sticky">
        <h1 id="settings-title">{t('settings.title')}</h1>
        <button type="submit" className="button button--primary" disabled={save.isPending}>
          {t('settings.save')}
        </button>
      </div>
      <p role={message?.kind === 'error' ? 'alert' : 'status'} className={message?.kind === 'error' ? 'host-error' : 'host-ok'}>
        {message?.text ?? ''}
      </p>
      <SettingsIdentity draft={draft} update={update} />
      <SettingsBranding venueId={venueId} draft={draft} update={update} />
      <SettingsRules draft={draft} update={update} />
      <SettingsTables draft={draft} update={update} />
      <SettingsCalls draft={draft} update={update} />
      <SettingsMessages draft={draft} update={update} reservationUrl={settings.data?.venue.reservationUrl} />
    </form>
  );
}

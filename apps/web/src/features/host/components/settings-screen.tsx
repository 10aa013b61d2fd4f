import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { isApiError } from '../../../lib/api-client';
import { Spinner } from '../../../components/ui/spinner';
import { hostApi } from '../api/host-api';
import { hostKeys } from '../api/query-keys';
import { errorText } from '../lib/error-text';
import { useHostT } from '../lib/host-i18n';
import { DraftError, type SettingsDraft, toDraft, toPatch } from '../lib/settings-draft';
import { SettingsBranding } from './settings-branding';
import { SettingsIdentity } from './settings-identity';
import { SettingsCalls } from './settings-calls';
import { type SettingsFault, SettingsFaultContext, isFaultOf } from './settings-fault';
import { SettingsMessages } from './settings-messages';
import { SettingsRules } from './settings-rules';
import { SettingsTables } from './settings-tables';

export type DraftUpdate = (change: (draft: SettingsDraft) => SettingsDraft) => void;

/**
 * Every per-venue setting (docs/product.md §2), the venue's names and its branding; one Save. What
 * happened shows next to the Save button; a refusal (the form's own check or the server's 422)
 * marks its field, scrolls to it and focuses it (docs/decisions/032-the-door-on-a-busy-night.md).
 */
export function SettingsScreen({ venueId }: { venueId: string }) {
  const { t } = useHostT();
  const client = useQueryClient();
  const settings = useQuery({ queryKey: hostKeys.settings(venueId), queryFn: () => hostApi.settings(venueId) });
  const [draft, setDraft] = useState<SettingsDraft | null>(null);
  const [message, setMessage] = useState<{ kind: 'ok' | 'error'; text: string } | null>(null);
  const [fault, setFault] = useState<SettingsFault | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
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
      const text = error instanceof DraftError ? t(`settings.${error.message}`, error.values) : errorText(t, error);
      setMessage({ kind: 'error', text: t('settings.notSaved', { reason: text }) });
      const field = error instanceof DraftError ? error.field : isApiError(error) && error.status === 422 ? error.field : undefined;
      setFault(field ? { field, text } : null);
    },
  });

  // The field at fault comes into view with the focus on it (the one the refusal names, or the part of the form holding it).
  useEffect(() => {
    if (!fault) return;
    const fields = [...(formRef.current?.querySelectorAll<HTMLElement>('[data-field]') ?? [])];
    const target = fields.find((el) => isFaultOf(fault, el.dataset.field ?? ''));
    target?.scrollIntoView?.({ block: 'center' });
    target?.focus({ preventScroll: true });
  }, [fault]);

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
    setFault(null);
    save.mutate(draft);
  };

  return (
    <form ref={formRef} className="host-settings" noValidate onSubmit={submit} aria-labelledby="settings-title">
      <div className="host-row host-row--spread host-sticky">
        <h1 id="settings-title">{t('settings.title')}</h1>
        <div className="host-save">
          <p
            // A refusal with a field is announced there (settings-fault.tsx); one without, here.
            role={message?.kind === 'error' && !fault ? 'alert' : 'status'}
            className={`host-save__message ${message?.kind === 'error' ? 'host-error' : 'host-ok'}`}
            data-testid="settings-message"
          >
            {save.isPending ? t('settings.saving') : (message?.text ?? '')}
          </p>
          <button type="submit" className="button button--primary" disabled={save.isPending}>
            {t('settings.save')}
          </button>
        </div>
      </div>
      <SettingsFaultContext.Provider value={fault}>
        <SettingsIdentity draft={draft} update={update} />
        <SettingsBranding venueId={venueId} draft={draft} update={update} />
        <SettingsRules draft={draft} update={update} />
        <SettingsTables draft={draft} update={update} />
        <SettingsCalls draft={draft} update={update} />
        <SettingsMessages draft={draft} update={update} reservationUrl={settings.data?.venue.reservationUrl} />
      </SettingsFaultContext.Provider>
    </form>
  );
}

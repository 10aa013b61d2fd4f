import type { TeamInvite } from '@vez/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { hostApi } from '../api/host-api';
import { hostKeys } from '../api/query-keys';
import { errorText } from '../lib/error-text';
import { formatDateTime } from '../lib/format';
import { useHostT } from '../lib/host-i18n';

/** Invite a host by email (a single-use link, 72 hours) and withdraw pending invitations. */
export function TeamInvites({ venueId, invites }: { venueId: string; invites: TeamInvite[] }) {
  const { t, i18n } = useHostT();
  const client = useQueryClient();
  const [email, setEmail] = useState('');
  const [message, setMessage] = useState<{ kind: 'ok' | 'error'; text: string } | null>(null);
  const refresh = () => client.invalidateQueries({ queryKey: hostKeys.team(venueId) });
  const invite = useMutation({
    mutationFn: (address: string) => hostApi.invite(venueId, address),
    onSuccess: ({ invite: sent }) => {
      setEmail('');
      setMessage({ kind: 'ok', text: t('team.sent', { email: sent.email }) });
      void refresh();
    },
    onError: (error) => setMessage({ kind: 'error', text: teamErrorText(t, error) }),
  });
  const revoke = useMutation({
    mutationFn: (sent: TeamInvite) => hostApi.revokeInvite(venueId, sent._id),
    onSuccess: (_answer, sent) => {
      setMessage({ kind: 'ok', text: t('team.revoked', { email: sent.email }) });
      void refresh();
    },
    onError: (error) => setMessage({ kind: 'error', text: teamErrorText(t, error) }),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setMessage(null);
    invite.mutate(email.trim());
  };

  return (
    <fieldset className="host-group">
      <legend>{t('team.inviteTitle')}</legend>
      <form className="host-team__invite" onSubmit={submit}>
        <label className="host-field">
          <span>{t('team.email')}</span>
          <input
            type="email"
            autoComplete="off"
            required
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            aria-describedby="invite-hint"
          />
          <small id="invite-hint">{t('team.inviteHint')}</small>
        </label>
        <button type="submit" className="button button--primary" disabled={invite.isPending}>
          {t('team.invite')}
        </button>
      </form>
      <p role={message?.kind === 'error' ? 'alert' : 'status'} className={message?.kind === 'error' ? 'host-error' : 'host-ok'}>
        {message?.text ?? ''}
      </p>
      <h2 className="host-team__subtitle">{t('team.pending')}</h2>
      {invites.length === 0 ? (
        <p className="host-team__none">{t('team.noPending')}</p>
      ) : (
        <ul className="host-team__list" aria-label={t('team.pending')}>
          {invites.map((sent) => (
            <li key={sent._id} className="host-team__item">
              <span className="host-team__who">
                <strong>{sent.email}</strong>
                <small>{t('team.expires', { time: formatDateTime(sent.expiresAt, i18n.language) })}</small>
              </span>
              <button type="button" className="host-chip" disabled={revoke.isPending} onClick={() => revoke.mutate(sent)}>
                {t('team.revoke')}
                <span className="visually-hidden"> {sent.email}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </fieldset>
  );
}

/** The team's own sentences for its codes; the rest as every console error. */
export function teamErrorText(t: Parameters<typeof errorText>[0], error: unknown): string {
  const code = (error as { code?: string } | null)?.code;
  if (code === 'ALREADY_STAFF' || code === 'LAST_OWNER' || code === 'OWNER_ONLY') return t(`team.error.${code}`);
  if (code === 'VALIDATION_FAILED' && (error as { field?: string }).field === 'email') return t('team.error.email');
  return errorText(t, error);
}

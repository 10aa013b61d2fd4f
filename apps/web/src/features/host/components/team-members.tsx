import type { TeamMember } from '@vez/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { hostApi } from '../api/host-api';
import { hostKeys } from '../api/query-keys';
import { useHostT } from '../lib/host-i18n';
import { teamErrorText } from './team-invites';

type Action = { kind: 'role'; member: TeamMember } | { kind: 'end'; member: TeamMember } | { kind: 'remove'; member: TeamMember };

/** Members and their roles; an owner changes a role, ends a member's sessions, removes a member (after a second tap). */
export function TeamMembers({ venueId, members }: { venueId: string; members: TeamMember[] }) {
  const { t } = useHostT();
  const client = useQueryClient();
  const [confirming, setConfirming] = useState<string | null>(null);
  const [message, setMessage] = useState<{ kind: 'ok' | 'error'; text: string } | null>(null);
  const act = useMutation({
    mutationFn: async (action: Action) => {
      const { member } = action;
      if (action.kind === 'role') await hostApi.setRole(venueId, member._id, member.role === 'owner' ? 'host' : 'owner');
      else if (action.kind === 'end') return (await hostApi.endSessions(venueId, member._id)).ended;
      else await hostApi.removeMember(venueId, member._id);
      return 0;
    },
    onSuccess: (ended, action) => {
      setConfirming(null);
      const { email, role } = action.member;
      const text =
        action.kind === 'role'
          ? t('team.roleChanged', { email, role: t(`team.role_${role === 'owner' ? 'host' : 'owner'}`) })
          : action.kind === 'end'
            ? t('team.ended', { email, count: ended })
            : t('team.removed', { email });
      setMessage({ kind: 'ok', text });
      void client.invalidateQueries({ queryKey: hostKeys.team(venueId) });
      // Stepping down changes what this console shows.
      if (action.member.isYou) void client.invalidateQueries({ queryKey: hostKeys.me });
    },
    onError: (error) => {
      setConfirming(null);
      setMessage({ kind: 'error', text: teamErrorText(t, error) });
    },
  });

  return (
    <fieldset className="host-group">
      <legend>{t('team.members')}</legend>
      <p role={message?.kind === 'error' ? 'alert' : 'status'} className={message?.kind === 'error' ? 'host-error' : 'host-ok'}>
        {message?.text ?? ''}
      </p>
      <ul className="host-team__list" aria-label={t('team.members')}>
        {members.map((member) => (
          <li key={member._id} className="host-team__item">
            <span className="host-team__who">
              <strong>{member.email}</strong>
              <small>
                {t(`team.role_${member.role}`)}
                {member.isYou ? ` · ${t('team.you')}` : ''}
              </small>
            </span>
            <span className="host-team__actions">
              <button type="button" className="host-chip" disabled={act.isPending} onClick={() => act.mutate({ kind: 'role', member })}>
                {t(member.role === 'owner' ? 'team.makeHost' : 'team.makeOwner')}
                <span className="visually-hidden"> {member.email}</span>
              </button>
              {!member.isYou && (
                <button type="button" className="host-chip" disabled={act.isPending} onClick={() => act.mutate({ kind: 'end', member })}>
                  {t('team.endSessions')}
                  <span className="visually-hidden"> {member.email}</span>
                </button>
              )}
              {confirming === member._id ? (
                <button
                  type="button"
                  className="host-chip host-chip--danger"
                  disabled={act.isPending}
                  onClick={() => act.mutate({ kind: 'remove', member })}
                >
                  {t('team.confirmRemove', { email: member.email })}
                </button>
              ) : (
                <button type="button" className="host-chip" disabled={act.isPending} onClick={() => setConfirming(member._id)}>
                  {t('team.remove')}
                  <span className="visually-hidden"> {member.email}</span>
                </button>
              )}
            </span>
          </li>
        ))}
      </ul>
    </fieldset>
  );
}

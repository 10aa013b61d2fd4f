import { useQuery } from '@tanstack/react-query';
import { Spinner } from '../../../components/ui/spinner';
import { hostApi } from '../api/host-api';
import { hostKeys } from '../api/query-keys';
import { errorText } from '../lib/error-text';
import { useHostT } from '../lib/host-i18n';
import { TeamInvites } from './team-invites';
import { TeamMembers } from './team-members';

/**
 * The venue's team, for its owners (docs/product.md §9, docs/decisions/023-staff-roles.md): who runs
 * it and as what, invitations by email, removal and ending sessions.
 */
export function TeamScreen({ venueId }: { venueId: string }) {
  const { t } = useHostT();
  const team = useQuery({ queryKey: hostKeys.team(venueId), queryFn: () => hostApi.team(venueId) });
  if (team.isError)
    return (
      <p role="alert" className="host-error">
        {errorText(t, team.error)}
      </p>
    );
  if (!team.data) return <Spinner label={t('loading')} />;
  return (
    <section aria-labelledby="team-title" className="host-settings">
      <h1 id="team-title">{t('team.title')}</h1>
      <p className="host-team__intro">{t('team.intro')}</p>
      <TeamInvites venueId={venueId} invites={team.data.invites} />
      <TeamMembers venueId={venueId} members={team.data.members} />
    </section>
  );
}

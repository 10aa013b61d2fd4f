import { Spinner } from '../../../components/ui/spinner';
import { paths } from '../../../config/paths';
import { useHostMe } from '../hooks/use-host-session';
import { type HostScreen, OWNER_SCREENS, useHostLocation, useRedirect } from '../lib/host-location';
import { useHostT } from '../lib/host-i18n';
import '../host.css';
import { AccountScreen } from './account-screen';
import { ConsoleLayout } from './console-layout';
import { InviteScreen } from './invite-screen';
import { LoginScreen } from './login-screen';
import { PosterScreen } from './poster-screen';
import { QueueScreen } from './queue-screen';
import { SettingsScreen } from './settings-screen';
import { TeamScreen } from './team-screen';
import { TodayScreen } from './today-screen';

const SCREENS: Record<Exclude<HostScreen, 'account'>, (props: { venueId: string }) => React.JSX.Element> = {
  queue: QueueScreen,
  today: TodayScreen,
  settings: SettingsScreen,
  poster: PosterScreen,
  team: TeamScreen,
};

/**
 * The host console under /host: sign in, then one venue's queue, figures, settings, poster, team and
 * one's own account; an invitation link opens its own page. A host (not an owner) of the venue is
 * sent from the owners' screens to the queue (docs/decisions/023-staff-roles.md).
 */
export function HostConsole() {
  const { t } = useHostT();
  const me = useHostMe();
  const { venueId, screen, inviteToken } = useHostLocation();
  const first = me.data?.venues[0];
  const role = me.data?.venues.find((v) => v._id === venueId)?.role;
  const isOwnerScreenForHost = role === 'host' && screen !== undefined && OWNER_SCREENS.includes(screen);
  const target =
    inviteToken !== undefined || !me.data
      ? null
      : !venueId
        ? first
          ? paths.host.href(first._id)
          : null
        : !screen || isOwnerScreenForHost
          ? paths.host.href(venueId)
          : null;
  useRedirect(target);

  if (inviteToken !== undefined) return <InviteScreen token={inviteToken} />;
  if (me.isPending)
    return (
      <main className="host host--center">
        <Spinner label={t('loading')} />
      </main>
    );
  if (!me.data) return <LoginScreen />;
  if (!first)
    return (
      <main className="host host--center">
        <p>{t('noVenues')}</p>
      </main>
    );
  if (!venueId || !screen || isOwnerScreenForHost)
    return (
      <main className="host host--center">
        <Spinner label={t('loading')} />
      </main>
    );
  const Screen = screen === 'account' ? undefined : SCREENS[screen];
  return (
    <ConsoleLayout me={me.data} venueId={venueId} screen={screen}>
      {Screen ? <Screen key={venueId} venueId={venueId} /> : <AccountScreen email={me.data.staff.email} />}
    </ConsoleLayout>
  );
}

import { Spinner } from '../../../components/ui/spinner';
import { paths } from '../../../config/paths';
import { useHostMe } from '../hooks/use-host-session';
import { type HostScreen, useHostLocation, useRedirect } from '../lib/host-location';
import { useHostT } from '../lib/host-i18n';
import '../host.css';
import { ConsoleLayout } from './console-layout';
import { LoginScreen } from './login-screen';
import { PosterScreen } from './poster-screen';
import { QueueScreen } from './queue-screen';
import { SettingsScreen } from './settings-screen';
import { TodayScreen } from './today-screen';

const SCREENS: Record<HostScreen, (props: { venueId: string }) => React.JSX.Element> = {
  queue: QueueScreen,
  today: TodayScreen,
  settings: SettingsScreen,
  poster: PosterScreen,
};

/** The host console under /host: sign in, then one venue's queue, figures, settings and poster. */
export function HostConsole() {
  const { t } = useHostT();
  const me = useHostMe();
  const { venueId, screen } = useHostLocation();
  const first = me.data?.venues[0];
  const target = !me.data ? null : !venueId ? (first ? paths.host.href(first._id) : null) : !screen ? paths.host.href(venueId) : null;
  useRedirect(target);

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
  if (!venueId || !screen)
    return (
      <main className="host host--center">
        <Spinner label={t('loading')} />
      </main>
    );
  const Screen = SCREENS[screen];
  return (
    <ConsoleLayout me={me.data} venueId={venueId} screen={screen}>
      <Screen key={venueId} venueId={venueId} />
    </ConsoleLayout>
  );
}

import { Navigate, Route, Routes } from 'react-router';
import { Spinner } from '../../../components/ui/spinner';
import { paths } from '../../../config/paths';
import { useHostMe } from '../hooks/use-host-session';
import { useHostT } from '../lib/host-i18n';
import '../host.css';
import { ConsoleLayout } from './console-layout';
import { LoginScreen } from './login-screen';
import { PosterScreen } from './poster-screen';
import { QueueScreen } from './queue-screen';
import { SettingsScreen } from './settings-screen';
import { TodayScreen } from './today-screen';

/** The host console under /host: sign in, then one venue's queue, figures, settings and poster. */
export function HostConsole() {
  const { t } = useHostT();
  const me = useHostMe();
  if (me.isPending) return <main className="host host--center"><Spinner label={t('loading')} /></main>;
  if (!me.data) return <LoginScreen />;
  const first = me.data.venues[0];
  return (
    <Routes>
      <Route index element={first ? <Navigate to={`${first._id}/queue`} replace /> : <main className="host host--center"><p>{t('noVenues')}</p></main>} />
      <Route path=":venueId" element={<ConsoleLayout me={me.data} />}>
        <Route index element={<Navigate to="queue" replace />} />
        <Route path="queue" element={<QueueScreen />} />
        <Route path="today" element={<TodayScreen />} />
        <Route path="settings" element={<SettingsScreen />} />
        <Route path="poster" element={<PosterScreen />} />
      </Route>
      <Route path="*" element={<Navigate to={paths.host.href()} replace />} />
    </Routes>
  );
}

import type { HostMeResponse } from '@vez/contract';
import { useEffect } from 'react';
import { NavLink, Outlet, useNavigate, useParams } from 'react-router';
import { paths } from '../../../config/paths';
import { currentLanguage } from '../../../lib/i18n';
import { useLogout } from '../hooks/use-host-session';
import { useHostT } from '../lib/host-i18n';
import { LanguageToggle } from './language-toggle';

const SCREENS = ['queue', 'today', 'settings', 'poster'] as const;

/** Header (venue, screens, language, sign out) around one venue's screens. */
export function ConsoleLayout({ me }: { me: HostMeResponse }) {
  const { t, i18n } = useHostT();
  const { venueId = '' } = useParams();
  const navigate = useNavigate();
  const logout = useLogout();
  const venue = me.venues.find((v) => v._id === venueId);
  const lang = currentLanguage(i18n.language);
  const venueName = venue ? (venue.name[lang] || venue.name.pt) : '';

  useEffect(() => {
    document.title = `${t('title')} · ${venueName}`;
  }, [t, venueName]);

  if (!venue) return <main className="host host--center"><p role="alert">{t('venueNotYours')}</p></main>;
  return (
    <div className="host">
      <header className="host-bar host-chrome">
        <div className="host-bar__venue">
          {me.venues.length > 1 ? (
            <label>
              <span className="visually-hidden">{t('venue')}</span>
              <select value={venueId} onChange={(e) => navigate(paths.host.href(e.target.value))}>
                {me.venues.map((v) => <option key={v._id} value={v._id}>{v.name[lang] || v.name.pt}</option>)}
              </select>
            </label>
          ) : (
            <strong>{venueName}</strong>
          )}
        </div>
        <nav aria-label={t('nav.label')} className="host-bar__nav">
          {SCREENS.map((screen) => (
            <NavLink key={screen} to={screen} className="host-tab">
              {t(`nav.${screen}`)}
            </NavLink>
          ))}
        </nav>
        <div className="host-bar__end">
          <LanguageToggle />
          <button type="button" className="host-chip" onClick={() => logout.mutate()}>
            {t('logout')}
          </button>
        </div>
      </header>
      <main className="host-main">
        <Outlet />
      </main>
    </div>
  );
}

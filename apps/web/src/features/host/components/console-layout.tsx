import type { HostMeResponse } from '@vez/contract';
import { type ReactNode, useEffect, useState } from 'react';
import { paths } from '../../../config/paths';
import { currentLanguage } from '../../../lib/i18n';
import { useLogout } from '../hooks/use-host-session';
import { type HostScreen, navigateHost, screensFor } from '../lib/host-location';
import { useHostT } from '../lib/host-i18n';
import { TitleBadgeContext } from '../lib/title-badge';
import { HostLink } from './host-link';
import { LanguageToggle } from './language-toggle';

interface Props {
  me: HostMeResponse;
  venueId: string;
  screen: HostScreen;
  children: ReactNode;
}

/** Header (venue, screens, language, sign out) around one venue's screen. */
export function ConsoleLayout({ me, venueId, screen, children }: Props) {
  const { t, i18n } = useHostT();
  const logout = useLogout();
  const venue = me.venues.find((v) => v._id === venueId);
  const lang = currentLanguage(i18n.language);
  const venueName = venue ? venue.name[lang] || venue.name.pt : '';

  const [unread, setUnread] = useState(0);
  useEffect(() => {
    document.title = `${unread > 0 ? `(${unread}) ` : ''}${t('title')} · ${venueName}`;
  }, [t, venueName, unread]);

  if (!venue)
    return (
      <main className="host host--center">
        <p role="alert">{t('venueNotYours')}</p>
      </main>
    );
  return (
    <div className="host">
      <header className="host-bar host-chrome">
        <div className="host-bar__venue">
          {me.venues.length > 1 ? (
            <label>
              <span className="visually-hidden">{t('venue')}</span>
              <select value={venueId} onChange={(e) => navigateHost(paths.host.href(e.target.value))}>
                {me.venues.map((v) => (
                  <option key={v._id} value={v._id}>
                    {v.name[lang] || v.name.pt}
                  </option>
                ))}
              </select>
            </label>
          ) : (
            <strong>{venueName}</strong>
          )}
        </div>
        <nav aria-label={t('nav.label')} className="host-bar__nav">
          {screensFor(venue.role).map((s) => (
            <HostLink key={s} to={paths.host.href(venueId, s)} isCurrent={s === screen} className="host-tab">
              {t(`nav.${s}`)}
            </HostLink>
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
        <TitleBadgeContext.Provider value={setUnread}>{children}</TitleBadgeContext.Provider>
      </main>
    </div>
  );
}

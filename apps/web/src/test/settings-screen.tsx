import { type HostSettingsResponse, type VenueSettings, type VenueSettingsPatch, defaultColor, defaultVenueSettings } from '@vez/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { vi } from 'vitest';
import { hostApi } from '../features/host/api/host-api';
import { SettingsScreen } from '../features/host/components/settings-screen';

export const SETTINGS_VENUE = '6553f1a2b3c4d5e6f7a8b901';

/** The console's settings answer for a venue named "Bistrô São Gonçalo" with these settings. */
export const hostSettingsAnswer = (settings: VenueSettings): HostSettingsResponse => ({
  venue: {
    _id: SETTINGS_VENUE,
    slug: 'bistro-demo',
    name: { pt: 'Bistrô São Gonçalo' },
    address: { city: 'São Paulo', neighborhood: 'Pinheiros' },
    hasMenu: false,
    hiredServices: { loginJourney: false },
    reservationUrl: 'https://example.com/r',
    settings,
  },
  theme: {
    color: defaultColor,
    logo: { vertical: '', horizontal: '', horizontalWhite: '' },
    typeImageSpotlight: 'none',
    inspirationalImage: { small: '', large: '' },
    banners: { list: [] },
  },
  settings,
  maxPartySize: 8,
  sections: [],
  waitlist: { active: true, locked: false },
});

/**
 * The console's settings API answered here, with the default settings: every PATCH it is sent is
 * kept in the array returned (restore with `vi.restoreAllMocks()`).
 */
export function mockSettingsApi(): VenueSettingsPatch[] {
  const sent: VenueSettingsPatch[] = [];
  vi.spyOn(hostApi, 'settings').mockResolvedValue(hostSettingsAnswer(defaultVenueSettings));
  vi.spyOn(hostApi, 'patchSettings').mockImplementation(async (_venueId, patch) => {
    sent.push(patch);
    return hostSettingsAnswer({ ...defaultVenueSettings, ...patch.settings });
  });
  return sent;
}

/** The settings screen, once its Calls section shows. */
export async function renderSettingsScreen(): Promise<void> {
  render(
    <QueryClientProvider client={new QueryClient()}>
      <SettingsScreen venueId={SETTINGS_VENUE} />
    </QueryClientProvider>,
  );
  await screen.findByRole('group', { name: 'Chamadas' });
}

import { type VenueSettingsPatch, defaultVenueSettings } from '@vez/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { initI18n } from '../../../lib/i18n';
import { hostSettingsAnswer, mockSettingsApi, renderSettingsScreen, SETTINGS_VENUE } from '../../../test/settings-screen';
import { hostApi } from '../api/host-api';
import { SettingsScreen } from './settings-screen';

/** "SMS sem acentos" in the console (docs/product.md §8): the switch, and the editor's count with it. */
describe('settings: SMS sem acentos', () => {
  let sent: VenueSettingsPatch[];
  beforeEach(() => {
    sent = mockSettingsApi();
  });
  afterEach(() => vi.restoreAllMocks());

  const renderScreen = renderSettingsScreen;

  it('is on by default with its explanation; the preview is the SMS without accents and counts one segment', async () => {
    await initI18n().changeLanguage('pt');
    const user = userEvent.setup();
    await renderScreen();
    const calls = within(screen.getByRole('group', { name: 'Chamadas' }));
    const toggle = calls.getByRole('checkbox', { name: 'SMS sem acentos' });
    expect(toggle).toBeChecked();
    expect(toggle).toHaveAccessibleDescription(
      'Os SMS saem sem acentos (ã→a, ç→c) e cabem 160 caracteres em vez de 70; WhatsApp e páginas mantêm os acentos.',
    );
    const messages = within(screen.getByRole('group', { name: 'Mensagens aos clientes' }));
    // The venue's real name and a real link: the count is what this venue's SMS costs.
    expect(messages.getByTestId('message-preview').textContent).toMatch(
      /^Bistro Sao Goncalo: voce esta na fila\. Acompanhe: http\S+\/waitlist\/\S{22} Responda 1 \(a caminho\) ou 9 \(sair\)\.$/,
    );
    expect(messages.getByTestId('message-segments').textContent).toMatch(/^1 SMS · GSM-7 · \d+\/160 caracteres$/);
    expect(messages.getByText(/^O SMS sai sem acentos/)).toBeInTheDocument();

    await user.click(toggle);
    expect(messages.getByTestId('message-preview').textContent).toMatch(/^Bistrô São Gonçalo: você está na fila\. Acompanhe: /);
    expect(messages.getByTestId('message-segments').textContent).toMatch(/^3 SMS · UCS-2 · 139 caracteres/);
    await user.click(screen.getByRole('button', { name: 'Salvar alterações' }));
    await screen.findByText(/^Alterações salvas/);
    expect(sent[0]?.settings).toMatchObject({ smsWithoutAccents: false });
  });

  it('speaks English in an English console; by WhatsApp the preview keeps the accents', async () => {
    await initI18n().changeLanguage('en');
    vi.spyOn(hostApi, 'settings').mockResolvedValue(hostSettingsAnswer({ ...defaultVenueSettings, channel: 'whatsapp' }));
    render(
      <QueryClientProvider client={new QueryClient()}>
        <SettingsScreen venueId={SETTINGS_VENUE} />
      </QueryClientProvider>,
    );
    const calls = within(await screen.findByRole('group', { name: 'Calls' }));
    expect(calls.getByRole('checkbox', { name: 'SMS without accents' })).toHaveAccessibleDescription(
      'SMS go without accents (ã→a, ç→c) and fit 160 characters instead of 70; WhatsApp and the pages keep them.',
    );
    const messages = within(screen.getByRole('group', { name: 'Messages to guests' }));
    expect(messages.getByTestId('message-preview').textContent).toMatch(/^Bistrô São Gonçalo: você está na fila\./);
  });
});

import { type VenueSettingsPatch } from '@vez/contract';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../../lib/api-client';
import { initI18n } from '../../../lib/i18n';
import { mockSettingsApi, renderSettingsScreen } from '../../../test/settings-screen';
import { hostApi } from '../api/host-api';

/**
 * docs/decisions/032-the-door-on-a-busy-night.md: what a save did shows next to the Save button; a
 * number out of range is refused with its limits before anything is sent, never clamped; an
 * empty field is not zero; the field at fault is marked and focused, for the server's 422 too.
 */
describe('settings: limits and the field at fault', () => {
  let sent: VenueSettingsPatch[];
  beforeEach(async () => {
    await initI18n().changeLanguage('pt');
    sent = mockSettingsApi();
  });
  afterEach(() => vi.restoreAllMocks());

  const renderScreen = renderSettingsScreen;
  const holdField = () => screen.getByRole('textbox', { name: /^Minutos que a mesa fica reservada/ });
  const save = () => screen.getByRole('button', { name: 'Salvar alterações' });

  it('refuses 999 minutes with its limits next to Save, marks and focuses the field, sends nothing, keeps 999', async () => {
    const user = userEvent.setup();
    await renderScreen();
    await user.clear(holdField());
    await user.type(holdField(), '999');
    await user.click(save());
    expect(await screen.findByTestId('settings-message')).toHaveTextContent('Nada foi salvo: Use um número inteiro de 0 a 120.');
    expect(holdField()).toHaveAttribute('aria-invalid', 'true');
    expect(holdField()).toHaveFocus();
    expect(holdField()).toHaveValue('999');
    expect(holdField()).toHaveAccessibleDescription(/Use um número inteiro de 0 a 120\./);
    expect(sent).toEqual([]);
  });

  it('refuses an emptied hold window instead of saving 0', async () => {
    const user = userEvent.setup();
    await renderScreen();
    await user.clear(holdField());
    await user.click(save());
    expect(await screen.findByTestId('settings-message')).toHaveTextContent('Preencha este campo: um número inteiro de 0 a 120.');
    expect(holdField()).toHaveAttribute('aria-invalid', 'true');
    expect(sent).toEqual([]);
  });

  it('takes an empty cap of waiting parties as no cap, and saves the numbers as typed', async () => {
    const user = userEvent.setup();
    await renderScreen();
    await user.clear(screen.getByRole('textbox', { name: /^Máximo de grupos esperando/ }));
    await user.clear(holdField());
    await user.type(holdField(), '120');
    await user.click(save());
    expect(await screen.findByTestId('settings-message')).toHaveTextContent('Alterações salvas.');
    expect(sent[0]?.settings).toMatchObject({ holdMinutes: 120, maxWaitingParties: null });
  });

  it("marks the field the server's 422 names", async () => {
    vi.spyOn(hostApi, 'patchSettings').mockRejectedValue(
      new ApiError(422, { code: 'VALIDATION_FAILED', message: 'Use a whole number from 0 to 50.', field: 'settings.gettingCloseAt' }),
    );
    const user = userEvent.setup();
    await renderScreen();
    await user.click(save());
    const field = screen.getByRole('textbox', { name: /^Avisar "falta pouco" a quantas posições/ });
    await waitFor(() => expect(field).toHaveAttribute('aria-invalid', 'true'));
    expect(field).toHaveFocus();
    expect(screen.getByTestId('settings-message')).toHaveTextContent('Nada foi salvo: Use um número inteiro de 0 a 50.');
  });
});

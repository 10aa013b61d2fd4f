import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { initI18n } from '../../../lib/i18n';
import { hostQueue, patchVenueSettings } from '../../../test/demo-host-api';
import { setUpTestApi } from '../../../test/set-up-test-api';
import { renderWalkInDialog } from '../../../test/walk-in-dialog';

const BISTRO = '6553f1a2b3c4d5e6f7a8b901';
const api = setUpTestApi();

beforeAll(async () => {
  await patchVenueSettings(api, BISTRO, { settings: { channel: 'whatsapp' } });
});
beforeEach(async () => {
  await initI18n().changeLanguage('pt');
});

const renderDialog = () => renderWalkInDialog(api, BISTRO, { channel: 'whatsapp' });

const optInOf = async (name: string): Promise<boolean[]> =>
  (await hostQueue(api, BISTRO)).filter((entry) => entry.name === name).map((entry) => entry.whatsappOptIn ?? false);

/** docs/product.md §10: the walk-in dialog of a WhatsApp venue asks, unticked, and names the channel. */
describe('the walk-in dialog of a WhatsApp venue against the real API', { timeout: 30_000 }, () => {
  it('asks unticked; ticked, the body carries whatsappOptIn: true and the entry keeps it', async () => {
    const user = userEvent.setup();
    const { sent, onClose } = renderDialog();
    expect(
      screen.getByText(/^Com DDD, uma mensagem no WhatsApp \(ou por SMS, sem o aceite\) avisa quando a mesa estiver pronta\./),
    ).toBeInTheDocument();
    const consent = screen.getByRole('checkbox', { name: 'O cliente quer receber as atualizações pelo WhatsApp' });
    expect(consent).not.toBeChecked();
    await user.type(screen.getByLabelText(/^Nome/), 'Tiago Reis');
    await user.type(screen.getByLabelText(/^Celular/), '11965432281');
    await user.click(consent);
    await user.click(screen.getByRole('button', { name: 'Adicionar à fila' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled(), { timeout: 15_000 });
    expect(sent).toHaveBeenCalledWith(expect.objectContaining({ whatsappOptIn: true }));
    expect(await optInOf('Tiago Reis')).toEqual([true]);
  });

  it('left unticked, nothing is claimed: the party gets SMS', async () => {
    const user = userEvent.setup();
    const { sent, onClose } = renderDialog();
    await user.type(screen.getByLabelText(/^Nome/), 'Vera Lopes');
    await user.type(screen.getByLabelText(/^Celular/), '11965432282');
    await user.click(screen.getByRole('button', { name: 'Adicionar à fila' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled(), { timeout: 15_000 });
    expect(sent.mock.calls[0]?.[0]).not.toHaveProperty('whatsappOptIn');
    expect(await optInOf('Vera Lopes')).toEqual([false]);
  });
});

import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { initI18n } from '../../../lib/i18n';
import { hostQueue } from '../../../test/demo-host-api';
import { setUpTestApi } from '../../../test/set-up-test-api';
import { renderWalkInDialog } from '../../../test/walk-in-dialog';

const BISTRO = '6553f1a2b3c4d5e6f7a8b901';
const api = setUpTestApi();

beforeEach(async () => {
  await initI18n().changeLanguage('pt');
});

const renderDialog = (options: { maxPartySize?: number } = {}) => renderWalkInDialog(api, BISTRO, options);

/** The phones of the parties called `name` in the bistro's queue, as its console reads them. */
const storedPhones = async (name: string): Promise<(string | null)[]> =>
  (await hostQueue(api, BISTRO)).filter((entry) => entry.name === name).map((entry) => entry.phone);

/** docs/product.md §15: a walk-in's phone as people paste it; every field error at its field. */
describe('the walk-in dialog against the real API', { timeout: 30_000 }, () => {
  it('adds a party whose phone was pasted as +55 (11) …, stored as E.164', async () => {
    const user = userEvent.setup();
    const { onClose } = renderDialog();
    await user.type(screen.getByLabelText(/^Nome/), 'Rui Costa');
    await user.click(screen.getByLabelText(/^Celular/));
    await user.paste('+55 (11) 96543-2201');
    await user.click(screen.getByRole('button', { name: 'Adicionar à fila' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled(), { timeout: 15_000 });
    expect(await storedPhones('Rui Costa')).toEqual(['+5511965432201']);
  });

  it('a landline says "Use um celular" at the phone before anything is sent', async () => {
    const user = userEvent.setup();
    const { sent } = renderDialog();
    await user.type(screen.getByLabelText(/^Nome/), 'Lia Prado');
    await user.type(screen.getByLabelText(/^Celular/), '(11) 3456-7890');
    await user.tab();
    expect(await screen.findByText('Use um celular')).toBeInTheDocument();
    expect(screen.getByLabelText(/^Celular/)).toHaveAttribute('aria-invalid', 'true');
    await user.click(screen.getByRole('button', { name: 'Adicionar à fila' }));
    expect(sent).not.toHaveBeenCalled();
  });

  it('says "Use a mobile number" in English', async () => {
    await initI18n().changeLanguage('en');
    const user = userEvent.setup();
    renderDialog();
    await user.type(screen.getByLabelText(/^Mobile phone/), '+55 11 3456 7890');
    await user.tab();
    expect(await screen.findByText('Use a mobile number')).toBeInTheDocument();
  });

  it('a field the server refuses shows at that field', async () => {
    const user = userEvent.setup();
    // The console still offers 12 while the venue now takes at most 8.
    const { sent } = renderDialog({ maxPartySize: 12 });
    await user.type(screen.getByLabelText(/^Nome/), 'Ivo Santos');
    await user.type(screen.getByLabelText(/^Celular/), '11965432202');
    await user.clear(screen.getByLabelText(/^Número de pessoas/));
    await user.type(screen.getByLabelText(/^Número de pessoas/), '12');
    await user.click(screen.getByRole('button', { name: 'Adicionar à fila' }));
    const message = await screen.findByText('Número de pessoas fora do permitido por este restaurante.', {}, { timeout: 15_000 });
    expect(sent).toHaveBeenCalledTimes(1);
    expect(screen.getByLabelText(/^Número de pessoas/)).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByLabelText(/^Número de pessoas/)).toHaveAccessibleDescription(message.textContent ?? '');
    expect(await storedPhones('Ivo Santos')).toEqual([]);
  });
});

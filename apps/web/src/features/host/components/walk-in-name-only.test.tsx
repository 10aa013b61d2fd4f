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

/** The party as the console lists it: its phone, and its ticket (`customerTab`, the "senha"). */
const stored = async (name: string) =>
  (await hostQueue(api, BISTRO)).filter((entry) => entry.name === name).map(({ phone, customerTab }) => ({ phone, customerTab }));

/** docs/product.md §6: a name is all a walk-in needs; every field error shows at once. */
describe('the walk-in dialog with a name only', { timeout: 30_000 }, () => {
  it('adds a one-word walk-in without a phone', async () => {
    const user = userEvent.setup();
    const { onClose, sent } = renderDialog();
    await user.type(screen.getByLabelText(/^Nome/), 'Benedita');
    await user.click(screen.getByRole('button', { name: 'Adicionar à fila' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled(), { timeout: 15_000 });
    expect(sent.mock.calls[0]?.[0]).not.toHaveProperty('customer.phone');
    expect(await stored('Benedita')).toEqual([{ phone: null, customerTab: expect.stringMatching(/^\d+$/) }]);
  });

  it('shows every field error at once on submit, each at its field, and sends nothing', async () => {
    const user = userEvent.setup();
    const { sent } = renderDialog();
    await user.type(screen.getByLabelText(/^Celular/), '12');
    await user.clear(screen.getByLabelText(/^Número de pessoas/));
    await user.type(screen.getByLabelText(/^Número de pessoas/), '0');
    await user.click(screen.getByRole('button', { name: 'Adicionar à fila' }));
    expect(await screen.findByText('Informe um nome.')).toBeInTheDocument();
    expect(screen.getByText('Celular inválido: use DDD e número.')).toBeInTheDocument();
    expect(screen.getByText('Número de pessoas fora do permitido por este restaurante.')).toBeInTheDocument();
    for (const label of [/^Nome/, /^Celular/, /^Número de pessoas/]) {
      expect(screen.getByLabelText(label)).toHaveAttribute('aria-invalid', 'true');
    }
    expect(sent).not.toHaveBeenCalled();
  });
});

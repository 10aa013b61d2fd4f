import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { initI18n } from '../../../lib/i18n';
import { createQueryClient } from '../../../lib/query-client';
import { setUpTestApi } from '../../../test/set-up-test-api';
import { productUserKey } from '../api/product-user-query';
import CodeStep from './code-step';

const CLUBE = '6553f1a2b3c4d5e6f7a8b902';
const api = setUpTestApi();

beforeEach(async () => {
  await initI18n().changeLanguage('pt');
});

/** The newest code the outbox delivered to `to` (delivery follows the answer: wait for it). */
async function codeSentTo(to: string, after: number): Promise<string> {
  let code = '';
  await waitFor(
    async () => {
      const outbox = (await (await fetch(`${api.baseUrl}/api/dev/outbox`)).json()) as { to: string; body: string; createdAt: string }[];
      const message = outbox.find((m) => m.to === to && Date.parse(m.createdAt) >= after);
      code = /\b(\d{6})\b/.exec(message?.body ?? '')?.[1] ?? '';
      expect(code).not.toBe('');
    },
    { timeout: 10_000, interval: 100 },
  );
  return code;
}

function renderStep(contact: { name: string; phone: string; email: string }) {
  const queryClient = createQueryClient();
  const onJoin = vi.fn(async () => {});
  const onBack = vi.fn();
  render(
    <QueryClientProvider client={queryClient}>
      <CodeStep venueId={CLUBE} language="pt" contact={contact} onBack={onBack} onJoin={onJoin} isJoining={false} />
    </QueryClientProvider>,
  );
  return { queryClient, onJoin, onBack };
}

describe('code step against the real API', { timeout: 30_000 }, () => {
  it('sends the code on entering, refuses a wrong one with the server message, accepts the right one', async () => {
    const user = userEvent.setup();
    const started = Date.now() - 1000;
    const { queryClient, onJoin, onBack } = renderStep({ name: 'Clara Nunes Prado', phone: '+5511987650111', email: 'clara@example.com' });
    expect(await screen.findByText('Código enviado, verifique sua caixa de mensagens', {}, { timeout: 10_000 })).toBeInTheDocument();
    const join = screen.getByRole('button', { name: 'Entrar na fila' });
    expect(join).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Reenviar código' })).toBeDisabled();
    const code = await codeSentTo('+5511987650111', started);
    const wrong = code === '000000' ? '111111' : '000000';

    expect(screen.getByLabelText('Dígito 1 de 6')).toHaveFocus();
    await user.keyboard(wrong);
    const alert = await screen.findByRole('alert', {}, { timeout: 10_000 });
    // The server's own message, shown as is.
    await waitFor(() => expect(alert).toHaveTextContent('Código inválido. Confira e tente de novo.'));
    expect(join).toBeDisabled();

    // The boxes are cleared for another try.
    await waitFor(() => expect(screen.getByLabelText('Dígito 1 de 6')).toHaveFocus());
    await user.keyboard(code);
    expect(await screen.findByText('Código verificado!', {}, { timeout: 10_000 })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Entrar na fila' })).toBeEnabled();
    expect(queryClient.getQueryData(productUserKey)).toMatchObject({
      firstName: 'Clara Nunes',
      lastName: 'Prado',
      phone: '+5511987650111',
    });
    await user.click(screen.getByRole('button', { name: 'Entrar na fila' }));
    expect(onJoin).toHaveBeenCalledOnce();
    await user.click(screen.getByRole('button', { name: /Voltar/ }));
    expect(onBack).toHaveBeenCalledOnce();
  });

  it('sends the code to the email after the toggle, with its own message', async () => {
    const user = userEvent.setup();
    const started = Date.now() - 1000;
    renderStep({ name: 'Rui Castro', phone: '+5511987650222', email: 'rui@example.com' });
    await screen.findByText('Código enviado, verifique sua caixa de mensagens', {}, { timeout: 10_000 });
    await user.click(screen.getByRole('radio', { name: 'E-mail' }));
    expect(screen.getByRole('radio', { name: 'E-mail' })).toBeChecked();
    expect(await screen.findByText('Código enviado, verifique seu email', {}, { timeout: 10_000 })).toBeInTheDocument();
    const code = await codeSentTo('rui@example.com', started);
    await user.keyboard(code);
    expect(await screen.findByText('Código verificado!', {}, { timeout: 10_000 })).toBeInTheDocument();
  });

  it('offers only SMS when step 0 had no email', async () => {
    renderStep({ name: 'Lia Rocha', phone: '+5511987650333', email: '' });
    expect(screen.getByRole('radio', { name: 'SMS' })).toBeChecked();
    expect(screen.getByRole('radio', { name: 'E-mail' })).toBeDisabled();
    await screen.findByText('Código enviado, verifique sua caixa de mensagens', {}, { timeout: 10_000 });
  });
});

import { act, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { initI18n } from '../../lib/i18n';
import { setUpTestApi } from '../../test/set-up-test-api';
import { renderRoute } from '../../test/render-route';

const BISTRO = '6553f1a2b3c4d5e6f7a8b901';
setUpTestApi();

beforeEach(async () => {
  sessionStorage.clear();
  localStorage.clear();
  await initI18n().changeLanguage('pt');
});
afterEach(() => {
  vi.restoreAllMocks();
});

/** The browser going offline and online, as its events say (docs/product.md §12.7). */
function setOnline(isOnline: boolean) {
  vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(isOnline);
  act(() => {
    window.dispatchEvent(new Event(isOnline ? 'online' : 'offline'));
  });
}

describe('the join page on a bad network', { timeout: 30_000 }, () => {
  it('says at once that the network is gone, and again when it is back', async () => {
    renderRoute(`/remote-waitlist/${BISTRO}`);
    const notice = await screen.findByTestId('connection-notice', undefined, { timeout: 10_000 });
    expect(notice).toBeEmptyDOMElement();
    setOnline(false);
    expect(notice).toHaveTextContent('Sem conexão com a internet.');
    setOnline(true);
    expect(notice).toHaveTextContent('Conexão de volta. Você já pode entrar na fila.');
  });
});

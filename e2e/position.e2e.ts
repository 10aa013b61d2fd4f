import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEMO_BISTRO_ID,
  type VezServer,
  axeViolations,
  launchBrowser,
  phoneContext,
  saveScreenshot,
  startVezServer,
} from './support/index.js';

let server: VezServer;
let browser: Browser;
let hostCookie = '';
let phoneSeq = 0;

beforeAll(async () => {
  [server, browser] = await Promise.all([startVezServer(), launchBrowser()]);
  const login = await api('POST', '/api/host/login', { email: 'host@bistro.example', password: 'demo1234' });
  hostCookie = (login.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  expect(login.status, await login.clone().text()).toBe(200);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

function api(method: string, path: string, body?: unknown): Promise<Response> {
  return fetch(`${server.baseUrl}${path}`, {
    method,
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...(hostCookie ? { cookie: hostCookie } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}
const host = (path: string, body: unknown = {}, method = 'POST') => api(method, `/api/host/venues/${DEMO_BISTRO_ID}${path}`, body);

/** A diner joins the demo bistro through the public API; answers the own id. */
async function joinByApi(partySize = 2): Promise<string> {
  phoneSeq += 1;
  const response = await api('POST', `/api/waitlists/${DEMO_BISTRO_ID}/create`, {
    customer: { name: 'Rita Alves', phone: `+5511977${String(700000 + phoneSeq)}`, email: '' },
    venue: DEMO_BISTRO_ID,
    origin: { label: 'Widget' },
    partySize,
    benefits: '',
    logs: { actionType: 'Add' },
    data: { origin: 'Waitlist widget' },
    sendSms: true,
  });
  expect(response.status).toBe(201);
  return ((await response.json()) as { _id: string })._id;
}

async function positionOf(id: string): Promise<{ pos: number; shareId: string | null; customer: { _id: string } }> {
  return (
    (await (await api('GET', `/api/waitlists/${id}/position`)).json()) as {
      waitlist: { pos: number; shareId: string | null; customer: { _id: string } };
    }
  ).waitlist;
}

async function openPhone(path: string, options: { locale?: string; permissions?: string[] } = {}): Promise<Page> {
  const context: BrowserContext = await phoneContext(browser, options.locale ? { locale: options.locale } : {});
  if (options.permissions) await context.grantPermissions(options.permissions, { origin: server.baseUrl });
  const page = await context.newPage();
  await page.goto(`${server.baseUrl}${path}`);
  return page;
}

const badge = (page: Page) => page.getByTestId('position-number');
/** The parties waiting in order, as staff see them. */
async function waitingQueue(): Promise<{ _id: string; status: string }[]> {
  const queue = (await (await api('GET', `/api/host/venues/${DEMO_BISTRO_ID}/entries`)).json()) as {
    entries: { _id: string; status: string }[];
  };
  return queue.entries.filter((e) => e.status === 'active');
}

describe('the live position page', () => {
  it('joins, follows, and turns into the called panel within 2 s of the call, then seated', async () => {
    const page = await openPhone(`/remote-waitlist/${DEMO_BISTRO_ID}`);
    await page.getByRole('button', { name: /Número de pessoas/ }).click();
    await page.getByRole('option', { name: '2 lugares', exact: true }).click();
    await page.getByLabel('Nome e sobrenome').fill('Beatriz Lima');
    await page.getByLabel('Celular').pressSequentially('11987659999');
    const submit = page.getByRole('button', { name: 'Entrar na fila' });
    await expect.poll(() => submit.isEnabled()).toBe(true);
    await submit.click();
    await page.getByRole('dialog', { name: 'Você entrou na fila' }).getByRole('button', { name: 'Acompanhar' }).click();
    await page.waitForURL(/\/waitlist\/[\w-]+$/);
    const id = new URL(page.url()).pathname.split('/').pop() as string;

    await page.getByRole('heading', { name: 'Sua posição na fila' }).waitFor();
    expect(Number(await badge(page).textContent())).toBe((await positionOf(id)).pos);
    await page.getByText('Grupo de 2 pessoas').waitFor();
    await page.getByText('Atualizado em tempo real').waitFor();
    await page.getByRole('img', { name: 'Logotipo de Bistrô Demo' }).waitFor();
    await page.getByRole('link', { name: 'Ver o cardápio' }).waitFor();
    await saveScreenshot(page, 'position-pt-waiting', { fullPage: true });
    expect(await axeViolations(page)).toEqual([]);

    const call = await host(`/entries/${id}/call`);
    expect(call.status, await call.clone().text()).toBe(200);
    await page.waitForSelector('[data-state="called"]', { timeout: 2000 });
    await page.getByRole('heading', { name: 'Chegou a sua vez!' }).waitFor();
    // The called panel keeps every answer, leaving too (docs/product.md §12.2).
    expect(await page.getByRole('button', { name: 'Sair da fila' }).count()).toBe(1);
    expect(await badge(page).count()).toBe(0);
    await saveScreenshot(page, 'position-pt-called');
    expect(await axeViolations(page)).toEqual([]);

    expect((await host(`/entries/${id}/seat`)).status).toBe(200);
    await page.waitForSelector('[data-state="seated"]', { timeout: 2000 });
    await page.getByRole('heading', { name: 'Bom apetite!' }).waitFor();
    await saveScreenshot(page, 'position-pt-seated');
    expect(await axeViolations(page)).toEqual([]);
    await page.context().close();
  });

  it('moves up live when a party ahead leaves, and shows the turn-is-coming notice at 3', async () => {
    const id = await joinByApi();
    const page = await openPhone(`/waitlist/${id}`);
    await badge(page).waitFor();
    const notice = page.getByTestId('turn-coming');
    // Take parties ahead off (the first one by the diner's own cancel, the rest by staff) until 3 is reached.
    let expected = Number(await badge(page).textContent());
    expect(expected).toBeGreaterThan(3);
    let first = true;
    while (expected > 3) {
      expect(await notice.count()).toBe(0);
      const [ahead] = await waitingQueue();
      if (!ahead || ahead._id === id) throw new Error('no party ahead');
      if (first) {
        const customer = (await positionOf(ahead._id)).customer._id;
        const left = await api('PUT', `/api/waitlists/${ahead._id}/${DEMO_BISTRO_ID}/cancel`, {
          logs: { customer, actionType: 'Remove' },
          customer,
          cancelReason: 'Customer',
        });
        expect(left.status).toBe(200);
        first = false;
      } else {
        expect((await host(`/entries/${ahead._id}/cancel`, { reason: 'NoShow' })).status).toBe(200);
      }
      expected -= 1;
      await page.waitForFunction((n) => document.querySelector('[data-testid="position-number"]')?.textContent === String(n), expected);
    }
    await notice.getByText('Sua vez está chegando!').waitFor();
    await saveScreenshot(page, 'position-pt-turn-coming', { fullPage: true });
    expect(await axeViolations(page)).toEqual([]);
    await page.context().close();
  });

  it('leaves after the confirmation', async () => {
    const id = await joinByApi();
    const page = await openPhone(`/waitlist/${id}`);
    await page.getByRole('button', { name: 'Sair da fila' }).click();
    const dialog = page.getByRole('dialog', { name: 'Deseja sair da fila?' });
    await dialog.waitFor();
    await saveScreenshot(page, 'position-pt-leave-confirm');
    expect(await axeViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Sim, sair da fila' }).click();
    await page.getByRole('heading', { name: 'Você não está mais na fila.' }).waitFor();
    expect(await page.getByRole('button', { name: 'Compartilhar' }).count()).toBe(0);
    const status = (await (await api('GET', `/api/waitlists/${id}/${DEMO_BISTRO_ID}/status`)).json()) as {
      status: string;
      cancelReason: string;
    };
    expect(status).toMatchObject({ status: 'cancelled', cancelReason: 'Customer' });
    await saveScreenshot(page, 'position-pt-left');
    await page.context().close();
  });

  it('copies the read-only link; the shared page has no buttons and its cancel is refused', async () => {
    const id = await joinByApi();
    const page = await openPhone(`/waitlist/${id}`, { permissions: ['clipboard-read', 'clipboard-write'] });
    // The page may write the clipboard but not read it (Permissions-Policy, docs/security.md): the
    // test keeps what the page writes on its way to the clipboard.
    await page.evaluate(() => {
      const write = navigator.clipboard.writeText.bind(navigator.clipboard);
      const copied: string[] = [];
      (window as unknown as { copied: string[] }).copied = copied;
      navigator.clipboard.writeText = (text: string) => (copied.push(text), write(text));
    });
    await page.getByRole('button', { name: 'Compartilhar' }).click();
    await page.getByText('Link copiado!').waitFor();
    const link = await page.evaluate(() => (window as unknown as { copied: string[] }).copied.at(-1) ?? '');
    const { shareId } = await positionOf(id);
    expect(link).toBe(`${server.baseUrl}/waitlist/${shareId}?shared=true`);
    expect(shareId).not.toBe(id);
    await page.getByText('Link copiado!').waitFor({ state: 'hidden' });

    const shared = await openPhone(new URL(link).pathname + new URL(link).search);
    // Worded for someone who is not in the queue (docs/product.md §12.2).
    await shared.getByRole('heading', { name: 'Posição de um grupo na fila' }).waitFor();
    await badge(shared).waitFor();
    expect(
      await shared
        .getByRole('button')
        .filter({ hasText: /Sair da fila|Compartilhar/ })
        .count(),
    ).toBe(0);
    await saveScreenshot(shared, 'position-pt-shared');
    expect(await axeViolations(shared)).toEqual([]);

    const refused = await api('PUT', `/api/waitlists/${shareId}/${DEMO_BISTRO_ID}/cancel`, {
      logs: { customer: shareId, actionType: 'Remove' },
      customer: shareId,
      cancelReason: 'Customer',
    });
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { code: string }).code).toBe('SHARED_LINK_READ_ONLY');
    expect((await positionOf(id)).pos).toBeGreaterThan(0);
    await page.context().close();
    await shared.context().close();
  });

  it('hides the position when the venue says so, live, and tells the diner to watch SMS', async () => {
    const id = await joinByApi();
    const page = await openPhone(`/waitlist/${id}?lng=en`, { locale: 'en-US' });
    await badge(page).waitFor();
    try {
      expect((await host('/settings', { settings: { hidePosition: true } }, 'PATCH')).status).toBe(200);
      await page.getByText(/Keep an eye on your SMS messages/).waitFor();
      expect(await badge(page).count()).toBe(0);
      await saveScreenshot(page, 'position-en-hidden', { fullPage: true });
      expect(await axeViolations(page)).toEqual([]);
    } finally {
      await host('/settings', { settings: { hidePosition: false } }, 'PATCH');
    }
    await badge(page).waitFor();
    await page.context().close();
  });

  it('speaks English word for word, and drops the passport from the address', async () => {
    const id = await joinByApi(1);
    const page = await openPhone(`/waitlist/${id}?lng=en&passport=not-a-real-passport-0123456789`, { locale: 'en-US' });
    await page.getByRole('heading', { name: 'Your place in the waitlist' }).waitFor();
    await page.waitForURL((url) => !url.searchParams.has('passport'));
    expect(new URL(page.url()).search).toBe('?lng=en');
    await page.getByText('Party of 1 person').waitFor();
    await page.getByText('Updated in real time').waitFor();
    await page.getByText('At least half of the party must be present to enter.').waitFor();
    await page.getByRole('link', { name: 'Terms of service and waitlist' }).first().waitFor();
    await page.getByRole('link', { name: 'See the menu' }).waitFor();
    await page.getByRole('button', { name: 'Leave the waitlist' }).click();
    await page.getByRole('dialog', { name: 'Would you like to leave the waitlist?' }).getByRole('button', { name: 'No, stay' }).click();
    await saveScreenshot(page, 'position-en-waiting', { fullPage: true });
    expect(await axeViolations(page)).toEqual([]);
    await page.context().close();
  });

  it('switches language in place, keeping the live position', async () => {
    const id = await joinByApi(3);
    const page = await openPhone(`/waitlist/${id}`);
    await page.getByText('Grupo de 3 pessoas').waitFor();
    await page.getByRole('button', { name: /Idioma: Português/ }).click();
    await page.getByRole('dialog', { name: 'Escolha o idioma' }).getByRole('button', { name: 'English (United States)' }).click();
    await page.getByRole('heading', { name: 'Your place in the waitlist' }).waitFor();
    await page.getByText('Party of 3 people').waitFor();
    expect(Number(await badge(page).textContent())).toBe((await positionOf(id)).pos);
    expect((await host(`/entries/${id}/call`)).status).toBe(200);
    await page.getByRole('heading', { name: 'It is your turn!' }).waitFor();
    await saveScreenshot(page, 'position-en-called');
    await page.context().close();
  });

  it('falls back to polling when no stream can be opened, and still sees the call', { timeout: 90_000 }, async () => {
    const id = await joinByApi();
    const context = await phoneContext(browser);
    // Every attempt at the event stream fails at the network level, as behind a proxy that drops it.
    await context.route('**/api/waitlists/*/events*', (route) => route.abort());
    const page = await context.newPage();
    await page.goto(`${server.baseUrl}/waitlist/${id}`);
    await badge(page).waitFor();
    expect((await host(`/entries/${id}/call`)).status).toBe(200);
    // The stream gives up after a few errors, then the page polls every 15 s: allow for both.
    await page.waitForSelector('[data-state="called"]', { timeout: 45_000 });
    await context.close();
  });

  it('shows the failure modal for an entry that does not exist', async () => {
    const page = await openPhone('/waitlist/AAAAAAAAAAAAAAAAAAAAAA?lng=en', { locale: 'en-US' });
    const dialog = page.getByRole('dialog', { name: 'Failed to get waitlist information.' });
    await dialog.waitFor();
    await saveScreenshot(page, 'position-en-failed');
    expect(await axeViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'OK' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.context().close();
  });
});

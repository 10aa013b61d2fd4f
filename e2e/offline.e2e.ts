import type { Browser, BrowserContext, Page, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEMO_BISTRO_ID,
  type VezServer,
  axeViolations,
  launchBrowser,
  phoneContext,
  putWaitlistState,
  queryRows,
  saveScreenshot,
  startVezServer,
  staffCookie,
  updateRows,
} from './support/index.js';

/**
 * The door on a busy night, the diner's side (docs/product.md §12.7, §3.9, §12.2): the pages say
 * within 2 s that the network is gone and again when it is back; a join retried after a cut makes
 * one entry; the called panel, the pages that end, the shared and the locked pages pass axe at phone size.
 */
let server: VezServer;
let browser: Browser;
let phoneSeq = 0;

beforeAll(async () => {
  [server, browser] = await Promise.all([startVezServer(), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** Within 2 s of the cut (docs/product.md §12.7). */
const SAID_WITHIN_MS = 2000;
/** Back: the stream reopens at the browser's online event. */
const BACK_WITHIN_MS = 5000;

async function openPhone(path: string): Promise<{ page: Page; context: BrowserContext }> {
  const context = await phoneContext(browser);
  const page = await context.newPage();
  await page.goto(`${server.baseUrl}${path}`);
  return { page, context };
}

/** A party joins the demo bistro through the public API; answers its ids. */
async function joinByApi(): Promise<{ id: string; shareId: string }> {
  phoneSeq += 1;
  const response = await fetch(`${server.baseUrl}/api/waitlists/${DEMO_BISTRO_ID}/create`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      customer: { name: 'Rita Alves', phone: `+5511976${String(600000 + phoneSeq)}`, email: '' },
      venue: DEMO_BISTRO_ID,
      origin: { label: 'Widget' },
      partySize: 2,
      benefits: '',
      logs: { actionType: 'Add' },
      data: { origin: 'Waitlist widget' },
      sendSms: true,
    }),
  });
  expect(response.status).toBe(201);
  const id = ((await response.json()) as { _id: string })._id;
  const position = (await (await fetch(`${server.baseUrl}/api/waitlists/${id}/position`)).json()) as { waitlist: { shareId: string } };
  return { id, shareId: position.waitlist.shareId };
}

const STREAM = '**/api/waitlists/*/events**';

describe('the diner pages on a bad network', () => {
  it('the join page says the network is gone and back; a join cut twice is retried into one entry', async () => {
    const { page, context } = await openPhone(`/remote-waitlist/${DEMO_BISTRO_ID}`);
    const notice = page.getByTestId('connection-notice');
    await page.getByRole('button', { name: /Número de pessoas/ }).click();
    await page.getByRole('option', { name: '2 lugares', exact: true }).click();
    await page.getByLabel('Nome e sobrenome').fill('Clara Nunes');
    await page.getByLabel('Celular').pressSequentially('11976543210');
    const submit = page.getByRole('button', { name: 'Entrar na fila' });
    await expect.poll(() => submit.isEnabled()).toBe(true);

    await context.setOffline(true);
    await expect.poll(() => notice.textContent(), { timeout: SAID_WITHIN_MS }).toContain('Sem conexão com a internet');
    await saveScreenshot(page, 'join-offline');
    expect(await axeViolations(page)).toEqual([]);

    // Sent offline: a clear error at once, with a retry; what was typed stays.
    const keys: string[] = [];
    let loseNextAnswer = false;
    await page.route('**/api/waitlists/*/create', async (route: Route) => {
      keys.push(route.request().headers()['idempotency-key'] ?? '');
      if (!loseNextAnswer) return route.continue();
      // The join reaches the server, its answer is lost on the way back.
      loseNextAnswer = false;
      await route.fetch();
      await route.abort('internetdisconnected');
    });
    await submit.click();
    const failed = page.getByRole('dialog', { name: 'Sem conexão: seu pedido não chegou' });
    await failed.waitFor({ timeout: SAID_WITHIN_MS });
    await saveScreenshot(page, 'join-network-error');
    expect(await axeViolations(page)).toEqual([]);
    expect(await page.getByLabel('Nome e sobrenome').inputValue()).toBe('Clara Nunes');

    await context.setOffline(false);
    await expect.poll(() => notice.textContent(), { timeout: SAID_WITHIN_MS }).toContain('Conexão de volta');
    loseNextAnswer = true;
    await failed.getByRole('button', { name: 'Tentar de novo' }).click();
    await failed.waitFor({ timeout: 10_000 });
    await failed.getByRole('button', { name: 'Tentar de novo' }).click();
    const joined = page.getByRole('dialog', { name: 'Você entrou na fila' });
    await joined.waitFor({ timeout: 10_000 });

    // Two sends reached the server (the lost answer and the retry), one key, one entry.
    expect(keys.length).toBeGreaterThanOrEqual(2);
    expect(new Set(keys).size).toBe(1);
    expect(keys[0]).toMatch(/^[A-Za-z0-9_-]{8,128}$/);
    const rows = queryRows<{ id: string }>(server.dbFile, 'SELECT id FROM entries WHERE phone = ?', '+5511976543210');
    expect(rows).toHaveLength(1);
    await joined.getByRole('button', { name: 'Acompanhar' }).click();
    await page.waitForURL(`**/waitlist/${rows[0]!.id}`);
    await context.close();
  });

  it('the position page says it is not live when the stream or the network drops, and again when it is back', async () => {
    const { id } = await joinByApi();
    // The stream aborted from its first try: the page says at once that its place is not live.
    const context = await phoneContext(browser);
    const page = await context.newPage();
    await page.route(STREAM, (route) => route.abort('internetdisconnected'));
    await page.goto(`${server.baseUrl}/waitlist/${id}`);
    const note = page.getByTestId('live-note');
    await page.getByTestId('position-number').waitFor();
    const aborted = page.waitForEvent('requestfailed', (r) => r.url().includes(`/api/waitlists/${id}/events`));
    await aborted;
    await expect
      .poll(() => note.textContent(), { timeout: SAID_WITHIN_MS })
      .toContain('Sem conexão: sua posição não está sendo atualizada.');
    await saveScreenshot(page, 'position-not-live');
    expect(await axeViolations(page)).toEqual([]);
    // The stream gets through again: said again (the browser's own retry, or the page's polling).
    await page.unroute(STREAM);
    await expect.poll(() => note.textContent(), { timeout: BACK_WITHIN_MS * 4 }).toContain('Conexão de volta');

    // The network cut: said within 2 s, and again when it is back.
    await context.setOffline(true);
    await expect
      .poll(() => note.textContent(), { timeout: SAID_WITHIN_MS })
      .toContain('Sem conexão: sua posição não está sendo atualizada.');
    await saveScreenshot(page, 'position-offline');
    await context.setOffline(false);
    await expect.poll(() => note.textContent(), { timeout: BACK_WITHIN_MS }).toContain('Conexão de volta');

    // Live again: a change at the venue reaches the page.
    const cookie = await staffCookie(server.baseUrl, DEMO_BISTRO_ID);
    const called = await fetch(`${server.baseUrl}/api/host/venues/${DEMO_BISTRO_ID}/entries/${id}/call`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie },
      body: '{}',
    });
    expect(called.status).toBe(200);
    await page.getByRole('heading', { name: 'Chegou a sua vez!' }).waitFor({ timeout: 20_000 });
    await context.close();
  });

  it('the called panel, the pages that end, the shared page and the locked page pass axe at phone size', async () => {
    const called = await joinByApi();
    updateRows(server.dbFile, "UPDATE entries SET status = 'called', notified_at = ? WHERE id = ?", Date.now(), called.id);
    const calledPage = (await openPhone(`/waitlist/${called.id}`)).page;
    await calledPage.getByRole('heading', { name: 'Chegou a sua vez!' }).waitFor();
    for (const name of ['Estou a caminho', 'Cheguei', '+5 min', 'Sair da fila']) await calledPage.getByRole('button', { name }).waitFor();
    await calledPage.getByRole('button', { name: 'Cheguei' }).click();
    await calledPage.getByText('O restaurante já sabe que você chegou.').waitFor();
    await saveScreenshot(calledPage, 'position-called-answers', { fullPage: true });
    expect(await axeViolations(calledPage)).toEqual([]);

    const ended = await joinByApi();
    updateRows(
      server.dbFile,
      "UPDATE entries SET status = 'cancelled', cancel_reason = 'NoShow', ended_at = ? WHERE id = ?",
      Date.now(),
      ended.id,
    );
    const endedPage = (await openPhone(`/waitlist/${ended.id}`)).page;
    await endedPage.getByText('Sua vez foi chamada e o prazo para chegar à recepção terminou.').waitFor();
    const again = endedPage.getByRole('link', { name: 'Entrar na fila de novo' });
    expect(await again.getAttribute('href')).toBe(`/remote-waitlist/${DEMO_BISTRO_ID}`);
    await saveScreenshot(endedPage, 'position-ended-no-show');
    expect(await axeViolations(endedPage)).toEqual([]);

    const shared = await joinByApi();
    const sharedPage = (await openPhone(`/waitlist/${shared.shareId}?shared=true`)).page;
    await sharedPage.getByRole('heading', { name: 'Posição de um grupo na fila' }).waitFor();
    await sharedPage.getByText(/Você só acompanha: não está na fila/).waitFor();
    await saveScreenshot(sharedPage, 'position-shared');
    expect(await axeViolations(sharedPage)).toEqual([]);

    await putWaitlistState(server.baseUrl, DEMO_BISTRO_ID, { active: true, locked: true });
    try {
      const lockedPage = (await openPhone(`/remote-waitlist/${DEMO_BISTRO_ID}`)).page;
      const dialog = lockedPage.getByRole('dialog', { name: 'A fila remota está fechada.' });
      await dialog.waitFor();
      await dialog.getByText('venha até a recepção do restaurante', { exact: false }).waitFor();
      await saveScreenshot(lockedPage, 'join-locked-door');
      expect(await axeViolations(lockedPage)).toEqual([]);
    } finally {
      await putWaitlistState(server.baseUrl, DEMO_BISTRO_ID, { active: true, locked: false });
    }
  });
});

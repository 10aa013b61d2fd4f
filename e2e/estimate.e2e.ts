import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WIDE_RANGE_MINUTES } from '../packages/contract/src/wait-display.js';
import {
  DEMO_BISTRO_ID,
  type VezServer,
  axeViolations,
  launchBrowser,
  noonZone,
  phoneContext,
  queryRows,
  saveScreenshot,
  staffCookie,
  startVezServer,
} from './support/index.js';

// Quotes diners can trust (docs/product.md §4): the join page tells the wait before joining, the
// position page shows a range and follows the queue live; the real server, a phone-sized Chromium.
let server: VezServer;
let browser: Browser;

beforeAll(async () => {
  [server, browser] = await Promise.all([startVezServer(), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

interface Range {
  low: number;
  high: number;
}

async function hostApi<T>(method: string, path: string): Promise<T> {
  const response = await fetch(`${server.baseUrl}/api/host/venues/${DEMO_BISTRO_ID}${path}`, {
    method,
    headers: { cookie: await staffCookie(server.baseUrl, DEMO_BISTRO_ID) },
  });
  expect(response.status).toBe(200);
  return (await response.json()) as T;
}

/** Staff seat the party at the head of the queue, as the console's "Sentar" does. */
async function seatHead(): Promise<void> {
  const queue = await hostApi<{ entries: { _id: string; status: string }[] }>('GET', '/entries');
  const head = queue.entries.find((e) => e.status === 'active');
  if (!head) throw new Error('nobody waits');
  await hostApi('POST', `/entries/${head._id}/seat`);
}

async function positionRange(id: string): Promise<Range> {
  const answer = (await (await fetch(`${server.baseUrl}/api/waitlists/${id}/position`)).json()) as { waitlist: { estimatedRange: Range } };
  return answer.waitlist.estimatedRange;
}

// A range wider than 45 minutes reads "more than" its lower end (packages/contract/src/wait-display.ts).
const rangeText = (r: Range) =>
  r.high - r.low > WIDE_RANGE_MINUTES
    ? `Tempo estimado de espera: mais de ${r.low} min`
    : `Tempo estimado de espera: ${r.low} a ${r.high} min`;

describe('the wait, before and after joining', () => {
  let page: Page;

  it('the join page shows the wait now once the venue has a pace, and the position page a range that follows the queue', async () => {
    // The demo venue has parties waiting and has seated no one yet: no pace, no history, so the
    // page shows the parties ahead alone (docs/product.md §4.3a).
    page = await (await phoneContext(browser)).newPage();
    await page.goto(`${server.baseUrl}/remote-waitlist/${DEMO_BISTRO_ID}`);
    await page.getByRole('heading', { name: 'Entrar na fila de Bistrô Demo' }).waitFor();
    const before = (await (await fetch(`${server.baseUrl}/api/waitlists/${DEMO_BISTRO_ID}/waitlist-statuses`)).json()) as {
      currentWait: { partiesAhead: number; estimatedRange?: Range };
    };
    expect(before.currentWait.estimatedRange).toBeUndefined();
    expect(before.currentWait.partiesAhead).toBeGreaterThan(1);
    await page
      .getByTestId('current-wait')
      .filter({ hasText: `${before.currentWait.partiesAhead} grupos na frente agora` })
      .waitFor();

    // Staff seat two parties: the venue now has a pace (docs/decisions/022-wait-estimates.md).
    await seatHead();
    await seatHead();
    const statuses = (await (await fetch(`${server.baseUrl}/api/waitlists/${DEMO_BISTRO_ID}/waitlist-statuses`)).json()) as {
      currentWait: { partiesAhead: number; estimatedRange: Range };
    };
    const { partiesAhead, estimatedRange } = statuses.currentWait;
    expect(partiesAhead).toBeGreaterThan(0);
    await page.reload();
    const wait = page.getByTestId('current-wait');
    const parties = partiesAhead === 1 ? '1 grupo' : `${partiesAhead} grupos`;
    const wide = estimatedRange.high - estimatedRange.low > WIDE_RANGE_MINUTES;
    await wait
      .filter({
        hasText: wide
          ? `Espera agora: mais de ${estimatedRange.low} min, ${parties} na frente`
          : `Espera agora: cerca de ${estimatedRange.low} a ${estimatedRange.high} min, ${parties} na frente`,
      })
      .waitFor();
    await saveScreenshot(page, 'join-pt-wait-now');
    expect(await axeViolations(page)).toEqual([]);

    // Join through the form; the quote given is kept on the entry.
    await page.getByRole('button', { name: /Número de pessoas/ }).click();
    await page.getByRole('option', { name: '2 lugares', exact: true }).click();
    await page.getByLabel('Nome e sobrenome').fill('Lívia Prado');
    await page.getByLabel('Celular').pressSequentially('11987659876');
    const submit = page.getByRole('button', { name: 'Entrar na fila' });
    await expect.poll(() => submit.isEnabled()).toBe(true);
    await submit.click();
    const dialog = page.getByRole('dialog', { name: 'Você entrou na fila' });
    await dialog.waitFor();
    const [row] = queryRows<{ id: string; quoted_minutes: number | null; quoted_low: number; quoted_high: number }>(
      server.dbFile,
      'SELECT id, quoted_minutes, quoted_low, quoted_high FROM entries WHERE phone = ?',
      '+5511987659876',
    );
    expect(row?.quoted_minutes).toBeGreaterThan(0);
    expect(row!.quoted_high).toBeGreaterThan(row!.quoted_low);
    await dialog.getByRole('button', { name: 'Acompanhar' }).click();
    await page.waitForURL(`**/waitlist/${row!.id}`);

    // The position page shows the range the server answers.
    const first = await positionRange(row!.id);
    await page
      .getByTestId('estimated-wait')
      .filter({ hasText: rangeText(first) })
      .waitFor();
    await saveScreenshot(page, 'position-pt-range', { fullPage: true });
    expect(await axeViolations(page)).toEqual([]);

    // Staff seat the next party: one fewer ahead, and the page follows without a reload.
    await seatHead();
    await expect
      .poll(async () => {
        const now = await positionRange(row!.id);
        return (await page.getByTestId('estimated-wait').textContent()) === rangeText(now) ? now : null;
      })
      .not.toBeNull();
    await page.context().close();

    // Staff seat Lívia: the console's Today screen shows her quote against her wait (docs/product.md §4).
    while ((await hostApi<{ entries: { _id: string }[] }>('GET', '/entries')).entries.some((e) => e._id === row!.id)) await seatHead();
    const tablet = await browser.newContext({ viewport: { width: 1024, height: 768 }, locale: 'pt-BR', timezoneId: noonZone() });
    const host = await tablet.newPage();
    await host.goto(`${server.baseUrl}/host`);
    await host.getByLabel('E-mail').fill('host@bistro.example');
    await host.getByLabel('Senha').fill('demo1234');
    await host.getByRole('button', { name: 'Entrar' }).click();
    await host.getByRole('link', { name: 'Hoje' }).click();
    const quotes = host.getByTestId('quote-figures');
    await quotes.waitFor();
    const figures = Object.fromEntries(
      await quotes
        .locator('.host-figure')
        .evaluateAll((els) => els.map((el) => [el.querySelector('dt')?.textContent, el.querySelector('dd')?.textContent])),
    );
    expect(Number(figures['Sentados com estimativa'])).toBeGreaterThanOrEqual(1);
    expect(figures['Sentados dentro da faixa estimada']).toMatch(/^\d+%$/);
    await host.getByTestId('quote-chart').waitFor();
    await saveScreenshot(host, 'host-today-quotes', { fullPage: true });
    expect(await axeViolations(host)).toEqual([]);
    await tablet.close();
  });
});

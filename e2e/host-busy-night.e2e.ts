import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEMO_BISTRO_ID,
  type VezServer,
  axeViolations,
  launchBrowser,
  noonZone,
  saveScreenshot,
  staffCookie,
  startVezServer,
} from './support/index.js';

// The door on a busy night (docs/decisions/032-the-door-on-a-busy-night.md): the console offline,
// one busy card among others, the phone console at 390×844, walk-ins by name, settings that refuse.
let server: VezServer;
let browser: Browser;

interface HostEntry {
  _id: string;
  name: string | null;
  status: string;
  customerTab: string;
}

beforeAll(async () => {
  [server, browser] = await Promise.all([startVezServer(), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const venuePath = () => `${server.baseUrl}/api/host/venues/${DEMO_BISTRO_ID}`;
async function hostFetch(path: string, init: { method?: string; body?: unknown } = {}): Promise<Response> {
  return fetch(`${venuePath()}${path}`, {
    method: init.method ?? 'GET',
    headers: { cookie: await staffCookie(server.baseUrl, DEMO_BISTRO_ID), 'content-type': 'application/json' },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
}
/** The queue as the server has it now (GET …/entries), not as a page shows it. */
const serverQueue = async (): Promise<HostEntry[]> => ((await (await hostFetch('/entries')).json()) as { entries: HostEntry[] }).entries;
const statusOf = async (id: string) => (await serverQueue()).find((e) => e._id === id)?.status ?? 'gone';
async function addWalkIn(name: string, phone?: string): Promise<HostEntry> {
  const response = await hostFetch('/entries', { method: 'POST', body: { customer: { name, ...(phone ? { phone } : {}) }, partySize: 2 } });
  expect(response.status).toBe(201);
  return ((await response.json()) as { entry: HostEntry }).entry;
}
/** Ends a party through the API, so the next journey starts from a plain queue. */
const seat = (id: string) => hostFetch(`/entries/${id}/seat`, { method: 'POST', body: {} });

async function logIn(context: BrowserContext): Promise<Page> {
  const page = await context.newPage();
  await page.goto(`${server.baseUrl}/host`);
  await page.getByLabel('E-mail').fill('host@bistro.example');
  await page.getByLabel('Senha').fill('demo1234');
  await page.getByRole('button', { name: 'Entrar' }).click();
  await page.waitForURL(`**/host/${DEMO_BISTRO_ID}/queue`);
  await page.getByRole('status').filter({ hasText: 'Ao vivo' }).waitFor();
  return page;
}
const cardIn = (page: Page, name: string) => page.getByRole('listitem').filter({ has: page.getByRole('heading', { name, exact: true }) });

describe('the console on a tablet', () => {
  let context: BrowserContext;
  let host: Page;
  beforeAll(async () => {
    context = await browser.newContext({
      viewport: { width: 1024, height: 768 },
      deviceScaleFactor: 1,
      hasTouch: true,
      locale: 'pt-BR',
      timezoneId: noonZone(),
    });
    host = await logIn(context);
  });
  afterAll(async () => context?.close());

  it('says within 2 s that the network is gone; a tap made offline fails at once and never runs later', async () => {
    const phone = '+5511987001234';
    const party = await addWalkIn('Quitéria', phone);
    const smsTo = async () =>
      ((await (await fetch(`${server.baseUrl}/api/dev/outbox`)).json()) as { to: string }[]).filter((m) => m.to === phone).length;
    await expect.poll(smsTo).toBe(1); // the join's
    const card = cardIn(host, 'Quitéria');
    await card.waitFor();
    // The network goes, and the stream with it (a reconnect is refused too).
    await context.route('**/events', (route) => route.abort('internetdisconnected'));
    await context.setOffline(true);
    await host.getByRole('status').filter({ hasText: 'Sem internet' }).first().waitFor({ timeout: 2000 });
    expect(await host.getByText('Ao vivo').count()).toBe(0);
    await host.getByText('a fila pode estar desatualizada').waitFor();

    await card.getByRole('button', { name: 'Chamar' }).click();
    await card.getByRole('alert').filter({ hasText: 'Sem internet: nada foi enviado.' }).waitFor({ timeout: 2000 });
    expect(await card.getByRole('button', { name: 'Chamar' }).isEnabled()).toBe(true);
    expect(await axeViolations(host)).toEqual([]);

    await context.unroute('**/events');
    await context.setOffline(false);
    await host.getByRole('status').filter({ hasText: 'Ao vivo' }).waitFor();
    await host.getByText('Conexão de volta').waitFor();
    // Another tap after the network is back goes through; by then a replayed tap would have run.
    const other = await addWalkIn('Ruy');
    await cardIn(host, 'Ruy').getByRole('button', { name: 'Chamar' }).click();
    await expect.poll(() => statusOf(other._id)).toBe('called');
    await cardIn(host, 'Ruy').getByText('Chamado').first().waitFor();
    expect(await statusOf(party._id)).toBe('active');
    expect(await smsTo()).toBe(1); // no call SMS, now or later
    await Promise.all([seat(party._id), seat(other._id)]);
    await expect.poll(() => cardIn(host, 'Ruy').count()).toBe(0);
  });

  it('keeps a second card usable while the first one waits for the server', async () => {
    const [slow, quick] = [await addWalkIn('Severino'), await addWalkIn('Tainá')];
    await cardIn(host, 'Tainá').waitFor();
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    let reached: () => void = () => undefined;
    const atServer = new Promise<void>((resolve) => (reached = resolve));
    await host.route(`**/entries/${slow._id}/call`, async (route) => {
      reached();
      await held;
      await route.continue();
    });
    await cardIn(host, 'Severino').getByRole('button', { name: 'Chamar' }).click();
    await atServer;
    expect(await cardIn(host, 'Severino').getByRole('button', { name: 'Chamar' }).isDisabled()).toBe(true);
    // The other card answers while the first waits.
    await cardIn(host, 'Tainá').getByRole('button', { name: 'Chamar' }).click();
    await expect.poll(() => statusOf(quick._id)).toBe('called');
    await cardIn(host, 'Tainá').getByText('Chamado').first().waitFor();
    expect(await cardIn(host, 'Severino').getByRole('button', { name: 'Chamar' }).isDisabled()).toBe(true);
    expect(await statusOf(slow._id)).toBe('active');
    release();
    await expect.poll(() => statusOf(slow._id)).toBe('called');
    await cardIn(host, 'Severino').getByText('Chamado').first().waitFor();
    await host.unroute(`**/entries/${slow._id}/call`);
    // Called parties on top, in their own list, on the tablet too.
    const calledList = host.getByRole('list', { name: 'Grupos chamados' });
    expect(await calledList.getByRole('heading').allTextContents()).toEqual(expect.arrayContaining(['Severino', 'Tainá']));
    expect(await axeViolations(host)).toEqual([]);
    await Promise.all([seat(slow._id), seat(quick._id)]);
    await expect.poll(() => calledList.count()).toBe(0);
  });

  it('refuses 999 minutes with its limits next to Save, at the field, and stores nothing', async () => {
    const before = ((await (await hostFetch('/settings')).json()) as { settings: { holdMinutes: number } }).settings.holdMinutes;
    await host.getByRole('link', { name: 'Configurações' }).click();
    const field = host.getByRole('textbox', { name: /^Minutos que a mesa fica reservada/ });
    await field.fill('999');
    await host.getByRole('button', { name: 'Salvar alterações' }).click();
    await host.getByTestId('settings-message').filter({ hasText: 'Nada foi salvo: Use um número inteiro de 0 a 120.' }).waitFor();
    expect(await field.getAttribute('aria-invalid')).toBe('true');
    expect(await field.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await field.inputValue()).toBe('999');
    expect(await axeViolations(host)).toEqual([]);
    await field.fill('');
    await host.getByRole('button', { name: 'Salvar alterações' }).click();
    await host.getByTestId('settings-message').filter({ hasText: 'Preencha este campo' }).waitFor();
    const after = ((await (await hostFetch('/settings')).json()) as { settings: { holdMinutes: number } }).settings.holdMinutes;
    expect(after).toBe(before);
    await host.getByRole('link', { name: 'Fila' }).click();
  });
});

describe('the console on a phone (390×844)', () => {
  let context: BrowserContext;
  let host: Page;
  beforeAll(async () => {
    context = await browser.newContext({
      viewport: { width: 390, height: 844 },
      deviceScaleFactor: 1,
      isMobile: true,
      hasTouch: true,
      locale: 'pt-BR',
      timezoneId: noonZone(),
    });
    // A busy night: more parties than the screen holds.
    for (const name of ['Bento', 'Cecília', 'Dora', 'Elias']) await addWalkIn(name);
    host = await logIn(context);
  });
  afterAll(async () => context?.close());

  /** Cards whose whole box is inside the viewport, without scrolling. */
  const cardsInView = () =>
    host.evaluate(() => {
      const height = window.innerHeight;
      return Array.from(document.querySelectorAll('li.host-entry')).filter((li) => {
        const box = li.getBoundingClientRect();
        return box.top >= 0 && box.bottom <= height && box.height > 0;
      }).length;
    });

  it('shows at least 3 parties without scrolling, and every tab is visible or visibly scrollable', async () => {
    expect(await host.evaluate(() => window.scrollY)).toBe(0);
    expect(await cardsInView()).toBeGreaterThanOrEqual(3);
    const nav = host.getByRole('navigation', { name: 'Telas do painel' });
    const scrolls = await nav.evaluate((el) => el.scrollWidth > el.clientWidth && getComputedStyle(el).overflowX === 'auto');
    for (const tab of await nav.getByRole('link').all()) {
      const box = await tab.boundingBox();
      const fullyVisible = box !== null && box.x >= 0 && box.x + box.width <= 390;
      // A tab past the edge: the strip scrolls (its edge fades), and the tab scrolls into view.
      if (!fullyVisible) {
        expect(scrolls).toBe(true);
        await tab.scrollIntoViewIfNeeded();
        const shown = await tab.boundingBox();
        expect(shown && shown.x >= 0 && shown.x + shown.width <= 390).toBe(true);
      }
    }
    await nav.evaluate((el) => el.scrollTo({ left: 0 }));
    expect(await axeViolations(host)).toEqual([]);
  });

  it('puts the other actions in a menu a keyboard reaches: Escape closes it and the focus returns', async () => {
    const card = cardIn(host, 'Marina Albuquerque');
    expect(await card.getByRole('button').allTextContents()).toEqual(['Chamar', 'Mais ▾']);
    const more = card.getByRole('button', { name: 'Mais ações para Marina Albuquerque' });
    await more.focus();
    await host.keyboard.press('Enter');
    expect(await more.getAttribute('aria-expanded')).toBe('true');
    const items = await card.getByRole('button').allTextContents();
    expect(items).toEqual(expect.arrayContaining(['Sentar', 'Não veio', 'Remover', 'Prioridade', 'Editar', 'Mensagens']));
    expect(await host.evaluate(() => document.activeElement?.textContent)).toBe('Sentar');
    await host.keyboard.press('Tab');
    expect(await host.evaluate(() => document.activeElement?.textContent)).toBe('Não veio');
    expect(await axeViolations(host)).toEqual([]);
    await host.keyboard.press('Escape');
    expect(await more.getAttribute('aria-expanded')).toBe('false');
    expect(await more.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await card.getByRole('button', { name: 'Não veio' }).count()).toBe(0);
  });

  for (const lang of ['pt', 'en'] as const) {
    const text =
      lang === 'pt'
        ? { call: 'Chamar', seat: 'Sentar', called: 'Chamado: 1 grupo', add: 'Adicionar grupo', dialog: 'Novo grupo na recepção' }
        : { call: 'Call', seat: 'Seat', called: 'Called: 1 party', add: 'Add party', dialog: 'New party at the door' };
    const submit = lang === 'pt' ? 'Adicionar à fila' : 'Add to the queue';
    const nameLabel = lang === 'pt' ? 'Nome' : 'Name';
    const ticket = lang === 'pt' ? 'Senha' : 'Ticket';

    it(`(${lang}) shows the queue, a called party on top with its countdown, and a name-only walk-in with its ticket`, async () => {
      if (lang === 'en') {
        await host.getByRole('button', { name: 'English' }).click();
        await host.getByRole('status').filter({ hasText: 'Live' }).waitFor();
      }
      await host.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
      await saveScreenshot(host, `host-phone-queue-${lang}`);
      expect(await cardsInView()).toBeGreaterThanOrEqual(3);

      // The last party waiting is called: it moves on top, in its own list, with its hold countdown.
      const waitingNames = await host
        .getByRole('list', { name: /em ordem|in order/ })
        .getByRole('heading')
        .allTextContents();
      const name = waitingNames.at(-1) ?? '';
      await cardIn(host, name).getByRole('button', { name: text.call, exact: true }).click();
      const calledList = host.getByRole('list', { name: lang === 'pt' ? 'Grupos chamados' : 'Called parties' });
      await calledList.getByRole('heading', { name, exact: true }).waitFor();
      await host.getByRole('heading', { name: text.called }).waitFor();
      const firstCard = host.locator('li.host-entry').first();
      expect(await firstCard.getByRole('heading').textContent()).toBe(name);
      await firstCard
        .getByText(lang === 'pt' ? 'Mesa reservada' : 'Table held')
        .first()
        .waitFor();
      expect(await firstCard.getByRole('button', { name: text.seat, exact: true }).count()).toBe(1);
      // The tap scrolled down to the last card; the called party waits on top.
      await host.evaluate(() => window.scrollTo(0, 0));
      await host.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
      await saveScreenshot(host, `host-phone-called-${lang}`);
      expect(await cardsInView()).toBeGreaterThanOrEqual(3);
      expect(await axeViolations(host)).toEqual([]);

      // A walk-in with a name only: one word, no phone.
      const walkIn = lang === 'pt' ? 'Zuleica' : 'Zed';
      await host.getByRole('button', { name: text.add }).click();
      const dialog = host.getByRole('dialog', { name: text.dialog });
      await dialog.getByLabel(nameLabel, { exact: true }).fill(walkIn);
      expect(await axeViolations(host)).toEqual([]);
      await dialog.getByRole('button', { name: submit }).click();
      const card = cardIn(host, walkIn);
      await card.getByTestId('entry-ticket').waitFor();
      const stored = (await serverQueue()).find((e) => e.name === walkIn);
      expect(stored).toBeDefined();
      expect(await card.getByTestId('entry-ticket').textContent()).toBe(`${ticket} ${stored?.customerTab}`);
      await card.scrollIntoViewIfNeeded();
      await saveScreenshot(host, `host-phone-walk-in-${lang}`);
      expect(await axeViolations(host)).toEqual([]);

      // Back to a queue with nobody called, for the next language.
      const called = (await serverQueue()).filter((e) => e.status === 'called' || e.name === walkIn);
      await Promise.all(called.map((e) => seat(e._id)));
      await expect.poll(() => calledList.count()).toBe(0);
      await host.evaluate(() => window.scrollTo(0, 0));
    });
  }

  it('settings on the phone mark the field at fault, and stay axe-clean', async () => {
    await host.getByRole('link', { name: 'Settings' }).click();
    const field = host.getByRole('textbox', { name: /^Send "almost your turn" at this many places/ });
    await field.fill('51');
    await host.getByRole('button', { name: /^Save/ }).click();
    await host.getByTestId('settings-message').filter({ hasText: 'Use a whole number from 0 to 50.' }).waitFor();
    expect(await field.getAttribute('aria-invalid')).toBe('true');
    expect(await field.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await axeViolations(host)).toEqual([]);
  });
});

import { createECDH, randomBytes } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBody } from '../apps/server/test/fixtures.js';
import {
  DEMO_BISTRO_ID,
  type VezServer,
  axeViolations,
  launchBrowser,
  phoneContext,
  queryRows,
  saveScreenshot,
  startVezServer,
  updateRows,
} from './support/index.js';

// The conversation between a party and the door (docs/product.md §7): a diner's phone and the host
// console on a tablet, against the real server and its streams; the SMS reply comes in as Twilio's
// webhook would post it (the demo takes it unsigned, outside production).
let server: VezServer;
let browser: Browser;
let host: Page;

beforeAll(async () => {
  [server, browser] = await Promise.all([startVezServer(), launchBrowser()]);
  const tablet = await browser.newContext({ viewport: { width: 1024, height: 768 }, hasTouch: true, locale: 'pt-BR' });
  host = await tablet.newPage();
  await host.goto(`${server.baseUrl}/host`);
  await host.getByLabel('E-mail').fill('host@bistro.example');
  await host.getByLabel('Senha').fill('demo1234');
  await host.getByRole('button', { name: 'Entrar' }).click();
  await host.getByRole('status').filter({ hasText: 'Ao vivo' }).waitFor();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** A diner joins the demo bistro through the public API (the server's own test body); answers the entry id. */
async function joinByApi(name: string, phone: string): Promise<string> {
  const response = await fetch(`${server.baseUrl}/api/waitlists/${DEMO_BISTRO_ID}/create`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(createBody({ customer: { name, phone, email: '' } })),
  });
  expect(response.status).toBe(201);
  return ((await response.json()) as { _id: string })._id;
}

let phoneSeq = 0;
/** A diner joins through the public API and opens the position page on a phone. */
async function dinerOnPhone(name: string): Promise<{ page: Page; id: string; phone: string }> {
  phoneSeq += 1;
  const phone = `+5511966${String(600000 + phoneSeq)}`;
  const id = await joinByApi(name, phone);
  const page = await (await phoneContext(browser)).newPage();
  await page.goto(`${server.baseUrl}/waitlist/${id}`);
  await page.getByRole('heading', { name: 'Fale com o restaurante' }).waitFor();
  return { page, id, phone };
}

const card = (name: string) => host.getByRole('listitem').filter({ has: host.getByRole('heading', { name, exact: true }) });
const alertCount = async () => Number(await host.locator('#host-alert-sound').getAttribute('data-alert-count'));
/** The sounds asked for this party (its join included): other parties' events never count here. */
const alertsFor = async (id: string) =>
  ((await host.locator('#host-alert-sound').getAttribute('data-alerted')) ?? '').split(' ').filter((x) => x === id).length;

describe('the conversation', () => {
  it('a called diner answers "on my way" and the console shows it within 2 s, with the alert sound', async () => {
    const diner = await dinerOnPhone('Helena Duarte');
    await card('Helena Duarte').waitFor();
    await card('Helena Duarte').getByRole('button', { name: 'Chamar' }).click();
    await diner.page.getByRole('heading', { name: 'Chegou a sua vez!' }).waitFor();
    const before = await alertsFor(diner.id);
    await diner.page.getByRole('button', { name: 'Estou a caminho' }).click();
    // The answer reaches the console by its live stream, without a reload, within 2 s (docs/product.md §7).
    await card('Helena Duarte').getByTestId('entry-reply').filter({ hasText: 'A caminho' }).waitFor({ timeout: 2000 });
    await expect.poll(() => alertsFor(diner.id)).toBe(before + 1);
    await expect.poll(() => card('Helena Duarte').getAttribute('data-alert')).toBe('true');
    await diner.page.getByText('O restaurante já sabe que você está a caminho.').waitFor();
    await saveScreenshot(host, 'host-conversation');
    await saveScreenshot(diner.page, 'position-pt-answered', { fullPage: true });
    expect(JSON.stringify(await axeViolations(diner.page))).toBe('[]');
  });

  it("the host writes from the card's thread and the diner's page shows it", async () => {
    const diner = await dinerOnPhone('Otávio Ramos');
    await card('Otávio Ramos').getByRole('button', { name: 'Mensagens' }).click();
    const dialog = host.getByRole('dialog', { name: 'Conversa com Otávio Ramos' });
    await dialog.getByLabel(/Mensagem para o cliente/).fill('Sua mesa fica pronta em 5 minutos.');
    await dialog.getByText('34/480 caracteres').waitFor();
    await dialog.getByRole('button', { name: 'Enviar' }).click();
    await dialog.getByText('Sua mesa fica pronta em 5 minutos.').waitFor();
    const region = diner.page.getByTestId('venue-messages');
    await region.getByText('Sua mesa fica pronta em 5 minutos.').waitFor({ timeout: 5000 });
    expect(await region.getAttribute('aria-live')).toBe('polite');
    expect(await axeViolations(host)).toEqual([]);
    await saveScreenshot(host, 'host-thread');
    await saveScreenshot(diner.page, 'position-pt-message', { fullPage: true });
    await dialog.getByRole('button', { name: 'Fechar' }).click();
    // The delivery of that message shows on the card.
    await card('Otávio Ramos').getByTestId('entry-delivery').filter({ hasText: 'enviado' }).waitFor();
  });

  it('an SMS reply "9" takes the party off the list, and both screens change', async () => {
    const diner = await dinerOnPhone('Sílvia Castro');
    await card('Sílvia Castro').waitFor();
    const before = await alertsFor(diner.id);
    const response = await fetch(`${server.baseUrl}/api/sms/inbound`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ From: diner.phone, To: '+15005550006', Body: '9', MessageSid: 'SMe2e' }),
    });
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('Voce saiu da fila de Bistro Demo.');
    await diner.page.getByRole('heading', { name: 'Você não está mais na fila.' }).waitFor({ timeout: 5000 });
    await card('Sílvia Castro').waitFor({ state: 'detached', timeout: 5000 });
    // The reply and the leave it makes: one sound, or two when they reach the console apart.
    await expect.poll(() => alertsFor(diner.id)).toBeGreaterThan(before);
  });

  it('a message by SMS shows as unread on the card and in the tab title until the thread is opened', async () => {
    const diner = await dinerOnPhone('Caio Fernandes');
    await card('Caio Fernandes').waitFor();
    await fetch(`${server.baseUrl}/api/sms/inbound`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ From: diner.phone, Body: 'Estou estacionando, já chego' }),
    });
    await card('Caio Fernandes').getByText('1 nova', { exact: true }).waitFor();
    await expect.poll(() => host.title()).toMatch(/^\(1\) /);
    await card('Caio Fernandes').getByRole('button', { name: 'Mensagens (1 nova)' }).click();
    const dialog = host.getByRole('dialog', { name: 'Conversa com Caio Fernandes' });
    await dialog.getByText('Estou estacionando, já chego').waitFor();
    await expect.poll(() => host.title()).not.toMatch(/^\(/);
    await dialog.getByRole('button', { name: 'Fechar' }).click();
    // The mute switch: kept on this device, and no sound is asked for while it is on.
    await host.getByRole('button', { name: 'Som ligado' }).click();
    await host.getByRole('button', { name: 'Som desligado' }).waitFor();
    expect(await host.evaluate(() => localStorage.getItem('vez.host.muted'))).toBe('1');
    const muted = await alertCount();
    await fetch(`${server.baseUrl}/api/waitlists/${diner.id}/${DEMO_BISTRO_ID}/reply`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ reply: 'arrived' }),
    });
    await card('Caio Fernandes').getByTestId('entry-reply').filter({ hasText: 'Chegou' }).waitFor();
    expect(await alertCount()).toBe(muted);
    await host.getByRole('button', { name: 'Som desligado' }).click();
    await host.getByRole('button', { name: 'Som ligado' }).waitFor();
  });

  it('works on a phone, in English: the answer on the card and the thread, axe clean', async () => {
    const phone = await (await phoneContext(browser, { locale: 'en-US' })).newPage();
    await phone.goto(`${server.baseUrl}/host?lng=en`);
    await phone.getByLabel('Email').fill('host@bistro.example');
    await phone.getByLabel('Password').fill('demo1234');
    await phone.getByRole('button', { name: 'Log in' }).click();
    const helena = phone.getByRole('listitem').filter({ has: phone.getByRole('heading', { name: 'Helena Duarte', exact: true }) });
    await helena.getByTestId('entry-reply').filter({ hasText: 'On the way' }).waitFor();
    expect(await axeViolations(phone)).toEqual([]);
    // On a phone the card's other actions are in its menu (docs/decisions/032-the-door-on-a-busy-night.md).
    await helena.getByRole('button', { name: 'More actions for Helena Duarte' }).click();
    await helena.getByRole('button', { name: 'Messages' }).click();
    const dialog = phone.getByRole('dialog', { name: 'Conversation with Helena Duarte' });
    await dialog.getByText('No messages yet.').waitFor();
    expect(await axeViolations(phone)).toEqual([]);
    await saveScreenshot(phone, 'host-thread-phone-en');
  });
});

describe('calls that end well', () => {
  it('the called panel and the card count the hold window down; the card turns late when it runs out', async () => {
    const diner = await dinerOnPhone('Tereza Moura');
    await card('Tereza Moura').getByRole('button', { name: 'Chamar' }).click();
    const timer = diner.page.getByTestId('hold-timer');
    await timer.getByText(/^Sua mesa fica reservada por 0?9:\d\d$/).waitFor();
    const first = await timer.locator('p').first().textContent();
    await expect.poll(() => timer.locator('p').first().textContent(), { timeout: 3000 }).not.toBe(first);
    // Screen readers hear the minutes, not every second.
    expect(await timer.locator('[aria-live]').textContent()).toMatch(/^Sua mesa fica reservada por mais 1?\d minutos?$/);
    await card('Tereza Moura')
      .getByTestId('hold-countdown')
      .getByText(/^Mesa reservada: 0?9:\d\d$/)
      .waitFor();
    await saveScreenshot(diner.page, 'position-pt-called-hold', { fullPage: true });
    expect(await axeViolations(diner.page)).toEqual([]);

    // The window nearly over (the store changed directly), then any change of the party refreshes both screens.
    updateRows(server.dbFile, 'UPDATE entries SET hold_until = ? WHERE id = ?', Date.now() + 3000, diner.id);
    await diner.page.getByRole('button', { name: 'Estou a caminho' }).click();
    await card('Tereza Moura').getByTestId('hold-countdown').getByText('Atrasado').waitFor({ timeout: 8000 });
    await expect.poll(() => card('Tereza Moura').getAttribute('class')).toContain('host-entry--late');
    await timer.getByText('O tempo de reserva acabou: fale com a recepção.').first().waitFor();
    // Called parties sit on top of the queue (docs/decisions/032-the-door-on-a-busy-night.md).
    await card('Tereza Moura').scrollIntoViewIfNeeded();
    await saveScreenshot(host, 'host-card-late');

    // Calling again starts a new window and counts the calls.
    await card('Tereza Moura').getByRole('button', { name: 'Chamar de novo' }).click();
    await card('Tereza Moura').getByText('2 chamadas').waitFor();
    await timer.getByText('O restaurante chamou você de novo (2ª chamada).').waitFor();
    await card('Tereza Moura')
      .getByTestId('hold-countdown')
      .getByText(/^Mesa reservada: 0?9:\d\d$/)
      .waitFor();
    await expect.poll(() => card('Tereza Moura').getAttribute('class')).not.toContain('host-entry--late');
  });

  it('a text edited in the console, with its preview and segment count, is what the next SMS says', async () => {
    await host.getByRole('link', { name: 'Configurações' }).click();
    await host.getByRole('heading', { name: 'Configurações' }).waitFor();
    const messages = host.getByRole('group', { name: 'Mensagens aos clientes' });
    await messages.getByRole('combobox').first().selectOption('join');
    const text = messages.getByRole('textbox');
    expect(await text.inputValue()).toContain('{link}');
    await text.fill('{venue}: oi {name}! Vc esta na fila. Veja sua vez em {link}');
    await messages
      .getByTestId('message-preview')
      .getByText(/^Bistro Demo: oi Ana! Vc esta na fila\. Veja sua vez em http/)
      .waitFor();
    // "SMS sem acentos" is on by default: "Bistrô" goes as "Bistro", and the text fits one GSM-7 SMS.
    await messages
      .getByTestId('message-segments')
      .getByText(/^1 SMS · GSM-7 · \d+\/160 caracteres/)
      .waitFor();
    await text.fill('{venue}: oi {name}! Vc esta na fila.');
    await messages
      .getByRole('alert')
      .getByText(/precisa manter \{link\}/)
      .waitFor();
    await text.fill('{venue}: oi {name}! Vc esta na fila. {link}');
    expect(await axeViolations(host)).toEqual([]);
    await saveScreenshot(host, 'host-message-editor');
    await host.getByRole('button', { name: 'Salvar alterações' }).click();
    await host.getByText('Alterações salvas. As páginas dos clientes já mostram.').waitFor();

    const id = await joinByApi('Lívia Prates', '+5511966700001');
    const outbox = (await (await fetch(`${server.baseUrl}/api/dev/outbox`)).json()) as { to: string; body: string }[];
    expect(outbox.find((m) => m.to === '+5511966700001')?.body).toBe(
      `Bistro Demo: oi Livia! Vc esta na fila. ${server.baseUrl}/waitlist/${id}`,
    );
  });

  it('after joining, "Avisar neste celular" asks, registers the service worker and stores a subscription', async () => {
    const context = await phoneContext(browser);
    await context.grantPermissions(['notifications'], { origin: server.baseUrl });
    // Chromium subscribes through its own push service on the internet, which tests do not reach:
    // here subscribe() answers a subscription as a push service would give one (real P-256 key and
    // auth secret). Delivery to a push service is tested in apps/server (push.test.ts).
    const ecdh = createECDH('prime256v1');
    ecdh.generateKeys();
    const fake = {
      endpoint: 'http://127.0.0.1:9/push/e2e',
      keys: { p256dh: ecdh.getPublicKey('base64url'), auth: randomBytes(16).toString('base64url') },
    };
    await context.addInitScript((subscription) => {
      PushManager.prototype.subscribe = async () =>
        ({ toJSON: () => ({ ...subscription, expirationTime: null }) }) as unknown as PushSubscription;
      PushManager.prototype.getSubscription = async () => null;
    }, fake);
    const page = await context.newPage();
    const id = await joinByApi('Paulo Reis', '+5511966800001');
    await page.goto(`${server.baseUrl}/waitlist/${id}`);
    await page.getByRole('button', { name: 'Avisar neste celular' }).click();
    await page.getByText('Este celular será avisado quando chegar a sua vez.').waitFor();
    await expect
      .poll(() => page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.active?.scriptURL))
      .toBe(`${server.baseUrl}/sw.js`);
    expect(queryRows(server.dbFile, 'SELECT endpoint FROM push_subscriptions WHERE entry_id = ?', id)).toEqual([
      { endpoint: fake.endpoint },
    ]);
    await saveScreenshot(page, 'position-pt-notify', { fullPage: true });
  });
});

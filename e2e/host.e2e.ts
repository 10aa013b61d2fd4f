import type { Browser, BrowserContext, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEMO_BISTRO_ID,
  type VezServer,
  axeViolations,
  launchBrowser,
  noonZone,
  phoneContext,
  queryRows,
  saveScreenshot,
  startVezServer,
} from './support/index.js';

// The host console at the door: a tablet (1024×768) next to diners' phones, against the real server.
let server: VezServer;
let browser: Browser;
let host: Page;

const tablet = (b: Browser): Promise<BrowserContext> =>
  b.newContext({ viewport: { width: 1024, height: 768 }, deviceScaleFactor: 1, hasTouch: true, locale: 'pt-BR', timezoneId: noonZone() });
const card = (name: string) => host.getByRole('listitem').filter({ has: host.getByRole('heading', { name, exact: true }) });
const api = async <T>(path: string): Promise<T> => (await fetch(`${server.baseUrl}/api${path}`)).json() as Promise<T>;

beforeAll(async () => {
  [server, browser] = await Promise.all([startVezServer(), launchBrowser()]);
  host = await (await tablet(browser)).newPage();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** A diner joins the Bistro from their own phone, through the join page; answers the entry id. */
async function dinerJoins(name: string, phone: string): Promise<{ page: Page; id: string }> {
  const page = await (await phoneContext(browser)).newPage();
  await page.goto(`${server.baseUrl}/remote-waitlist/${DEMO_BISTRO_ID}`);
  await page.getByRole('button', { name: /Número de pessoas/ }).click();
  await page.getByRole('option', { name: '2 lugares', exact: true }).click();
  await page.getByLabel('Nome e sobrenome').fill(name);
  await page.getByLabel('Celular').pressSequentially(phone);
  const submit = page.getByRole('button', { name: 'Entrar na fila' });
  await expect.poll(() => submit.isEnabled()).toBe(true);
  await submit.click();
  await page.getByRole('dialog', { name: 'Você entrou na fila' }).getByRole('button', { name: 'Acompanhar' }).click();
  await page.waitForURL('**/waitlist/*');
  return { page, id: page.url().split('/waitlist/')[1]?.split('?')[0] ?? '' };
}

describe('host console', () => {
  it('logs in and shows the live queue in order', async () => {
    await host.goto(`${server.baseUrl}/host`);
    await host.getByRole('heading', { name: 'Entrar no painel' }).waitFor();
    expect(await axeViolations(host)).toEqual([]);
    await host.getByLabel('E-mail').fill('host@bistro.example');
    await host.getByLabel('Senha').fill('errada');
    await host.getByRole('button', { name: 'Entrar' }).click();
    await host.getByText('E-mail ou senha incorretos.').waitFor();
    await saveScreenshot(host, 'host-login');
    await host.getByLabel('Senha').fill('demo1234');
    await host.getByRole('button', { name: 'Entrar' }).click();
    await host.waitForURL(`**/host/${DEMO_BISTRO_ID}/queue`);
    await host.getByRole('status').filter({ hasText: 'Ao vivo' }).waitFor();
    const names = await host.getByRole('list', { name: 'Grupos na fila, em ordem' }).getByRole('heading').allTextContents();
    expect(names).toEqual(['Marina Albuquerque', 'Rafael Nogueira', 'Carla Menezes']);
    expect(await axeViolations(host)).toEqual([]);
  });

  it('shows a diner who joins from a phone at once, calls, seats with undo, and removes', async () => {
    const diner = await dinerJoins('Beatriz Lima', '11987651234');
    await card('Beatriz Lima').getByText('Remoto').waitFor(); // live, no reload
    await card('Beatriz Lima')
      .getByText('4º na fila', { exact: false })
      .or(card('Beatriz Lima').getByLabel('4º na fila'))
      .first()
      .waitFor();
    await saveScreenshot(host, 'host-queue');

    await card('Beatriz Lima').getByRole('button', { name: 'Chamar' }).click();
    await card('Beatriz Lima').getByText('Chamado').first().waitFor();
    const position = await api<{ waitlist: { status: string } }>(`/waitlists/${diner.id}/position`);
    expect(position.waitlist.status).toBe('called');
    const outbox = await api<{ to: string; body: string }[]>('/dev/outbox');
    expect(outbox.some((m) => m.to === '+5511987651234' && m.body.length > 0)).toBe(true);
    // The diner's position page turns to the called panel by itself (its own stream).
    await diner.page.getByText('Chegou a sua vez!').waitFor();
    await saveScreenshot(diner.page, 'host-diner-called');
    await diner.page.context().close();

    await card('Beatriz Lima').getByRole('button', { name: 'Sentar' }).click();
    const toast = host.getByRole('status').filter({ hasText: 'Beatriz Lima sentou.' });
    await toast.waitFor();
    await expect.poll(() => card('Beatriz Lima').count()).toBe(0);
    await saveScreenshot(host, 'host-undo');
    await toast.getByRole('button', { name: 'Desfazer' }).click();
    await card('Beatriz Lima').waitFor();
    expect((await api<{ waitlist: { status: string } }>(`/waitlists/${diner.id}/position`)).waitlist.status).toBe('called');
    await card('Beatriz Lima').getByRole('button', { name: 'Sentar' }).click();
    await expect.poll(() => card('Beatriz Lima').count()).toBe(0);

    await card('Carla Menezes').getByRole('button', { name: 'Remover' }).click();
    await expect.poll(() => card('Carla Menezes').count()).toBe(0);
    const [carla] = queryRows<{ status: string; cancel_reason: string }>(
      server.dbFile,
      'SELECT status, cancel_reason FROM entries WHERE name = ?',
      'Carla Menezes',
    );
    expect(carla).toEqual({ status: 'cancelled', cancel_reason: 'Host' });
    const [beatriz] = queryRows<{ status: string }>(server.dbFile, 'SELECT status FROM entries WHERE id = ?', diner.id);
    expect(beatriz?.status).toBe('seated');
  });

  it('adds a walk-in, marks priority and edits the party', async () => {
    await host.getByRole('button', { name: 'Adicionar grupo' }).click();
    const dialog = host.getByRole('dialog', { name: 'Novo grupo na recepção' });
    // A name is all a walk-in needs (docs/decisions/032): a blank one is refused at its field.
    await dialog.getByLabel('Nome').fill(' ');
    await dialog.getByLabel('Celular').fill('11 98888-7777');
    await dialog.getByRole('button', { name: 'Adicionar à fila' }).click();
    await dialog.getByRole('alert').filter({ hasText: 'Informe um nome.' }).waitFor();
    await dialog.getByLabel('Nome').fill('Otávio Prado');
    await dialog.getByLabel('Número de pessoas').fill('5');
    await dialog.getByLabel('Observações').fill('cadeirinha');
    expect(await axeViolations(host)).toEqual([]);
    await saveScreenshot(host, 'host-walk-in');
    await dialog.getByRole('button', { name: 'Adicionar à fila' }).click();
    await card('Otávio Prado').getByText('Recepção').waitFor();
    await card('Otávio Prado').getByText('cadeirinha').waitFor();
    await card('Otávio Prado').getByRole('button', { name: 'Prioridade' }).click();
    await expect.poll(() => card('Otávio Prado').getByRole('button', { name: 'Prioridade' }).getAttribute('aria-pressed')).toBe('true');
    const first = await host.getByRole('list', { name: 'Grupos na fila, em ordem' }).getByRole('heading').first().textContent();
    expect(first).toBe('Otávio Prado');
    await card('Otávio Prado').getByRole('button', { name: 'Editar' }).click();
    const edit = host.getByRole('dialog', { name: 'Editar Otávio Prado' });
    await edit.getByLabel('Número de pessoas').fill('6');
    await edit.getByRole('button', { name: 'Salvar' }).click();
    await card('Otávio Prado').getByText('6 pessoas').first().waitFor();
    await card('Otávio Prado').getByRole('button', { name: 'Não veio' }).click();
    await expect.poll(() => card('Otávio Prado').count()).toBe(0);
  });

  it('locks the waitlist and the diner join page says it is closed; reopens', async () => {
    await host.getByRole('radio', { name: 'Travada' }).check();
    await host.getByText('Só a recepção adiciona grupos', { exact: false }).waitFor();
    await expect
      .poll(async () => (await api<{ waitlist: { locked: boolean } }>(`/waitlists/${DEMO_BISTRO_ID}/waitlist-statuses`)).waitlist.locked)
      .toBe(true);
    const diner = await (await phoneContext(browser)).newPage();
    await diner.goto(`${server.baseUrl}/remote-waitlist/${DEMO_BISTRO_ID}`);
    await diner.getByRole('dialog', { name: 'A fila remota está fechada.' }).waitFor();
    await saveScreenshot(host, 'host-locked');
    await host.getByRole('radio', { name: 'Aberta' }).check();
    await expect
      .poll(async () => (await api<{ waitlist: { locked: boolean } }>(`/waitlists/${DEMO_BISTRO_ID}/waitlist-statuses`)).waitlist.locked)
      .toBe(false);
    await diner.context().close();
  });

  it('changes the branding with an uploaded logo served as webp; the diner page shows it', async () => {
    await host.getByRole('link', { name: 'Configurações' }).click();
    await host.getByRole('heading', { name: 'Configurações' }).waitFor();
    await host.getByLabel('Nome em português').fill('Bistrô da Praça');
    await host.getByLabel('Cor principal').fill('#0f766e');
    await expect
      .poll(() =>
        host
          .getByTestId('brand-preview')
          .evaluate((el) => getComputedStyle(el.querySelector('.host-preview__button') as Element).backgroundColor),
      )
      .toBe('rgb(15, 118, 110)');
    const png = await sharp({ create: { width: 240, height: 80, channels: 3, background: '#0f766e' } })
      .png()
      .toBuffer();
    const logoField = host.locator('.host-image').filter({ has: host.getByText('Logotipo horizontal', { exact: true }) });
    await logoField.locator('input[type=file]').setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: png });
    const preview = host.getByRole('img', { name: 'Prévia: Logotipo horizontal', exact: true });
    await expect.poll(async () => (await preview.getAttribute('src')) ?? '').toMatch(/^\/images\/uploads\/.+\?quality=70&format=webp$/);
    // A file that is not an image is refused with a clear message, and the logo stays.
    await logoField
      .locator('input[type=file]')
      .setInputFiles({ name: 'menu.png', mimeType: 'image/png', buffer: Buffer.from('not an image at all') });
    await logoField.getByRole('alert').filter({ hasText: 'Imagem recusada.' }).waitFor();
    const src = (await preview.getAttribute('src')) ?? '';
    const served = await fetch(`${server.baseUrl}${src}`);
    expect(served.headers.get('content-type')).toBe('image/webp');
    expect((await sharp(Buffer.from(await served.arrayBuffer())).metadata()).format).toBe('webp');
    await saveScreenshot(host, 'host-settings');
    expect(await axeViolations(host)).toEqual([]);
    await host.getByRole('button', { name: 'Salvar alterações' }).click();
    await host.getByText('Alterações salvas.', { exact: false }).waitFor();

    const diner = await (await phoneContext(browser)).newPage();
    await diner.goto(`${server.baseUrl}/remote-waitlist/${DEMO_BISTRO_ID}`);
    await diner.getByRole('heading', { name: 'Entrar na fila de Bistrô da Praça' }).waitFor();
    expect(await diner.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue('--vez-main').trim())).toBe('#0f766e');
    const logo = diner.getByRole('img', { name: 'Logotipo de Bistrô da Praça' });
    await expect
      .poll(() => logo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0 && img.currentSrc))
      .toContain('/images/uploads/');
    await saveScreenshot(diner, 'host-branding-on-diner-page');
    await diner.context().close();
  });

  it('sets the cap of waiting parties and the SMS countries; an unknown country code is refused (docs/product.md §3)', async () => {
    const save = host.getByRole('button', { name: 'Salvar alterações' });
    await host.getByLabel('Países para SMS').fill('BR, XX');
    await save.click();
    await host.getByRole('alert').filter({ hasText: 'Código de país desconhecido' }).waitFor();
    await host.getByLabel('Países para SMS').fill('br pt');
    await host.getByLabel('Máximo de grupos esperando').fill('150');
    await save.click();
    await host.getByText('Alterações salvas.', { exact: false }).waitFor();
    expect(await host.getByLabel('Países para SMS').inputValue()).toBe('BR, PT');
    const venue = await api<{ settings: { smsCountries: string[]; maxWaitingParties: number | null } }>(`/venues/${DEMO_BISTRO_ID}`);
    expect(venue.settings).toMatchObject({ smsCountries: ['BR', 'PT'], maxWaitingParties: 150 });
  });

  it("lists the venue's tables for the wait estimate; a size given twice is refused (docs/product.md §2, §4.3c)", async () => {
    const save = host.getByRole('button', { name: 'Salvar alterações' });
    const tables = host.getByRole('group', { name: 'Mesas' });
    const rows: [string, string][] = [
      ['2', '9'],
      ['4', '8'],
      ['4', '3'],
    ];
    for (const [index, [seats, count]] of rows.entries()) {
      await tables.getByRole('button', { name: 'Adicionar tamanho de mesa' }).click();
      await host.getByLabel(`Lugares da linha ${index + 1}`, { exact: true }).fill(seats);
      await host.getByLabel(`Quantidade de mesas da linha ${index + 1}`, { exact: true }).fill(count);
    }
    await save.click();
    await host.getByRole('alert').filter({ hasText: 'cada tamanho de mesa uma vez só' }).waitFor();
    await host.getByLabel('Lugares da linha 3', { exact: true }).fill('6');
    await save.click();
    await host.getByText('Alterações salvas.', { exact: false }).waitFor();
    const venue = await api<{ settings: { tables: { seats: number; count: number }[] } }>(`/venues/${DEMO_BISTRO_ID}`);
    expect(venue.settings.tables).toEqual([
      { seats: 2, count: 9 },
      { seats: 4, count: 8 },
      { seats: 6, count: 3 },
    ]);
    await tables.scrollIntoViewIfNeeded();
    await saveScreenshot(host, 'host-settings-tables');
    expect(await axeViolations(host)).toEqual([]);
    // Back to none: the figures below are the estimator's (docs/decisions/022-wait-estimates.md).
    for (let i = 3; i >= 1; i--) await host.getByRole('button', { name: `Remover a linha ${i}`, exact: true }).click();
    await save.click();
    await expect
      .poll(async () => (await api<{ settings: { tables: unknown[] } }>(`/venues/${DEMO_BISTRO_ID}`)).settings.tables)
      .toEqual([]);
  });

  it("shows today's figures with a chart and a printable QR poster", async () => {
    await host.getByRole('link', { name: 'Hoje' }).click();
    const seated = host.getByRole('definition').filter({ hasText: /^\d+$/ });
    await seated.first().waitFor();
    const figures = Object.fromEntries(
      await host
        .locator('.host-figure')
        .evaluateAll((els) => els.map((el) => [el.querySelector('dt')?.textContent, el.querySelector('dd')?.textContent])),
    );
    // Joined today: the three demo parties, Beatriz and Otávio.
    expect(figures).toMatchObject({ Entraram: '5', Sentaram: '1', Desistiram: '0', 'Não vieram': '1', Removidos: '1' });
    // The messages of the day by channel, the SMS with their segments (docs/product.md §8).
    expect(figures.SMS).toMatch(/^\d+ mensage(m|ns) · \d+ segmentos? de SMS$/);
    expect(figures.WhatsApp).toMatch(/^\d+ mensage(m|ns)$/);
    await host.getByRole('figure').waitFor();
    await saveScreenshot(host, 'host-today');
    expect(await axeViolations(host)).toEqual([]);

    await host.getByRole('link', { name: 'Cartaz' }).click();
    const qr = host.getByRole('img', { name: `QR code para ${server.baseUrl}/remote-waitlist/${DEMO_BISTRO_ID}` });
    await expect.poll(() => qr.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    expect(await axeViolations(host)).toEqual([]);
    await saveScreenshot(host, 'host-poster');
    await host.emulateMedia({ media: 'print' });
    expect(await host.getByRole('navigation', { name: 'Telas do painel' }).isVisible()).toBe(false);
    await saveScreenshot(host, 'host-poster-print');
    await host.emulateMedia({ media: 'screen' });
  });

  it('switches to English and logs out', async () => {
    await host.getByRole('button', { name: 'English' }).click();
    await host.getByRole('link', { name: 'Queue' }).click();
    await host.getByRole('heading', { name: /^Queue/ }).waitFor();
    await saveScreenshot(host, 'host-queue-en');
    expect(await axeViolations(host)).toEqual([]);
    await host.getByRole('button', { name: 'Log out' }).click();
    await host.getByRole('heading', { name: 'Log in to the console' }).waitFor();
    const me = await host.evaluate(async () => (await fetch('/api/host/me')).status);
    expect(me).toBe(401);
  });
});

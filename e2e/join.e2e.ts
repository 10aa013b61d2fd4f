import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEMO_BISTRO_ID,
  DEMO_CLUB_ID,
  type VezServer,
  axeViolations,
  desktopContext,
  launchBrowser,
  patchVenueSettings,
  phoneContext,
  queryRows,
  saveScreenshot,
  startVezServer,
} from './support/index.js';

let server: VezServer;
let browser: Browser;

beforeAll(async () => {
  [server, browser] = await Promise.all([startVezServer(), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

async function openPhone(path: string, options: { locale?: string } = {}): Promise<Page> {
  const context = await phoneContext(browser, options);
  const page = await context.newPage();
  await page.goto(`${server.baseUrl}${path}`);
  return page;
}

async function pickOption(page: Page, button: RegExp, option: string) {
  await page.getByRole('button', { name: button }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

/** The code in the newest outbox message to `to` (delivery follows the answer: poll). */
async function codeSentTo(to: string): Promise<string> {
  let code = '';
  await expect
    .poll(
      async () => {
        const outbox = (await (await fetch(`${server.baseUrl}/api/dev/outbox`)).json()) as { to: string; body: string }[];
        code = /\b(\d{6})\b/.exec(outbox.find((m) => m.to === to)?.body ?? '')?.[1] ?? '';
        return code;
      },
      { timeout: 10_000, interval: 150 },
    )
    .not.toBe('');
  return code;
}

describe('joining the waitlist', () => {
  it('joins in Portuguese on a phone, with the venue colour and logo', async () => {
    const page = await openPhone(`/remote-waitlist/${DEMO_BISTRO_ID}`);
    await page.getByRole('heading', { name: 'Entrar na fila de Bistrô Demo' }).waitFor();
    const logo = page.getByRole('img', { name: 'Logotipo de Bistrô Demo' });
    await logo.waitFor();
    await expect.poll(() => logo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    const main = await page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue('--vez-main').trim());
    expect(main).toBe('#9a3412');
    const submitColour = await page.getByRole('link', { name: /Alterar para reserva/ }).evaluate((a) => getComputedStyle(a).borderTopColor);
    expect(submitColour).toBe('rgb(154, 52, 18)');
    await saveScreenshot(page, 'join-pt-empty');
    expect(await axeViolations(page)).toEqual([]);

    await page.getByRole('button', { name: /Número de pessoas/ }).click();
    const list = page.getByRole('listbox');
    expect(await list.evaluate((el) => getComputedStyle(el).maxHeight)).toBe('140px');
    expect(await list.getByRole('option').allTextContents()).toEqual(['1 lugar', ...[2, 3, 4, 5, 6, 7, 8].map((n) => `${n} lugares`)]);
    await saveScreenshot(page, 'join-pt-party-size');
    await page.getByRole('option', { name: '2 lugares', exact: true }).click();
    await page.getByText('pelo menos metade do grupo', { exact: false }).waitFor();
    await page.getByLabel('Nome e sobrenome').fill('Beatriz Lima');
    await page.getByLabel('Celular').pressSequentially('11987651234');
    expect(await page.getByLabel('Celular').inputValue()).toBe('(11) 98765-1234');
    await page.getByLabel('Observações (opcional)').fill('Mesa perto da janela');
    const submit = page.getByRole('button', { name: 'Entrar na fila' });
    await expect.poll(() => submit.isEnabled()).toBe(true);
    await saveScreenshot(page, 'join-pt-filled', { fullPage: true });
    expect(await axeViolations(page)).toEqual([]);

    await submit.click();
    const dialog = page.getByRole('dialog', { name: 'Você entrou na fila' });
    await dialog.waitFor();
    await dialog.getByText('Procure a recepcionista quando chegar.').waitFor();
    await saveScreenshot(page, 'join-pt-success');
    expect(await axeViolations(page)).toEqual([]);

    const [row] = queryRows<{ id: string; note: string; lang: string; origin_label: string }>(
      server.dbFile,
      'SELECT id, note, lang, origin_label FROM entries WHERE phone = ?',
      '+5511987651234',
    );
    expect(row).toMatchObject({ note: 'Mesa perto da janela', lang: 'pt', origin_label: 'Widget' });
    await dialog.getByRole('button', { name: 'Acompanhar' }).click();
    await page.waitForURL(`**/waitlist/${row?.id}`);
    await page.context().close();
  });

  it('a second phone joining with a number already on the list is told so, and sees no entry (docs/product.md §3)', async () => {
    const join = async (page: Page, name: string) => {
      await pickOption(page, /Número de pessoas/, '2 lugares');
      await page.getByLabel('Nome e sobrenome').fill(name);
      await page.getByLabel('Celular').pressSequentially('11987651777');
      const submit = page.getByRole('button', { name: 'Entrar na fila' });
      await expect.poll(() => submit.isEnabled()).toBe(true);
      await submit.click();
    };
    const mine = await openPhone(`/remote-waitlist/${DEMO_BISTRO_ID}`);
    await join(mine, 'Beatriz Souza');
    await mine.getByRole('dialog', { name: 'Você entrou na fila' }).waitFor();

    const stranger = await openPhone(`/remote-waitlist/${DEMO_BISTRO_ID}`);
    await join(stranger, 'Outra Pessoa');
    const dialog = stranger.getByRole('dialog', { name: 'Você já está nesta fila' });
    await dialog.getByText('Enviamos o link para o seu celular de novo por SMS.').waitFor();
    await saveScreenshot(stranger, 'join-pt-already-on-list');
    expect(await axeViolations(stranger)).toEqual([]);
    const [row] = queryRows<{ id: string; n: number }>(
      server.dbFile,
      'SELECT id, count(*) AS n FROM entries WHERE phone = ?',
      '+5511987651777',
    );
    expect(row?.n).toBe(1);
    expect(await stranger.content()).not.toContain(row?.id);
    await dialog.getByRole('button', { name: 'OK' }).click();
    expect(stranger.url()).toContain('/remote-waitlist/');
    await Promise.all([mine.context().close(), stranger.context().close()]);
  });

  it("shows the boot screen's banner in the header: one random banner, fetched once, also after a reload", async () => {
    const context = await phoneContext(browser);
    const page = await context.newPage();
    const bannerRequests: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('bistro-banner')) bannerRequests.push(request.url());
    });
    const header = page.locator('img.venue-header__image');
    for (const load of [() => page.goto(`${server.baseUrl}/remote-waitlist/${DEMO_BISTRO_ID}`), () => page.reload()]) {
      bannerRequests.length = 0;
      const html = await (await load())!.text();
      const boot = /data-small="([^"]+)"/.exec(html)?.[1]?.replaceAll('&amp;', '&');
      expect(boot).toMatch(/\/images\/demo\/bistro-banner-[12]\.svg\?quality=70&format=webp$/);
      await page.getByRole('heading', { name: 'Entrar na fila de Bistrô Demo' }).waitFor();
      await expect.poll(() => header.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
      expect(await header.getAttribute('src')).toBe(`${boot}&w=800`);
      expect(bannerRequests.length).toBeGreaterThan(0);
      expect(new Set(bannerRequests.map((url) => new URL(url).pathname))).toEqual(new Set([new URL(boot!, server.baseUrl).pathname]));
    }
    await context.close();
  });

  it('joins in English with the section and email a venue requires', async () => {
    // A US phone: the venue sends SMS to the United States too (docs/product.md §3; Brazil only by default).
    await patchVenueSettings(server.baseUrl, DEMO_CLUB_ID, { settings: { smsCountries: ['BR', 'US'] } });
    const page = await openPhone(`/remote-waitlist/${DEMO_CLUB_ID}?lng=en`);
    await page.getByRole('heading', { name: 'Join the waitlist at Demo Club' }).waitFor();
    await pickOption(page, /Party size/, '4 seats');
    await page.getByLabel('Name and surname').fill('John Smith');
    await page.getByRole('button', { name: /Country: Brazil/ }).click();
    await page.getByRole('combobox', { name: 'Search country' }).fill('united st');
    await page.getByRole('option', { name: 'United States +1' }).click();
    await page.getByLabel('Phone').pressSequentially('2015550123');
    expect(await page.getByLabel('Phone').inputValue()).toBe('(201) 555-0123');
    await page.getByLabel('Email').fill('john@example.com');
    await pickOption(page, /^Location/, 'Bar');
    await page.getByLabel('Note (optional)').fill('Birthday');
    const submit = page.getByRole('button', { name: 'Join the waitlist' });
    await expect.poll(() => submit.isEnabled()).toBe(true);
    await saveScreenshot(page, 'join-en-filled', { fullPage: true });
    await submit.click();
    // Clube Demo has the login journey (docs/product.md §5): step 1 verifies the phone with the code first.
    await page.getByText('Code sent, check your messages').waitFor();
    await page.keyboard.type(await codeSentTo('+12015550123'));
    const getIn = page.getByRole('button', { name: 'Get in waitlist' });
    await expect.poll(() => getIn.isEnabled()).toBe(true);
    await getIn.click();
    const dialog = page.getByRole('dialog', { name: "You've joined the waitlist" });
    await dialog.getByText('Look for the receptionist when you arrive.').waitFor();
    await saveScreenshot(page, 'join-en-success');
    const [row] = queryRows(
      server.dbFile,
      'SELECT phone, email, note, section, lang, party_size FROM entries WHERE phone = ?',
      '+12015550123',
    );
    expect(row).toEqual({
      phone: '+12015550123',
      email: 'john@example.com',
      note: 'Localização: Bar\nBirthday',
      section: 'Bar',
      lang: 'en',
      party_size: 4,
    });
    await page.context().close();
  });

  it('shows every validation message, word for word, in English and in Portuguese', async () => {
    const page = await openPhone(`/remote-waitlist/${DEMO_CLUB_ID}?lng=en`);
    await pickOption(page, /Party size/, '1 seat');
    const hints = page.locator('.field__hint');
    await page.getByLabel('Name and surname').fill('John');
    await page.getByLabel('Phone').pressSequentially('1234');
    await page.getByLabel('Email').fill('john@');
    await page.getByLabel('Note (optional)').click();
    await page.getByText('Insert Surname', { exact: true }).waitFor();
    await page.getByText('Invalid phone number', { exact: true }).waitFor();
    await page.getByText('Invalid email', { exact: true }).waitFor();
    expect(await hints.filter({ hasText: /^Required$/ }).count()).toBe(1); // the location section
    expect(await page.getByRole('button', { name: 'Join the waitlist' }).isDisabled()).toBe(true);
    await saveScreenshot(page, 'join-en-validation', { fullPage: true });
    expect(await axeViolations(page)).toEqual([]);
    await page.getByLabel('Email').fill('');
    expect(await hints.filter({ hasText: /^Required$/ }).count()).toBe(2); // email and location

    await page.goto(`${server.baseUrl}/remote-waitlist/${DEMO_CLUB_ID}?lng=pt`);
    await pickOption(page, /Número de pessoas/, '1 lugar');
    await page.getByLabel('Nome e sobrenome').fill('João');
    await page.getByLabel('Celular').pressSequentially('1234');
    await page.getByLabel('E-mail').fill('joao@');
    await page.getByLabel('Observações (opcional)').click();
    await page.getByText('Informe o sobrenome', { exact: true }).waitFor();
    await page.getByText('Número de telefone inválido', { exact: true }).waitFor();
    await page.getByText('E-mail inválido', { exact: true }).waitFor();
    expect(await hints.filter({ hasText: /^Obrigatório$/ }).count()).toBe(1);
    await saveScreenshot(page, 'join-pt-validation', { fullPage: true });
    await page.context().close();
  });

  it('keeps the chosen language after a reload', async () => {
    const page = await openPhone(`/remote-waitlist/${DEMO_BISTRO_ID}`);
    await page.getByRole('heading', { name: 'Entrar na fila de Bistrô Demo' }).waitFor();
    await page.getByRole('button', { name: /Idioma: Português/ }).click();
    const modal = page.getByRole('dialog', { name: 'Escolha o idioma' });
    await modal.waitFor();
    await saveScreenshot(page, 'language-modal');
    expect(await axeViolations(page)).toEqual([]);
    await modal.getByRole('button', { name: 'English (United States)' }).click();
    await page.getByRole('heading', { name: 'Join the waitlist at Demo Bistro' }).waitFor();
    expect(await page.evaluate(() => localStorage.getItem('i18n'))).toBe('en');
    await page.reload();
    await page.getByRole('heading', { name: 'Join the waitlist at Demo Bistro' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('en-US');
    await page.context().close();
  });

  it('fits a desktop window', async () => {
    const context = await desktopContext(browser);
    const page = await context.newPage();
    await page.goto(`${server.baseUrl}/remote-waitlist/${DEMO_CLUB_ID}`);
    await page.getByRole('heading', { name: 'Entrar na fila de Clube Demo' }).waitFor();
    await saveScreenshot(page, 'join-desktop');
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await page.getByRole('button', { name: /Idioma: Português/ }).click();
    const modal = page.getByRole('dialog', { name: 'Escolha o idioma' });
    expect(await modal.evaluate((el) => getComputedStyle(el).maxWidth)).toBe('500px');
    await saveScreenshot(page, 'language-modal-desktop');
    await modal.getByRole('button', { name: 'Fechar' }).click();
    await modal.waitFor({ state: 'detached' });
    await context.close();
  });
});

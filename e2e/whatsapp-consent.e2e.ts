import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEMO_BISTRO_ID,
  type VezServer,
  axeViolations,
  launchBrowser,
  patchVenueSettings,
  phoneContext,
  queryRows,
  saveScreenshot,
  startVezServer,
} from './support/index.js';

/** docs/product.md §10: a WhatsApp venue asks its diners, unticked, and names the channel it used. */

const template = (n: number) => ({ sid: `HX${String(n).padStart(32, '0')}`, vars: ['name', 'venue', 'link'] });

let server: VezServer;
let browser: Browser;

beforeAll(async () => {
  [server, browser] = await Promise.all([
    startVezServer({ env: { WHATSAPP_TEMPLATES: JSON.stringify({ join: { pt: template(1), en: template(2) } }) } }),
    launchBrowser(),
  ]);
  await patchVenueSettings(server.baseUrl, DEMO_BISTRO_ID, { settings: { channel: 'whatsapp' } });
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const optInOf = (phone: string) =>
  queryRows<{ whatsapp_opt_in: number }>(server.dbFile, 'SELECT whatsapp_opt_in FROM entries WHERE phone = ?', phone).map(
    (row) => row.whatsapp_opt_in,
  );

/** The Bistro's join page on a phone, in a language, with party size, name and phone filled in. */
async function openForm(locale: 'pt-BR' | 'en-US', name: string, phone: string): Promise<Page> {
  const page = await (await phoneContext(browser, { locale })).newPage();
  await page.goto(`${server.baseUrl}/remote-waitlist/${DEMO_BISTRO_ID}`);
  const pt = locale === 'pt-BR';
  await page.getByRole('button', { name: pt ? /Número de pessoas/ : /Party size/ }).click();
  await page.getByRole('option', { name: pt ? '2 lugares' : '2 seats', exact: true }).click();
  await page.getByLabel(pt ? 'Nome e sobrenome' : 'Name and surname').fill(name);
  await page.getByLabel(pt ? 'Celular' : 'Phone').pressSequentially(phone);
  return page;
}

describe('WhatsApp consent on the join form', () => {
  it('pt: unticked at first; ticked, the party joins on WhatsApp and the success names WhatsApp', async () => {
    const page = await openForm('pt-BR', 'Lívia Martins', '11987650911');
    const consent = page.getByRole('checkbox', { name: 'Quero receber as atualizações da fila pelo WhatsApp' });
    expect(await consent.isChecked()).toBe(false);
    await page.getByText('Sem marcar, você recebe por SMS.').waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await consent.check();
    await saveScreenshot(page, 'join-pt-whatsapp-consent', { fullPage: true });
    const submit = page.getByRole('button', { name: 'Entrar na fila' });
    await expect.poll(() => submit.isEnabled()).toBe(true);
    await submit.click();
    const dialog = page.getByRole('dialog', { name: 'Você entrou na fila' });
    await dialog.getByText('Enviamos uma mensagem no WhatsApp com o link para você acompanhar sua posição na fila.').waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await saveScreenshot(page, 'join-pt-whatsapp-success');
    expect(optInOf('+5511987650911')).toEqual([1]);
    await page.context().close();
  });

  it('en: left unticked, the party gets SMS and the success says so', async () => {
    const page = await openForm('en-US', 'Mark Evans', '11987650912');
    const consent = page.getByRole('checkbox', { name: 'Send me the waitlist updates on WhatsApp' });
    expect(await consent.isChecked()).toBe(false);
    expect(await axeViolations(page)).toEqual([]);
    const submit = page.getByRole('button', { name: 'Join the waitlist' });
    await expect.poll(() => submit.isEnabled()).toBe(true);
    await submit.click();
    await page
      .getByRole('dialog', { name: "You've joined the waitlist" })
      .getByText('We sent you an SMS with a link to follow your position on the waitlist.')
      .waitFor();
    expect(optInOf('+5511987650912')).toEqual([0]);
    await page.context().close();
  });

  it('en: ticked, the success names WhatsApp', async () => {
    const page = await openForm('en-US', 'Nina Brooks', '11987650913');
    await page.getByRole('checkbox', { name: 'Send me the waitlist updates on WhatsApp' }).check();
    const submit = page.getByRole('button', { name: 'Join the waitlist' });
    await expect.poll(() => submit.isEnabled()).toBe(true);
    await submit.click();
    await page
      .getByRole('dialog', { name: "You've joined the waitlist" })
      .getByText('We sent you a WhatsApp message with a link to follow your position on the waitlist.')
      .waitFor();
    expect(optInOf('+5511987650913')).toEqual([1]);
    await page.context().close();
  });
});

describe('WhatsApp in the console', () => {
  it('the walk-in dialog asks, the card shows the consent, the settings explain the channel; axe clean', async () => {
    const host = await (
      await browser.newContext({ viewport: { width: 1024, height: 768 }, deviceScaleFactor: 1, hasTouch: true, locale: 'pt-BR' })
    ).newPage();
    await host.goto(`${server.baseUrl}/host`);
    await host.getByLabel('E-mail').fill('host@bistro.example');
    await host.getByLabel('Senha').fill('demo1234');
    await host.getByRole('button', { name: 'Entrar' }).click();
    await host.waitForURL(`**/host/${DEMO_BISTRO_ID}/queue`);
    await host.getByRole('button', { name: 'Adicionar grupo' }).click();
    const dialog = host.getByRole('dialog', { name: 'Novo grupo na recepção' });
    await dialog.getByLabel('Nome', { exact: true }).fill('Bruno Teixeira');
    await dialog.getByLabel('Celular (opcional)').fill('11 98888-7711');
    await dialog
      .getByText(/^Com DDD, uma mensagem no WhatsApp \(ou por SMS, sem o aceite\) avisa quando a mesa estiver pronta\./)
      .waitFor();
    const consent = dialog.getByRole('checkbox', { name: 'O cliente quer receber as atualizações pelo WhatsApp' });
    expect(await consent.isChecked()).toBe(false);
    await consent.check();
    expect(await axeViolations(host)).toEqual([]);
    await saveScreenshot(host, 'host-walk-in-whatsapp');
    await dialog.getByRole('button', { name: 'Adicionar à fila' }).click();
    const card = host.getByRole('listitem').filter({ has: host.getByRole('heading', { name: 'Bruno Teixeira' }) });
    await card.getByTestId('entry-whatsapp').waitFor();
    expect(await axeViolations(host)).toEqual([]);
    await host.getByRole('link', { name: 'Configurações' }).click();
    await host.getByText('WhatsApp: o cliente escolhe no formulário', { exact: false }).waitFor();
    expect(await axeViolations(host)).toEqual([]);
    await host.context().close();
  });
});

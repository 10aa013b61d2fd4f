import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_BISTRO_ID, type VezServer, launchBrowser, phoneContext, queryRows, startVezServer } from './support/index.js';

let server: VezServer;
let browser: Browser;

beforeAll(async () => {
  [server, browser] = await Promise.all([startVezServer(), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** The Bistro's join page on a phone, party size and name filled in. */
async function openForm(name: string): Promise<Page> {
  const page = await (await phoneContext(browser)).newPage();
  await page.goto(`${server.baseUrl}/remote-waitlist/${DEMO_BISTRO_ID}`);
  await page.getByRole('button', { name: /Número de pessoas/ }).click();
  await page.getByRole('option', { name: '2 lugares', exact: true }).click();
  await page.getByLabel('Nome e sobrenome').fill(name);
  return page;
}

/** docs/product.md §15: a phone pasted as WhatsApp and contact cards copy it. */
describe('pasted phones', () => {
  it('a +55 (11) … paste joins, stored as E.164', async () => {
    const page = await openForm('Paula Teles');
    const phone = page.getByLabel('Celular');
    // One input event with the whole number, as a paste makes.
    await phone.fill('+55 (11) 97777-6543');
    await expect.poll(() => phone.inputValue()).toBe('(11) 97777-6543');
    const submit = page.getByRole('button', { name: 'Entrar na fila' });
    await expect.poll(() => submit.isEnabled()).toBe(true);
    await submit.click();
    await page.getByRole('dialog', { name: 'Você entrou na fila' }).waitFor();
    const rows = queryRows<{ name: string }>(server.dbFile, 'SELECT name FROM entries WHERE phone = ?', '+5511977776543');
    expect(rows.map((row) => row.name)).toEqual(['Paula Teles']);
    await page.context().close();
  });

  it('a landline says "Use um celular" at the field, and the form cannot be sent', async () => {
    const page = await openForm('Otto Lima');
    const phone = page.getByLabel('Celular');
    await phone.fill('+55 (11) 3456-7890');
    await phone.press('Tab');
    await page.getByText('Use um celular', { exact: true }).waitFor();
    expect(await phone.getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByRole('button', { name: 'Entrar na fila' }).isEnabled()).toBe(false);
    await page.context().close();
  });
});

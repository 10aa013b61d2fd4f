import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  DEMO_BISTRO_ID,
  DEMO_CLUB_ID,
  UNKNOWN_VENUE_ID,
  type VezServer,
  axeViolations,
  launchBrowser,
  phoneContext,
  saveScreenshot,
  putWaitlistState,
  startVezServer,
} from './support/index.js';

const RESERVATIONS = 'https://reservas.vez.example';
let server: VezServer;
let browser: Browser;

beforeAll(async () => {
  [server, browser] = await Promise.all([startVezServer(), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});
beforeEach(async () => {
  await putWaitlistState(server.baseUrl, DEMO_BISTRO_ID, { active: true, locked: false });
});

/** A phone page whose trips to the (offline) reservation site are answered locally. */
async function phonePage(locale = 'pt-BR'): Promise<Page> {
  const context = await phoneContext(browser, { locale });
  await context.route(`${RESERVATIONS}/**`, (route) =>
    route.fulfill({ status: 200, contentType: 'text/html', body: '<title>Reservas</title><h1>Reservas</h1>' }),
  );
  return context.newPage();
}

describe('closed, failing and unknown venues', () => {
  it('shows a locked waitlist as closed; OK goes to the reservation page', async () => {
    await putWaitlistState(server.baseUrl, DEMO_BISTRO_ID, { active: true, locked: true });
    const page = await phonePage('en-US');
    await page.goto(`${server.baseUrl}/remote-waitlist/${DEMO_BISTRO_ID}`);
    const dialog = page.getByRole('dialog', { name: 'Remote waitlist closed.' });
    await dialog.waitFor();
    expect(await dialog.getByRole('button', { name: 'Close' }).count()).toBe(0);
    await page.keyboard.press('Escape');
    expect(await dialog.isVisible()).toBe(true);
    await saveScreenshot(page, 'closed-locked');
    expect(await axeViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'OK' }).click();
    await page.waitForURL(`${RESERVATIONS}/${DEMO_BISTRO_ID}`);
    await page.context().close();
  });

  it('shows an inactive waitlist as closed', async () => {
    await putWaitlistState(server.baseUrl, DEMO_BISTRO_ID, { active: false, locked: false });
    const page = await phonePage();
    await page.goto(`${server.baseUrl}/remote-waitlist/${DEMO_BISTRO_ID}`);
    const dialog = page.getByRole('dialog', { name: 'Nenhuma fila disponível no momento.' });
    await dialog.waitFor();
    await saveScreenshot(page, 'closed-inactive');
    await dialog.getByRole('button', { name: 'OK' }).click();
    await page.waitForURL(`${RESERVATIONS}/${DEMO_BISTRO_ID}`);
    await page.context().close();
  });

  it('sends an unknown venue to the 404 screen', async () => {
    const page = await phonePage();
    await page.goto(`${server.baseUrl}/remote-waitlist/${UNKNOWN_VENUE_ID}`);
    await page.waitForURL('**/404-not-found');
    await page.getByRole('heading', { name: 'Página não encontrada' }).waitFor();
    await page.getByRole('img', { name: 'Erro 404' }).waitFor();
    await saveScreenshot(page, 'not-found');
    expect(await axeViolations(page)).toEqual([]);
    await page.context().close();
  });

  it("answers a failing status call with 'Venue not found.' and OK to the 404 screen", async () => {
    const page = await phonePage('en-US');
    await page.route('**/api/waitlists/*/waitlist-statuses', (route) =>
      route.fulfill({ status: 500, contentType: 'application/json', body: '{"statusCode":500,"code":"UNKNOWN_ERROR","message":"x"}' }),
    );
    await page.goto(`${server.baseUrl}/remote-waitlist/${DEMO_CLUB_ID}`);
    const dialog = page.getByRole('dialog', { name: 'Venue not found.' });
    await dialog.waitFor({ timeout: 20_000 });
    await saveScreenshot(page, 'venue-not-found');
    await dialog.getByRole('button', { name: 'OK' }).click();
    await page.waitForURL('**/404-not-found');
    await page.context().close();
  });

  it("shows 'Waitlist is currently inaccessible.' when venue info fails, but not for the theme alone", async () => {
    const page = await phonePage('en-US');
    await page.route('**/api/waitlists/*/party-sizes', (route) =>
      route.fulfill({ status: 200, contentType: 'application/json', body: '[]' }),
    );
    await page.goto(`${server.baseUrl}/remote-waitlist/${DEMO_CLUB_ID}`);
    const dialog = page.getByRole('dialog', { name: 'Remote queue is closed' });
    await dialog.getByText('Waitlist is currently inaccessible.').waitFor();
    await saveScreenshot(page, 'venue-inaccessible');
    await page.unroute('**/api/waitlists/*/party-sizes');

    await page.route('**/api/themes/**', (route) => route.fulfill({ status: 503, body: '' }));
    await page.evaluate(() => sessionStorage.clear());
    await page.reload();
    await page.getByRole('heading', { name: 'Join the waitlist at Demo Club' }).waitFor({ timeout: 20_000 });
    expect(await page.getByRole('dialog').count()).toBe(0);
    await page.context().close();
  });

  it('shows the terms on the venue background, with padlock, powered-by logo and footer', async () => {
    const page = await phonePage('en-US');
    await page.goto(`${server.baseUrl}/terms-service`);
    await page.getByRole('heading', { name: 'General information' }).waitFor();
    await page.getByRole('heading', { name: 'Security Information and Acceptance' }).waitFor();
    await page.getByRole('img', { name: 'Vez' }).waitFor();
    const background = await page.locator('.terms').evaluate((el) => getComputedStyle(el).backgroundColor);
    expect(background).toBe('rgb(247, 241, 232)'); // default light beige
    await saveScreenshot(page, 'terms');
    expect(await axeViolations(page)).toEqual([]);

    await page.goto(`${server.baseUrl}/remote-waitlist/${DEMO_CLUB_ID}`);
    await page.getByRole('link', { name: 'Terms of service and waitlist' }).click();
    await page.getByRole('heading', { name: 'General information' }).waitFor();
    expect(await page.locator('.terms').evaluate((el) => getComputedStyle(el).backgroundColor)).toBe('rgb(238, 243, 248)');
    await page.context().close();
  });

  it('shows the fallback screen for any other path', async () => {
    const page = await phonePage();
    await page.goto(`${server.baseUrl}/anything/else`);
    await page.getByRole('img', { name: 'Vez' }).waitFor();
    expect(page.url()).toBe(`${server.baseUrl}/anything/else`);
    await saveScreenshot(page, 'fallback');
    expect(await axeViolations(page)).toEqual([]);
    await page.context().close();
  });
});

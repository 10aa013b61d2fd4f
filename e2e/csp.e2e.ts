import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEMO_BISTRO_ID,
  DEMO_CLUB_ID,
  type VezServer,
  desktopContext,
  launchBrowser,
  phoneContext,
  startVezServer,
} from './support/index.js';

// The built app under the real server's headers (docs/security.md, headers): no page the diner or
// the host opens makes the browser refuse a style, a script or anything else, and the
// Permissions-Policy names no feature Chromium does not know.

let server: VezServer;
let browser: Browser;

beforeAll(async () => {
  [server, browser] = await Promise.all([startVezServer(), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

interface Watched {
  page: Page;
  /** CSP violations the page reported, and console errors about the CSP or the Permissions-Policy. */
  problems: () => Promise<string[]>;
}

/** A page whose CSP violations (securitypolicyviolation events, from before any script) are kept. */
async function watchedPage(context: BrowserContext): Promise<Watched> {
  await context.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __violations: string[] }).__violations = seen;
    document.addEventListener('securitypolicyviolation', (e) =>
      seen.push(`${e.effectiveDirective} blocked ${e.blockedURI || '(inline)'} at ${e.sourceFile}:${e.lineNumber} ${e.sample}`),
    );
  });
  const page = await context.newPage();
  const consoleErrors: string[] = [];
  page.on('console', (message) => {
    if (/Content.Security.Policy|Permissions.Policy|Feature.Policy/i.test(message.text())) consoleErrors.push(message.text());
  });
  return {
    page,
    problems: async () => {
      // Violation events are queued tasks: two animation frames let every one of them be dispatched.
      const reported = await page.evaluate(
        () =>
          new Promise<string[]>((resolve) =>
            requestAnimationFrame(() =>
              requestAnimationFrame(() => resolve((window as unknown as { __violations: string[] }).__violations)),
            ),
          ),
      );
      return [...reported, ...consoleErrors];
    },
  };
}

/** Opens `path` and waits for `ready` and for the network to settle (lazy chunks, images, fonts). */
async function visit(watched: Watched, path: string, ready: (page: Page) => Promise<unknown>): Promise<void> {
  await watched.page.goto(`${server.baseUrl}${path}`);
  await ready(watched.page);
  await watched.page.waitForLoadState('networkidle');
}

describe('the built app under its Content-Security-Policy and Permissions-Policy', () => {
  it('diner pages: join (with its dialog), position, shared link, terms, another venue, not found', { timeout: 120_000 }, async () => {
    const watched = await watchedPage(await phoneContext(browser));
    const { page } = watched;
    await visit(watched, `/remote-waitlist/${DEMO_BISTRO_ID}`, (p) => p.getByRole('button', { name: 'Entrar na fila' }).waitFor());
    await page.getByRole('button', { name: /Número de pessoas/ }).click();
    await page.getByRole('option', { name: '2 lugares', exact: true }).click();
    await page.getByLabel('Nome e sobrenome').fill('Clara Nunes');
    await page.getByLabel('Celular').pressSequentially('11987654321');
    const submit = page.getByRole('button', { name: 'Entrar na fila' });
    await expect.poll(() => submit.isEnabled()).toBe(true);
    await submit.click();
    await page.getByRole('dialog', { name: 'Você entrou na fila' }).getByRole('button', { name: 'Acompanhar' }).click();
    await page.waitForURL('**/waitlist/*');
    await page.waitForLoadState('networkidle');
    const id = page.url().split('/waitlist/')[1]?.split('?')[0] ?? '';
    expect(await watched.problems()).toEqual([]);

    const position = (await (await fetch(`${server.baseUrl}/api/waitlists/${id}/position`)).json()) as { waitlist: { shareId: string } };
    await visit(watched, `/waitlist/${position.waitlist.shareId}`, (p) => p.getByRole('main').waitFor());
    expect(await watched.problems()).toEqual([]);
    await visit(watched, '/terms-service', (p) => p.getByRole('heading').first().waitFor());
    expect(await watched.problems()).toEqual([]);
    await visit(watched, `/remote-waitlist/${DEMO_CLUB_ID}`, (p) => p.getByRole('main').waitFor());
    expect(await watched.problems()).toEqual([]);
    await visit(watched, '/no-such-page', (p) => p.getByRole('main').waitFor());
    expect(await watched.problems()).toEqual([]);
  });

  it('the host console: login, then every screen an owner has', { timeout: 120_000 }, async () => {
    const watched = await watchedPage(await desktopContext(browser));
    const { page } = watched;
    await visit(watched, '/host', (p) => p.getByRole('heading', { name: 'Entrar no painel' }).waitFor());
    await page.getByLabel('E-mail').fill('host@bistro.example');
    await page.getByLabel('Senha', { exact: true }).fill('demo1234');
    await page.getByRole('button', { name: 'Entrar' }).click();
    const nav = page.getByRole('navigation', { name: 'Telas do painel' });
    await nav.waitFor();
    await page.waitForLoadState('networkidle');
    expect(await watched.problems()).toEqual([]);
    const screens = await nav.getByRole('link').all();
    expect(screens.length).toBeGreaterThan(3);
    for (const screen of screens) {
      await screen.click();
      await page.waitForLoadState('networkidle');
      expect(await watched.problems(), (await screen.textContent()) ?? undefined).toEqual([]);
    }
  });
});

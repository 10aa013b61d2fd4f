import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEMO_BISTRO_ID,
  type VezServer,
  axeViolations,
  launchBrowser,
  phoneContext,
  saveScreenshot,
  startVezServer,
} from './support/index.js';

// Staff roles (docs/product.md §9, docs/decisions/023-staff-roles.md) on a phone: the owner invites a
// host by email, the host answers the link from the demo outbox, sets a password and runs the queue
// without the owners' screens.
let server: VezServer;
let browser: Browser;
let owner: Page;
let host: Page;
const HOST_EMAIL = 'nova@bistro.example';

beforeAll(async () => {
  [server, browser] = await Promise.all([startVezServer(), launchBrowser()]);
  owner = await (await phoneContext(browser)).newPage();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** The invitation link the message queue delivered to `email`, as the demo's outbox shows it. */
async function invitationLink(email: string): Promise<string> {
  let link: string | undefined;
  await expect
    .poll(async () => {
      const outbox = (await (await fetch(`${server.baseUrl}/api/dev/outbox`)).json()) as { to: string; channel: string; body: string }[];
      link = outbox.find((m) => m.to === email && m.channel === 'email')?.body.match(/https?:\/\/\S+\/host\/invite\/[\w-]+/)?.[0];
      return link;
    })
    .toBeTruthy();
  return link!;
}

async function logIn(page: Page, email: string, password: string): Promise<void> {
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Senha', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Entrar' }).click();
  // Signing out leaves the address as it was: wait for the console itself, not only the address.
  await page.getByRole('navigation', { name: 'Telas do painel' }).waitFor();
  await page.waitForURL(`**/host/${DEMO_BISTRO_ID}/queue`);
}

describe('the team', () => {
  it('an owner invites a host by email from the Team screen', async () => {
    await owner.goto(`${server.baseUrl}/host`);
    await logIn(owner, 'host@bistro.example', 'demo1234');
    await owner.getByRole('link', { name: 'Equipe' }).click();
    await owner.getByRole('heading', { name: 'Equipe' }).waitFor();
    await owner.getByLabel('E-mail da pessoa').fill('sem-arroba');
    await owner.getByRole('button', { name: 'Enviar convite' }).click();
    // The browser's own check keeps a malformed address from being sent.
    expect(await owner.getByLabel('E-mail da pessoa').evaluate((el: HTMLInputElement) => el.validity.valid)).toBe(false);
    await owner.getByLabel('E-mail da pessoa').fill(HOST_EMAIL);
    await owner.getByRole('button', { name: 'Enviar convite' }).click();
    await owner
      .getByRole('status')
      .filter({ hasText: `Convite enviado para ${HOST_EMAIL}.` })
      .waitFor();
    await owner
      .getByRole('list', { name: 'Convites pendentes' })
      .getByRole('button', { name: `Cancelar convite ${HOST_EMAIL}` })
      .waitFor();
    expect(await axeViolations(owner)).toEqual([]);
    await saveScreenshot(owner, 'team-owner', { fullPage: true });
  });

  it('the link from the outbox opens; the host sets a password and lands on the queue, without settings or team', async () => {
    const link = await invitationLink(HOST_EMAIL);
    expect(link.startsWith(`${server.baseUrl}/host/invite/`)).toBe(true);
    host = await (await phoneContext(browser)).newPage();
    await host.goto(link);
    await host.getByRole('heading', { name: 'Convite para a equipe' }).waitFor();
    await host.getByText('Você foi convidado(a) para cuidar da fila de Bistrô Demo', { exact: false }).waitFor();
    expect(await axeViolations(host)).toEqual([]);
    await saveScreenshot(host, 'team-invite');
    await host.getByLabel('Crie uma senha').fill('nova-senha-1');
    await host.getByLabel('Repita a nova senha').fill('outra-coisa');
    await host.getByRole('button', { name: 'Criar senha e entrar' }).click();
    await host.getByRole('alert').filter({ hasText: 'As duas senhas não são iguais.' }).waitFor();
    await host.getByLabel('Repita a nova senha').fill('nova-senha-1');
    await host.getByRole('button', { name: 'Criar senha e entrar' }).click();
    await host.waitForURL(`**/host/${DEMO_BISTRO_ID}/queue`);
    await host.getByRole('status').filter({ hasText: 'Ao vivo' }).waitFor();
    const nav = host.getByRole('navigation', { name: 'Telas do painel' });
    expect(await nav.getByRole('link').allTextContents()).toEqual(['Fila', 'Hoje', 'Cartaz', 'Minha conta']);
  });

  it('the host logs out and in again with the new password, and the settings stay hidden', async () => {
    await host.getByRole('button', { name: 'Sair' }).click();
    await host.getByRole('heading', { name: 'Entrar no painel' }).waitFor();
    await logIn(host, HOST_EMAIL, 'nova-senha-1');
    const nav = host.getByRole('navigation', { name: 'Telas do painel' });
    expect(await nav.getByRole('link', { name: 'Configurações' }).count()).toBe(0);
    // Typed by hand, the owners' screens lead back to the queue.
    await host.goto(`${server.baseUrl}/host/${DEMO_BISTRO_ID}/settings`);
    await host.waitForURL(`**/host/${DEMO_BISTRO_ID}/queue`);
    await host.getByRole('button', { name: 'Adicionar grupo' }).waitFor();
    expect(await axeViolations(host)).toEqual([]);
    await saveScreenshot(host, 'team-host-queue');
    // The same link again: used.
    await host.goto(await invitationLink(HOST_EMAIL));
    await host.getByRole('alert').filter({ hasText: 'Este convite já foi usado.' }).waitFor();
  });

  it('the host changes their own password on My account', async () => {
    await host.goto(`${server.baseUrl}/host/${DEMO_BISTRO_ID}/account`);
    await host.getByRole('heading', { name: 'Minha conta' }).waitFor();
    await host.getByLabel('Senha atual').fill('errada-demais');
    await host.getByLabel(/^Nova senha/).fill('nova-senha-2');
    await host.getByLabel('Repita a nova senha').fill('nova-senha-2');
    await host.getByRole('button', { name: 'Trocar a senha' }).click();
    await host.getByRole('alert').filter({ hasText: 'A senha atual não confere.' }).waitFor();
    await host.getByLabel('Senha atual').fill('nova-senha-1');
    await host.getByRole('button', { name: 'Trocar a senha' }).click();
    await host.getByRole('status').filter({ hasText: 'Senha trocada.' }).waitFor();
    expect(await axeViolations(host)).toEqual([]);
    await saveScreenshot(host, 'team-account');
  });

  it('the owner sees the host on the team and removes them: the host is signed out', async () => {
    await owner.reload();
    const members = owner.getByRole('list', { name: 'Pessoas da equipe' });
    const item = members.getByRole('listitem').filter({ hasText: HOST_EMAIL });
    await item.getByText('Host', { exact: true }).waitFor();
    await item.getByRole('button', { name: `Remover ${HOST_EMAIL}` }).click();
    await item.getByRole('button', { name: `Confirmar: remover ${HOST_EMAIL}` }).click();
    await owner
      .getByRole('status')
      .filter({ hasText: `${HOST_EMAIL} saiu da equipe` })
      .waitFor();
    await expect.poll(() => item.count()).toBe(0);
    expect(await host.evaluate(async () => (await fetch('/api/host/me')).status)).toBe(401);
  });
});

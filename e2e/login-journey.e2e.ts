import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEMO_CLUB_ID,
  type VezServer,
  axeViolations,
  launchBrowser,
  phoneContext,
  queryRows,
  saveScreenshot,
  startVezServer,
} from './support/index.js';

// The login journey (docs/product.md §12, docs/product.md §5) on the demo venue that hired it (Clube Demo: email and section required).
let server: VezServer;
let browser: Browser;
let diner: BrowserContext;

const PHONE = '+5511987652001';
const EMAIL = 'helena@example.com';
const NAME = 'Helena Prado Costa';

beforeAll(async () => {
  [server, browser] = await Promise.all([startVezServer(), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

interface OutboxMessage {
  to: string;
  channel: 'sms' | 'email';
  body: string;
  createdAt: string;
}

async function outbox(): Promise<OutboxMessage[]> {
  const response = await fetch(`${server.baseUrl}/api/dev/outbox`);
  return (await response.json()) as OutboxMessage[];
}

/** The newest code the outbox delivered to `to` that was not seen before (delivery follows the answer). */
async function newCodeFor(to: string, seen: ReadonlySet<string> = new Set()): Promise<{ code: string; channel: string }> {
  let found: { code: string; channel: string } | undefined;
  await expect
    .poll(
      async () => {
        const message = (await outbox()).find((m) => m.to === to && !seen.has(m.createdAt + m.body));
        const code = /\b(\d{6})\b/.exec(message?.body ?? '')?.[1];
        found = message && code ? { code, channel: message.channel } : undefined;
        return Boolean(found);
      },
      { timeout: 10_000, interval: 150 },
    )
    .toBe(true);
  return found as { code: string; channel: string };
}

const seenMessages = async () => new Set((await outbox()).map((m) => m.createdAt + m.body));

async function pickOption(page: Page, button: RegExp, option: string) {
  await page.getByRole('button', { name: button }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

async function countdown(page: Page): Promise<number> {
  const text = await page.getByText(/^Reenviar em \d+$/).textContent();
  return Number(/\d+/.exec(text ?? '')?.[0]);
}

describe('login journey', () => {
  it('joins with the code from the outbox, after a wrong code, a channel toggle and a resend', async () => {
    diner = await phoneContext(browser);
    // Fake timers that still run in real time: the 30 s countdown is fast-forwarded, not waited for.
    await diner.clock.install();
    const page = await diner.newPage();
    await page.goto(`${server.baseUrl}/remote-waitlist/${DEMO_CLUB_ID}`);
    await page.getByRole('heading', { name: 'Entrar na fila de Clube Demo' }).waitFor();
    await pickOption(page, /Número de pessoas/, '2 lugares');
    await page.getByLabel('Nome e sobrenome').fill(NAME);
    await page.getByLabel('Celular').pressSequentially('11987652001');
    await page.getByLabel('E-mail').fill(EMAIL);
    await pickOption(page, /^Localização/, 'Varanda');
    const submit = page.getByRole('button', { name: 'Entrar na fila' });
    await expect.poll(() => submit.isEnabled()).toBe(true);
    await submit.click();

    // Step 1: the code went by SMS at once; Get in waitlist waits for the verification.
    await page.getByRole('heading', { name: 'Confirme seu contato' }).waitFor();
    await page.getByText('Código enviado, verifique sua caixa de mensagens').waitFor();
    expect(await page.getByRole('radio', { name: 'SMS' }).isChecked()).toBe(true);
    const getIn = page.getByRole('button', { name: 'Entrar na fila' });
    expect(await getIn.isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'Reenviar código' }).isDisabled()).toBe(true);
    const started = await countdown(page);
    expect(started).toBeGreaterThan(50);
    expect(started).toBeLessThanOrEqual(60);
    const sms = await newCodeFor(PHONE);
    expect(sms.channel).toBe('sms');
    await saveScreenshot(page, 'login-code-sent');
    expect(await axeViolations(page)).toEqual([]);

    // The back link returns to step 0 with the data kept; submitting again re-enters step 1.
    await page.getByRole('button', { name: /Voltar e editar/ }).click();
    expect(await page.getByLabel('Nome e sobrenome').inputValue()).toBe(NAME);
    expect(await page.getByLabel('Celular').inputValue()).toBe('(11) 98765-2001');
    const seenBeforeReentry = await seenMessages();
    await submit.click();
    await page.getByText('Código enviado, verifique sua caixa de mensagens').waitFor();
    const smsAgain = await newCodeFor(PHONE, seenBeforeReentry);

    // A wrong code: the server's message, the boxes cleared for another try.
    const wrong = smsAgain.code === '000000' ? '111111' : '000000';
    await page.keyboard.type(wrong);
    const alert = page.getByRole('alert').filter({ hasText: 'Código inválido. Confira e tente de novo.' });
    await alert.waitFor();
    expect(await page.getByLabel('Dígito 1 de 6').inputValue()).toBe('');
    expect(await getIn.isDisabled()).toBe(true);
    await saveScreenshot(page, 'login-wrong-code');
    expect(await axeViolations(page)).toEqual([]);

    // The countdown ticks about twice a second.
    const before = await countdown(page);
    await page.clock.runFor(5_000);
    expect(await countdown(page)).toBeLessThanOrEqual(before - 10);
    // From here to the resend the clock moves only when told (runFor): a countdown read after its
    // restart reads its start however long the server and the page took to get there.
    await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1_000);

    // The toggle sends the code to the email and restarts the countdown.
    const seenBeforeToggle = await seenMessages();
    await page.getByRole('radio', { name: 'E-mail' }).click();
    expect(await page.getByRole('radio', { name: 'E-mail' }).isChecked()).toBe(true);
    await page.getByText('Código enviado, verifique seu email').waitFor();
    expect(await countdown(page)).toBeGreaterThanOrEqual(58);
    const mail = await newCodeFor(EMAIL, seenBeforeToggle);
    expect(mail.channel).toBe('email');
    await saveScreenshot(page, 'login-email-sent');

    // At zero the resend is offered; it sends a new code and starts over.
    await page.clock.runFor(31_000);
    const resend = page.getByRole('button', { name: 'Reenviar código' });
    await expect.poll(() => resend.isEnabled()).toBe(true);
    expect(await page.getByText(/^Reenviar em \d+$/).count()).toBe(0);
    const seenBeforeResend = await seenMessages();
    await resend.click();
    expect(await countdown(page)).toBeGreaterThanOrEqual(58);
    await page.clock.resume();
    const resent = await newCodeFor(EMAIL, seenBeforeResend);

    // A paste of the whole code fills the boxes and verifies it.
    await page.getByLabel('Dígito 1 de 6').focus();
    await page.evaluate((code) => {
      const data = new DataTransfer();
      data.setData('text/plain', code);
      document.activeElement?.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
    }, resent.code);
    await page.getByText('Código verificado!').waitFor();
    await expect.poll(() => getIn.isEnabled()).toBe(true);
    await saveScreenshot(page, 'login-verified');
    expect(await axeViolations(page)).toEqual([]);

    await getIn.click();
    const dialog = page.getByRole('dialog', { name: 'Você entrou na fila' });
    await dialog.waitFor();
    const [entry] = queryRows<{ id: string; email: string; section: string }>(
      server.dbFile,
      'SELECT id, email, section FROM entries WHERE phone = ?',
      PHONE,
    );
    expect(entry).toMatchObject({ email: EMAIL, section: 'Varanda' });
    const [user] = queryRows<{ id: string; first_name: string; last_name: string; email: string }>(
      server.dbFile,
      'SELECT id, first_name, last_name, email FROM product_users WHERE phone = ?',
      PHONE,
    );
    expect(user).toMatchObject({ first_name: 'Helena Prado', last_name: 'Costa', email: EMAIL });
    await expect
      .poll(() =>
        queryRows<{ event_type: string; waitlist_id: string | null }>(
          server.dbFile,
          'SELECT event_type, waitlist_id FROM user_events WHERE user_id = ? ORDER BY created_at',
          user?.id,
        ),
      )
      .toEqual([
        { event_type: 'waitlist-login', waitlist_id: null },
        { event_type: 'waitlist-enter', waitlist_id: entry?.id },
      ]);
    await page.close();
  });

  it('shows a logged-in diner the summary, skips the code step, and Editar logs out', async () => {
    // The same browser as the verification: its session cookie is still there.
    const page = await diner.newPage();
    await page.goto(`${server.baseUrl}/remote-waitlist/${DEMO_CLUB_ID}`);
    const summary = page.getByRole('region', { name: 'Seus dados' });
    await summary.waitFor();
    await summary.getByText(NAME).waitFor();
    // Formatted by its country once the phone metadata has loaded.
    await summary.getByText('+55 11 98765 2001').waitFor();
    await summary.getByText(EMAIL).waitFor();
    await pickOption(page, /Número de pessoas/, '3 lugares');
    expect(await page.getByLabel('Nome e sobrenome').count()).toBe(0);
    await pickOption(page, /^Localização/, 'Bar');
    await saveScreenshot(page, 'login-summary', { fullPage: true });
    expect(await axeViolations(page)).toEqual([]);

    // Editar logs out: the fields come back prefilled, and the code step applies again.
    await summary.getByRole('button', { name: 'Editar' }).click();
    await page.getByLabel('Nome e sobrenome').waitFor();
    expect(await summary.count()).toBe(0);
    expect(await page.getByLabel('Nome e sobrenome').inputValue()).toBe(NAME);
    expect(await page.getByLabel('Celular').inputValue()).toBe('(11) 98765-2001');
    expect(await page.getByLabel('E-mail').inputValue()).toBe(EMAIL);
    expect(await page.evaluate(async () => (await fetch('/api/product-user')).status)).toBe(401);
    await saveScreenshot(page, 'login-after-edit', { fullPage: true });
    const submit = page.getByRole('button', { name: 'Entrar na fila' });
    await expect.poll(() => submit.isEnabled()).toBe(true);
    await submit.click();
    await page.getByRole('heading', { name: 'Confirme seu contato' }).waitFor();
    await page.close();
  });

  it('skips the code step for a logged-in diner and joins at once', async () => {
    // Log in again through the code step, then join from a fresh page: no step 1.
    const page = await diner.newPage();
    await page.goto(`${server.baseUrl}/remote-waitlist/${DEMO_CLUB_ID}?lng=en`);
    await pickOption(page, /Party size/, '2 seats');
    await page.getByLabel('Name and surname').fill('Otto Brandt');
    await page.getByLabel('Phone').pressSequentially('11987652002');
    await page.getByLabel('Email').fill('otto@example.com');
    await pickOption(page, /^Location/, 'Bar');
    const seen = await seenMessages();
    await page.getByRole('button', { name: 'Join the waitlist' }).click();
    await page.getByText('Code sent, check your messages').waitFor();
    await page.getByRole('heading', { name: 'Confirm your contact' }).waitFor();
    expect(await page.getByRole('button', { name: 'Get in waitlist' }).isDisabled()).toBe(true);
    await saveScreenshot(page, 'login-en-code-sent');
    expect(await axeViolations(page)).toEqual([]);
    const { code } = await newCodeFor('+5511987652002', seen);
    await page.keyboard.type(code);
    await page.getByText('Code verified!').waitFor();
    await page.close();

    const again = await diner.newPage();
    await again.goto(`${server.baseUrl}/remote-waitlist/${DEMO_CLUB_ID}?lng=en`);
    await again.getByRole('region', { name: 'Your details' }).getByText('Otto Brandt').waitFor();
    await pickOption(again, /Party size/, '2 seats');
    await pickOption(again, /^Location/, 'Salão');
    const submit = again.getByRole('button', { name: 'Join the waitlist' });
    await expect.poll(() => submit.isEnabled()).toBe(true);
    await submit.click();
    await again.getByRole('dialog', { name: "You've joined the waitlist" }).waitFor();
    expect(await again.getByRole('heading', { name: 'Confirm your contact' }).count()).toBe(0);
    await expect.poll(() => queryRows(server.dbFile, 'SELECT 1 FROM entries WHERE phone = ?', '+5511987652002').length).toBe(1);
    await expect
      .poll(() =>
        queryRows<{ event_type: string }>(
          server.dbFile,
          'SELECT e.event_type FROM user_events e JOIN product_users u ON u.id = e.user_id WHERE u.phone = ? ORDER BY e.created_at',
          '+5511987652002',
        ),
      )
      .toEqual([{ event_type: 'waitlist-login' }, { event_type: 'waitlist-enter' }]);
    await diner.close();
  });
});

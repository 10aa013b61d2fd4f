import type { AddressInfo } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { nextPhone, postJoin } from '../../test/fixtures.js';
import { useTestApp } from '../../test/harness.js';
import { sqliteStore } from '../../test/stores.js';
import { toE164 } from '../lib/phone.js';
import { findEntryById } from '../modules/queue/index.js';
import { runAdmin } from './admin-commands.js';

/** `npm run admin -- sms-reply`: a person tries an SMS reply against a running demo (docs/product.md §7). */
describe('admin sms-reply against a listening server', () => {
  const t = useTestApp(sqliteStore);
  let base: string;
  beforeAll(async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });

  const run = async (args: string[]) => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runAdmin(args, { db: t.db, out: (l) => out.push(l), err: (l) => err.push(l), prompt: async () => '' });
    return { code, out, err };
  };

  it('"9" takes the party off the list and prints the confirmation', async () => {
    const phone = nextPhone();
    const joined = await postJoin(t, { customer: { name: 'Ana Souza', phone } });
    const id = joined.json()._id as string;
    const result = await run(['sms-reply', '--from', toE164(phone)!, '--body', '9', '--url', base]);
    // The answer goes back by SMS: without accents, the venue's default (docs/product.md §8).
    expect(result).toEqual({ code: 0, out: ['Voce saiu da fila de Bistro Demo.'], err: [] });
    expect((await findEntryById(t.db.kysely, id))?.cancel_reason).toBe('Customer');
  });

  it('asks for --from and --body', async () => {
    const result = await run(['sms-reply', '--body', '1', '--url', base]);
    expect(result.code).toBe(1);
    expect(result.err[0]).toContain('--from');
  });
});

import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildBankBarcode } from '../helpers/boleto.js';
import { BILL_RETURN_REASONS } from '../../src/domain/reasons.js';
import { admin, Client, eventually, itemFor, Receiver, sandbox, tempDir } from './helpers.js';
import { nthCpf } from './documents.js';

const receivers: Receiver[] = [];
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((r) => r.close()));
});
/**
 * The real clock as the sandbox reads it (Date.now), with a hand on it: `pass(ms)` makes that much real time go by at
 * once, so "while it was down" takes no waiting; `hold()` stops it until `pass` (a fast sandbox's clock then stands
 * still, whatever the load: requests take no simulated time). Installed before the first sandbox starts, restored
 * after the test.
 */
function controlledRealClock(): { pass: (ms: number) => void; hold: () => void } {
  const realNow = Date.now.bind(Date);
  let ahead = 0;
  let heldAt: number | null = null;
  vi.spyOn(Date, 'now').mockImplementation(() => (heldAt ?? realNow()) + ahead);
  return {
    pass: (ms) => {
      if (heldAt !== null) ahead -= realNow() - heldAt; // real time that went by while held does not count
      heldAt = null;
      ahead += ms;
    },
    hold: () => void (heldAt = realNow()),
  };
}
afterEach(() => {
  vi.restoreAllMocks();
});

describe('restart on the same state file', () => {
  it('keeps credentials, seed and data, and finishes processing that fell due while it was down', async () => {
    const stateFile = join(tempDir(), 'state.db');
    const clock = controlledRealClock();
    const first = await sandbox({ stateFile, speed: 100, seed: undefined });
    const client = new Client(first);
    const batch = (await client.post('/pix/batch', { name: 'survivor' })).body;
    const template = await itemFor(client, nthCpf(1), 100, 'r-0');
    await client.post(`/pix/batch/${batch.id}/items`, Array.from({ length: 20 }, (_, i) => ({ ...template, identifier: `r-${i}` })));
    await client.post(`/pix/batch/${batch.id}/start-process`);
    await first.close();
    clock.pass(600); // down for 0.6 s at speed 100: a simulated minute, when every item (1-5 s) falls due

    const second = await sandbox({ stateFile, speed: 1, seed: undefined });
    expect(second.adminToken).toBe(first.adminToken);
    expect(second.seed).toBe(first.seed);
    const again = new Client(second);
    (again as unknown as { token: string | null }).token = await client.accessToken();
    const items = await again.all(`/pix/batch/${batch.id}/items`, (c) => `/pix/batch/${batch.id}/items/${c}`);
    expect(items.map((i) => i.status)).toEqual(Array(20).fill('paid'));
    expect((await admin(second, 'GET', '/payments')).body).toMatchObject({ identifiers: 20, paidExactlyOnce: 20, paidMoreThanOnce: [] });
  });

  it('resumes webhook deliveries and bill returns that were pending', async () => {
    const stateFile = join(tempDir(), 'state.db');
    const clock = controlledRealClock();
    // Held while the bill is paid: at 100,000 times real time, a loaded machine's pause would carry the payment past
    // the banks' hours (and it would be scheduled, not paid).
    clock.hold();
    const first = await sandbox({ stateFile, speed: 100_000, startTime: '2025-03-10T10:00:00-03:00' });
    const client = new Client(first);
    await client.post('/subscribe/event', { url: 'http://127.0.0.1:9/nobody-listens', secret: 'resume-secret' });
    const code = buildBankBarcode({ bankCode: '001', dueDate: null, amountCents: 5_000, freeField: '0000000000000000000007712' });
    const { amount } = (await client.get(`/cashout/boleto/details/${code}`)).body;
    const paid = (await client.post('/cashout/boleto', { amount, code })).body;
    expect(paid.status).toBe('paid');
    await first.close();
    clock.pass(1_200); // down for 1.2 s at speed 100,000: a day and a half, past the return's date

    const second = await sandbox({ stateFile, speed: 1 });
    const receiver = await new Receiver('resume-secret').start();
    receivers.push(receiver);
    await new Client(second).post('/subscribe/event', { url: receiver.url, secret: receiver.secret });
    await admin(second, 'POST', '/clock/advance', { seconds: 3_600 });
    const categories = await eventually(() => {
      const c = receiver.deliveries.map((d) => d.json.category).sort();
      return c.length === 2 ? c : undefined;
    });
    expect(categories).toEqual(['bill_paid', 'bill_return']);
    const bill = (await admin(second, 'GET', '/bills')).body.bills[0];
    expect(bill).toMatchObject({ status: 'returned', returnReason: BILL_RETURN_REASONS[11]?.received, returnedAt: '2025-03-11T13:00:00.000Z' });
  });
});

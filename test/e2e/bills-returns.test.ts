import { writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { BILL_RETURN_REASONS } from '../../src/domain/reasons.js';
import { decodeBoleto } from '../../src/domain/boleto.js';
import { bankLine, dueDateForBothClocks, SATURDAY_NIGHT } from '../bills/fixtures.js';
import { paybatch, startSandboxProcess, useProcesses, userEnv } from '../helpers/e2e.js';
import { useTempDir } from '../helpers/temp-dir.js';

const tempDir = useTempDir();
const { sandboxes, daemons } = useProcesses();

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

async function until<T>(what: string, probe: () => Promise<T | null>, timeoutMs = 40_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== null) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(300);
  }
}

/** One SPEC row per family of meanings: the sandbox returns a bill whose barcode ends in 77NN with row NN. */
const FAMILIES = [...new Map(BILL_RETURN_REASONS.map((r, i) => [r.family, { ...r, row: i + 1 }])).values()];

interface BillDoc {
  status: string;
  description: string;
  settleDate: string | null;
  returnableUntil: string | null;
  returnReason: string | null;
  returnMeaning: string | null;
  returnedAt: string | null;
}

describe('the due date of the bills these tests pay', () => {
  it('reads as itself on the sandbox\'s pinned clock and on any real date up to 2048, never past due', () => {
    const pinned = SATURDAY_NIGHT.slice(0, 10);
    for (let year = 2025; year <= 2047; year++) {
      for (const monthDay of ['01-01', '06-15', '12-31']) {
        const today = `${year}-${monthDay}`;
        const due = dueDateForBothClocks(new Date(`${today}T12:00:00Z`));
        const line = bankLine({ dueDate: due, tail: '0300' });
        expect(decodeBoleto(line, pinned), `on the pinned ${pinned}, for a real ${today}`).toMatchObject({ valid: true, dueDate: due });
        expect(decodeBoleto(line, today), `on a real ${today}`).toMatchObject({ valid: true, dueDate: due });
        expect(due > pinned).toBe(true);
        if (year < 2039) expect(due > today, `${due} on ${today}`).toBe(true);
      }
    }
    // Past that, no date decodes the same on both clocks: the fixture says so instead of handing out a wrong code.
    expect(() => dueDateForBothClocks(new Date('2048-06-01T12:00:00Z'))).toThrow(/move the pinned week forward/);
  });
});

describe('bill returns (end to end, daemon receiving the callbacks)', () => {
  it('marks a bill returned days later for each family of reasons, with both texts, and alerts support', async () => {
    expect(FAMILIES).toHaveLength(12);
    const dir = tempDir();
    // Saturday night: every bill is scheduled for Monday 08:00; scripted returns come Tuesday 10:00.
    const s = await startSandboxProcess({ state: join(dir, 'provider.db'), args: ['--seed', '7', '--speed', '60', '--start-time', SATURDAY_NIGHT] });
    sandboxes.push(s);
    const env = userEnv(dir, { ...s.env(), PAYBATCH_WEBHOOK_SECRET: 'whsec_cGF5YmF0Y2gtYmlsbHMtZTJlLXNlY3JldA==' });
    const json = async (args: string[]) => {
      const r = await paybatch([...args, '--json'], { env });
      return { ...r, doc: JSON.parse(r.stdout) };
    };

    const port = await freePort();
    const daemon = paybatch(['daemon', '--listen', `127.0.0.1:${port}`, '--public-url', `http://127.0.0.1:${port}/webhooks`, '--interval', '1', '--timeout', '90s'], { env, timeout: 120_000 });
    daemons.push(daemon);
    let log = '';
    daemon.stderr!.on('data', (b: Buffer) => (log += b.toString()));
    await until('the daemon to subscribe', async () => (log.includes('subscribed to provider events') ? true : null), 15_000);

    const file = join(dir, 'contas.csv');
    // paybatch reads the codes on the real date, the sandbox on its pinned one: a due date both read as itself.
    const dueDate = dueDateForBothClocks();
    const rows = FAMILIES.map((f) => `${bankLine({ tail: `77${String(f.row).padStart(2, '0')}`, dueDate })};;${f.family}`);
    writeFileSync(file, ['codigo;valor;descricao', ...rows, `${bankLine({ tail: '0300', dueDate })};;stays paid`].join('\n'));
    const paid = await json(['boleto', 'pay', '--file', file, '--yes']);
    expect(paid.exitCode, paid.stderr).toBe(0);
    expect(paid.doc.counts).toMatchObject({ scheduled: 13 });

    // Four days later: Monday's window settles the payments (bill_paid), Tuesday 10:00 brings the returns.
    await s.admin('clock/advance', { method: 'POST', body: { seconds: 4 * 86_400 } });
    const bills = await until('every return to reach the ledger', async () => {
      const list = (await json(['boleto', 'list'])).doc as BillDoc[];
      return list.filter((b) => b.status === 'returned').length === 12 && list.some((b) => b.status === 'paid') ? list : null;
    });

    for (const f of FAMILIES) {
      const bill = bills.find((b) => b.description === f.family);
      expect(bill, f.family).toMatchObject({ status: 'returned', returnReason: f.received, returnMeaning: f.meaning, returnedAt: '2025-03-11T13:00:00.000Z', returnableUntil: null });
    }
    expect(bills.find((b) => b.description === 'stays paid')).toMatchObject({ status: 'paid', settleDate: '2025-03-10', returnableUntil: '2025-03-17', returnReason: null });

    const alerts = await until('the bill-return alert', async () => {
      const r = await json(['alerts', 'list']);
      const items = (r.doc as { kind: string; items: unknown[] }[]).filter((a) => a.kind === 'bill-return').reduce((n, a) => n + a.items.length, 0);
      return items === 12 ? r : null;
    });
    expect(alerts.exitCode).toBe(4);
    expect(JSON.stringify(alerts.doc)).toContain('returned: 13 - payment deadline exceeded → payment deadline exceeded');

    daemon.kill('SIGTERM');
    const stopped = await daemon;
    daemons.splice(0);
    expect(stopped.exitCode, log).toBe(0);
    expect(log).toMatch(/alert: \d+ bill payments returned by the beneficiary/);
  });
});

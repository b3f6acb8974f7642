import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { bankLine as fixtureBankLine, dueDateForBothClocks, SATURDAY_NIGHT } from '../bills/fixtures.js';
import { paybatch, startSandboxProcess, useProcesses, userEnv } from '../helpers/e2e.js';
import { freePort } from '../helpers/free-port.js';
import { writeSheet } from '../helpers/sheets.js';
import { useTempDir } from '../helpers/temp-dir.js';
import { queryLedger } from '../helpers/test-ledger.js';
import { pdfText } from '../sandbox/pdf-text.js';

/** Bank slips due on a date that paybatch (the real clock) and the sandbox (its pinned clock) both read as itself. */
const bankLine: typeof fixtureBankLine = (o = {}) => fixtureBankLine({ dueDate: dueDateForBothClocks(), ...o });

/**
 * The main job against both dialects of the sandbox, paybatch configured with connection settings only: whatever the
 * provider chooses where its documentation is silent (status words, Pix ids, webhook proof, token authentication,
 * bill details method, dates, event words, reasons), the defaults must carry the job to the end.
 */
const tempDir = useTempDir();
const { sandboxes, daemons } = useProcesses();

const DIALECTS = ['paybatch', 'spec', 'iso'] as const;
type Dialect = (typeof DIALECTS)[number];
/** The unit of Pix amounts each dialect's documentation would give: the user sets it, as docs/provider.md asks. */
const UNIT: Record<Dialect, string> = { paybatch: 'cents', spec: 'cents', iso: 'reais' };
/**
 * `iso` runs with its own faults besides the test's: 429s, duplicated and reordered deliveries. Not its lost ones: a
 * lost bill event cannot be recovered (bills have no lookup in the API; the `bills-without-news` alert covers it), and
 * the main job waits for the bill's return; polling alone is the second test.
 */
const MORE_FAULTS: Record<Dialect, string> = { paybatch: '', spec: '', iso: ',r429=0.02,dupWebhook=0.05,reorderWebhook=0.05' };
/** How each dialect's webhook deliveries prove the secret, as the receiver reports it. */
const PROOF: Record<Dialect, string> = { paybatch: 'standard-webhooks', spec: 'header', iso: 'hmac' };
/** The bill row whose barcode ends in 7701: the sandbox returns it with the first reason of the return table. */
const RETURNED_BILL = { tail: '7701', reason: '12 - validity or due date expired, payment after due date not allowed', meaning: 'due date expired' };

interface PaymentsReport {
  payments: { identifier: string; paid: number; refunded: number }[];
  paidMoreThanOnce: unknown[];
}
interface ItemRow {
  id: number;
  identifier: string;
  status: string;
  attempt: number;
  original_item_id: number | null;
  pix_id: string | null;
  receipt_path: string | null;
}

async function readLedger(env: Record<string, string>) {
  const items = await queryLedger<ItemRow>(env, 'SELECT id, identifier, status, attempt, original_item_id, pix_id, receipt_path FROM items ORDER BY id');
  const bills = await queryLedger<{ status: string; return_reason: string | null; return_meaning: string | null }>(env, 'SELECT status, return_reason, return_meaning FROM bills');
  const alerts = await queryLedger<{ kind: string; items_json: string }>(env, 'SELECT kind, items_json FROM alerts');
  const rows = items
    .filter((i) => i.original_item_id === null)
    .map((root) => {
      const attempts = items.filter((i) => i.id === root.id || i.original_item_id === root.id).sort((a, b) => a.attempt - b.attempt);
      return { root, attempts, last: attempts.at(-1)! };
    });
  return { items, rows, bills, alerts };
}

async function until<T>(what: string, probe: () => T | null | Promise<T | null>, timeoutMs = 90_000, state: () => string | Promise<string> = () => ''): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== null) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what} ${await state()}`);
    await sleep(300);
  }
}

function expectNobodyPaidTwice(payments: PaymentsReport, rows: Awaited<ReturnType<typeof readLedger>>['rows']) {
  expect(payments.paidMoreThanOnce).toEqual([]);
  const byId = new Map(payments.payments.map((p) => [p.identifier, p]));
  for (const row of rows) {
    const net = row.attempts.reduce((s, a) => s + (byId.get(a.identifier)?.paid ?? 0) - (byId.get(a.identifier)?.refunded ?? 0), 0);
    expect(net, `row ${row.root.identifier} (${row.last.status})`).toBe(row.last.status === 'paid' ? 1 : 0);
  }
}

const alertedIdentifiers = (alerts: { kind: string; items_json: string }[], kind: string) =>
  alerts.filter((a) => a.kind === kind).flatMap((a) => (JSON.parse(a.items_json) as { identifier: string }[]).map((i) => i.identifier));

describe.each(DIALECTS)('the main job against the "%s" dialect, with connection settings only', (dialect) => {
  it('import → start → daemon with webhooks → receipts → bill paid, settled and returned → instability returns and rejections paid again', async () => {
    const dir = tempDir();
    const s = await startSandboxProcess({
      state: join(dir, 'provider.db'),
      args: ['--dialect', dialect, '--seed', '21', '--speed', '100', '--start-time', SATURDAY_NIGHT, '--faults', `instabilityReturn=0.15,instabilityRejection=0.1,failed=0.05${MORE_FAULTS[dialect]}`],
    });
    sandboxes.push(s);
    const env = userEnv(dir, { ...s.env(), PAYBATCH_PIX_AMOUNT_UNIT: UNIT[dialect], PAYBATCH_BILL_AMOUNT_UNIT: 'reais', PAYBATCH_WEBHOOK_SECRET: 'e2e-secret-of-the-dialect-test', PAYBATCH_RECEIPTS_DIR: join(dir, 'receipts') });

    const port = await freePort();
    const daemon = paybatch(['daemon', '--listen', `127.0.0.1:${port}`, '--public-url', `http://127.0.0.1:${port}/webhooks`, '--interval', '1', '--timeout', '150s', '--log-format', 'json'], { env, timeout: 180_000 });
    daemons.push(daemon);
    let log = '';
    daemon.stderr!.on('data', (b: Buffer) => (log += b.toString()));
    await until('the daemon to subscribe', () => (log.includes('subscribed to provider events') ? true : null), 20_000);

    const imported = await paybatch(['import', writeSheet(join(dir, 'folha.csv'), 40), '--start', '--yes'], { env });
    expect(imported.exitCode, imported.stderr).toBe(0);

    // Saturday night: the bill is scheduled for Monday's window.
    const pay = await paybatch(['boleto', 'pay', bankLine({ tail: RETURNED_BILL.tail }), '--yes', '--json'], { env });
    expect(pay.exitCode, pay.stderr).toBe(0);
    expect(JSON.parse(pay.stdout)).toMatchObject({ counts: { scheduled: 1 } });

    // Four simulated days: Monday's window pays the bill, then its beneficiary returns it.
    await s.admin('clock/advance', { method: 'POST', body: { seconds: 4 * 86_400 } });

    const done = await until('every payment settled, every refund of the provider seen, every receipt saved, the bill returned', async () => {
      const l = await readLedger(env);
      // A failure is final once the failures alert names it; one for instability is paid again instead.
      const failures = new Set(alertedIdentifiers(l.alerts, 'failures'));
      const settled = l.rows.every((r) => r.last.status === 'paid' || (r.last.status === 'failed' && failures.has(r.last.identifier)));
      const receipts = l.items.filter((i) => i.status === 'paid').every((i) => i.receipt_path !== null);
      const bill = l.bills[0]?.status === 'returned' && alertedIdentifiers(l.alerts, 'bill-return').length === 1;
      // Every refund the provider made is in the ledger, and none is still due (a return falls due seconds after its
      // payment): the items can look settled while a refund's event is on its way, or before the refund is made.
      const provider = await s.admin<PaymentsReport & { pending: number }>('payments');
      const refunds = provider.payments.reduce((n, p) => n + p.refunded, 0);
      const returns = l.items.filter((i) => i.status === 'returned').length;
      return settled && receipts && bill && provider.pending === 0 && refunds === returns ? l : null;
    }, 120_000, async () => {
      const l = await readLedger(env);
      const count = (xs: string[]) => JSON.stringify(xs.reduce<Record<string, number>>((m, x) => ({ ...m, [x]: (m[x] ?? 0) + 1 }), {}));
      const quarantined = await queryLedger<{ quarantine: string; payload_json: string }>(env, 'SELECT quarantine, payload_json FROM webhook_events WHERE quarantine IS NOT NULL');
      const noReceipt = l.items.filter((i) => i.status === 'paid' && i.receipt_path === null);
      return `items ${count(l.items.map((i) => `${i.status}${i.receipt_path ? '+receipt' : ''}`))} bills ${JSON.stringify(l.bills)} alerts ${count(l.alerts.map((a) => a.kind))}\npaid without a receipt ${JSON.stringify(noReceipt)}\nquarantined ${JSON.stringify(quarantined)}\nprovider ${JSON.stringify(await s.admin('payments'))}\n${log.slice(-3000)}`;
    });

    expect(done.rows).toHaveLength(40);
    // Instability returns and rejections were recognised as such (a code or a sentence) and paid again, each by one
    // new attempt at a time; a final rejection was not.
    const reprocessed = done.rows.filter((r) => r.attempts.length > 1);
    expect(new Set(reprocessed.map((r) => r.attempts[0]!.status))).toEqual(new Set(['returned', 'failed']));
    for (const r of reprocessed) expect(r.attempts.map((a) => a.attempt)).toEqual(r.attempts.map((_, i) => i + 1));
    for (const it of done.items.filter((i) => i.status === 'paid')) expect(readFileSync(it.receipt_path!).subarray(0, 5).toString()).toBe('%PDF-');
    expect(done.bills[0]).toEqual({ status: 'returned', return_reason: RETURNED_BILL.reason, return_meaning: RETURNED_BILL.meaning });
    expectNobodyPaidTwice(await s.admin<PaymentsReport>('payments'), done.rows);

    // Receipts go to the profile's folder; a new attempt's beside its sheet's, not into a Reprocess folder.
    const pixFolders = new Set(done.items.filter((i) => i.receipt_path !== null).map((i) => dirname(i.receipt_path!)));
    expect(pixFolders.size).toBe(1);
    expect(dirname([...pixFolders][0]!)).toBe(join(dir, 'receipts', 'default'));
    // The provider's Pix receipt, as a Brazilian provider writes it.
    expect(pdfText(readFileSync(done.items.find((i) => i.status === 'paid')!.receipt_path!))).toContain('Comprovante de pagamento Pix');
    // The bill: its scheduling receipt, then its return notice, each a file of its own.
    await until('the return notice of the bill', async () => {
      const [bill] = await queryLedger<{ document_kind: string | null }>(env, 'SELECT document_kind FROM bills');
      return bill?.document_kind === 'return' ? true : null;
    }, 30_000);
    const billFiles = readdirSync(join(dir, 'receipts', 'default', 'bills'));
    expect(billFiles.filter((f) => f.endsWith('-scheduling.pdf'))).toHaveLength(1);
    expect(billFiles.filter((f) => f.endsWith('-return.pdf'))).toHaveLength(1);

    daemon.kill('SIGTERM');
    await daemon;
    daemons.splice(0);
    // The receiver said which proof the deliveries carried, so the user can pin it.
    expect(log).toContain(`webhook deliveries are proved by ${PROOF[dialect]}`);
    expect(log).not.toContain('e2e-secret-of-the-dialect-test');
  }, 240_000);

  it('with no webhook subscription at all, polling alone settles every item and fetches every receipt it can', async () => {
    const dir = tempDir();
    const s = await startSandboxProcess({ state: join(dir, 'provider.db'), args: ['--dialect', dialect, '--seed', '22', '--speed', '100', '--faults', `failed=0.1${MORE_FAULTS[dialect]}`] });
    sandboxes.push(s);
    const env = userEnv(dir, { ...s.env(), PAYBATCH_PIX_AMOUNT_UNIT: UNIT[dialect], PAYBATCH_BILL_AMOUNT_UNIT: 'reais', PAYBATCH_RECEIPTS_DIR: join(dir, 'receipts'), PAYBATCH_RECEIPT_WAIT: '2s' });

    const imported = await paybatch(['import', writeSheet(join(dir, 'folha.csv'), 30), '--start', '--yes'], { env });
    expect(imported.exitCode, imported.stderr).toBe(0);
    const daemon = await paybatch(['daemon', '--interval', '1', '--until-settled', '--timeout', '90s'], { env, timeout: 120_000 });
    // Failed payments (and, without Pix ids, receipts that cannot be fetched) are attention, not failure.
    expect(daemon.exitCode, daemon.stderr.slice(-2000)).toBe(4);
    expect(daemon.stderr).not.toMatch(/--timeout reached/);

    const l = await readLedger(env);
    expect(l.rows.every((r) => r.last.status === 'paid' || r.last.status === 'failed')).toBe(true);
    const paid = l.items.filter((i) => i.status === 'paid');
    expect(paid.length).toBeGreaterThan(20);
    const unavailable = alertedIdentifiers(l.alerts, 'receipts-unavailable');
    if (dialect !== 'spec') {
      // Its item pages carry the Pix id: every receipt is fetched by polling alone.
      expect(paid.every((i) => i.receipt_path !== null)).toBe(true);
      expect(unavailable).toEqual([]);
    } else {
      // Its item pages never carry the Pix id: each paid item is reported once, and nothing waits for it forever.
      expect(paid.every((i) => i.receipt_path === null && i.pix_id === null)).toBe(true);
      expect(unavailable.sort()).toEqual(paid.map((i) => i.identifier).sort());
    }
    expectNobodyPaidTwice(await s.admin<PaymentsReport>('payments'), l.rows);

    // The next pass reports nothing again (the alerts stay open until acknowledged: attention).
    const again = await paybatch(['daemon', '--once'], { env });
    expect(again.exitCode, again.stderr).toBe(4);
    expect(alertedIdentifiers((await readLedger(env)).alerts, 'receipts-unavailable')).toHaveLength(unavailable.length);
  }, 180_000);

  it('provider check tells what works and what to pin', async () => {
    const dir = tempDir();
    const s = await startSandboxProcess({ state: join(dir, 'provider.db'), args: ['--dialect', dialect, '--start-time', '2025-03-10T10:00:00-03:00'] });
    sandboxes.push(s);
    const env = userEnv(dir, { ...s.env(), PAYBATCH_PIX_AMOUNT_UNIT: UNIT[dialect] });
    const r = await paybatch(['provider', 'check', '--bill', bankLine(), '--json'], { env });
    expect(r.exitCode, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout) as { ready: boolean; steps: { name: string; ok: boolean; unverified?: boolean }[]; recommend: Record<string, string> };
    expect(doc.ready).toBe(true);
    expect(doc.steps.filter((st) => !st.ok)).toEqual([]);
    // The unit is the profile's word: shown as such, never as verified.
    expect(doc.steps.find((st) => st.name === 'amount unit')).toMatchObject({ ok: true, unverified: true });
    expect(doc.recommend).toMatchObject(dialect === 'spec' ? { tokenAuth: 'body', billDetailsMethod: 'GET' } : { tokenAuth: 'basic', billDetailsMethod: 'POST' });
  });
});

describe('a provider whose amounts are reais (the "iso" dialect), and a profile that does not say so', () => {
  it('moves no money while the amount units are unset (Pix and bills), naming the setting; set to the wrong unit, the echo stops the batch before it starts', async () => {
    const dir = tempDir();
    const s = await startSandboxProcess({ state: join(dir, 'provider.db'), args: ['--dialect', 'iso', '--seed', '23', '--speed', '100', '--faults', 'none'] });
    sandboxes.push(s);
    const sheet = writeSheet(join(dir, 'folha.csv'), 3);
    const connectionOnly = Object.fromEntries(Object.entries(s.env()).filter(([k]) => k !== 'PAYBATCH_PIX_AMOUNT_UNIT' && k !== 'PAYBATCH_BILL_AMOUNT_UNIT'));

    const unset = await paybatch(['import', sheet, '--start', '--yes', '--json'], { env: userEnv(join(dir, 'unset'), connectionOnly) });
    expect(unset.exitCode).toBe(1);
    const refusal = JSON.parse(unset.stdout) as { error: { type: string; message: string; hint: string } };
    expect(refusal.error.type).toBe('config_invalid');
    expect(refusal.error.hint).toContain('paybatch config set pixAmountUnit');
    expect(refusal.error.hint).toContain('PAYBATCH_PIX_AMOUNT_UNIT');
    // Refused before anything was written or asked: no batch at the provider, nothing in the ledger to "resume".
    expect((await s.admin<{ batches: unknown[] }>('batches')).batches).toEqual([]);
    expect(JSON.parse((await paybatch(['batch', 'list', '--json'], { env: userEnv(join(dir, 'unset'), connectionOnly) })).stdout)).toEqual([]);

    // Centavos sent to a provider that reads reais: 1107 would pay R$ 1.107,00. Its echo ("1107.00", decimal text) is
    // read as reais, differs from what was sent, and the batch is never started.
    const wrong = await paybatch(['import', sheet, '--start', '--yes', '--json'], { env: userEnv(join(dir, 'wrong'), { ...connectionOnly, PAYBATCH_PIX_AMOUNT_UNIT: 'cents' }) });
    expect(wrong.exitCode).toBe(1);
    expect(wrong.stdout).toContain('amount_mismatch');

    // A bill is money too: its unit is not documented either, so it is not paid until the profile says.
    const bill = await paybatch(['boleto', 'pay', bankLine(), '--yes', '--json'], { env: userEnv(join(dir, 'unset'), connectionOnly) });
    expect(bill.exitCode).toBe(1);
    const billRefusal = JSON.parse(bill.stdout) as { error: { type: string; hint: string } };
    expect(billRefusal.error.type).toBe('config_invalid');
    expect(billRefusal.error.hint).toContain('paybatch config set billAmountUnit reais (or cents), or PAYBATCH_BILL_AMOUNT_UNIT');

    const { payments } = await s.admin<PaymentsReport>('payments');
    expect(payments.filter((p) => p.paid > 0)).toEqual([]);
    expect((await s.admin<{ bills: unknown[] }>('bills')).bills).toEqual([]);

    // provider check says so too: not ready, the unit named, nothing ticked for it.
    const check = await paybatch(['provider', 'check', '--json'], { env: userEnv(join(dir, 'unset'), connectionOnly) });
    expect(check.exitCode).toBe(1);
    const doc = JSON.parse(check.stdout) as { ready: boolean; steps: { name: string; ok: boolean; detail: string }[] };
    expect(doc.ready).toBe(false);
    expect(doc.steps.find((st) => st.name === 'amount unit')).toMatchObject({ ok: false, detail: expect.stringContaining('pixAmountUnit is not set') });
    const human = await paybatch(['provider', 'check'], { env: userEnv(join(dir, 'wrong'), { ...connectionOnly, PAYBATCH_PIX_AMOUNT_UNIT: 'cents' }) });
    expect(human.stdout).toMatch(/amount unit\s+unverified/);
    expect(human.stdout).toContain('not verifiable through it: amount unit');
    expect(human.stdout).not.toContain('Everything payments need works');
  }, 60_000);
});

describe('provider check against a provider that cannot be used', () => {
  it('refused credentials: exit 1, the token step says so, nothing else is tried', async () => {
    const dir = tempDir();
    const s = await startSandboxProcess({ state: join(dir, 'provider.db') });
    sandboxes.push(s);
    const env = userEnv(dir, { ...s.env(), PAYBATCH_CLIENT_SECRET: 'not-the-secret' });
    const r = await paybatch(['provider', 'check', '--json'], { env });
    expect(r.exitCode).toBe(1);
    const doc = JSON.parse(r.stdout) as { ready: boolean; steps: { name: string; ok: boolean; detail: string }[] };
    expect(doc.ready).toBe(false);
    expect(doc.steps).toHaveLength(1);
    expect(doc.steps[0]).toMatchObject({ name: 'token', ok: false });
    expect(doc.steps[0]!.detail).toMatch(/refused the OAuth client credentials/);
    expect(r.stdout + r.stderr).not.toContain('not-the-secret');
  });

  it('a provider that is down: exit 1 with the reason, in a human table too', async () => {
    const dir = tempDir();
    const port = await freePort();
    const env = userEnv(dir, {
      PAYBATCH_BASE_URL: `http://127.0.0.1:${port}`,
      PAYBATCH_TOKEN_URL: `http://127.0.0.1:${port}/oauth/token`,
      PAYBATCH_API_KEY: 'k',
      PAYBATCH_CLIENT_ID: 'c',
      PAYBATCH_CLIENT_SECRET: 's',
      PAYBATCH_REQUEST_TIMEOUT: '2s',
    });
    const r = await paybatch(['provider', 'check'], { env, timeout: 90_000 });
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toMatch(/token\s.*FAILED/);
    expect(r.stdout).toMatch(/refused|could not connect/);
    expect(r.stdout).toContain('Payments cannot work yet');
  }, 100_000);
});

import { chmodSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openLedger } from '../../src/ledger/open-ledger.js';
import { writeBillReceipt } from '../../src/receipts/bill-receipt.js';
import { writePixReceipt } from '../../src/receipts/receipt-file.js';
import { recordImport } from '../../src/ledger/import-repository.js';
import { plannedItem } from '../helpers/ledger-fixture.js';
import { useTempDir } from '../helpers/temp-dir.js';
import { runCli } from '../helpers/test-io.js';

const tempDir = useTempDir();
const mode = (path: string) => statSync(path).mode & 0o777;
const PDF = new TextEncoder().encode('%PDF-1.4\n%%EOF\n');

// The usual umask, which would leave files 0644 and folders 0755 if paybatch did not set modes itself.
let umask: number;
beforeEach(() => {
  umask = process.umask(0o022);
});
afterEach(() => {
  process.umask(umask);
});

describe('private files', () => {
  it('creates the ledger 0600 (with its -wal and -shm) in 0700 folders it makes', async () => {
    const dir = tempDir();
    const file = join(dir, 'data', 'paybatch', 'ledger.db');
    const ledger = await openLedger(file);
    await recordImport(ledger, { fileHash: 'h', fileName: 's.csv', rowCount: 1, batchName: 'A', itemCount: 1, items: [plannedItem(1)], rejectedCount: 0, now: new Date() });
    expect(mode(file)).toBe(0o600);
    expect(mode(`${file}-wal`)).toBe(0o600);
    expect(mode(`${file}-shm`)).toBe(0o600);
    expect(mode(join(dir, 'data'))).toBe(0o700);
    expect(mode(join(dir, 'data', 'paybatch'))).toBe(0o700);
    expect(mode(dir)).toBe(0o700); // made by mkdtemp, left as it was
    await ledger.close();
    expect(readdirSync(join(dir, 'data', 'paybatch'))).toEqual(['ledger.db']);
  });

  it('leaves the modes of folders that already existed alone', async () => {
    const dir = tempDir();
    chmodSync(dir, 0o755);
    await (await openLedger(join(dir, 'ledger.db'))).close();
    expect(mode(dir)).toBe(0o755);
    expect(mode(join(dir, 'ledger.db'))).toBe(0o600);
  });

  it('writes Pix and bill receipts 0600 in 0700 folders', async () => {
    const receipts = join(tempDir(), 'receipts');
    const pix = await writePixReceipt(receipts, { batchName: 'Folha março', row: 2, recipient: 'Ana', endToEndId: 'E1', pdf: PDF });
    expect(mode(receipts)).toBe(0o700);
    expect(mode(join(receipts, 'Folha-marco'))).toBe(0o700);
    expect(mode(pix)).toBe(0o600);
    const bill = await writeBillReceipt(receipts, {
      kind: 'payment', locale: 'en', sandbox: false, amountCents: 1000, billAmountCents: 1000, originalCents: null, discountCents: null, interestCents: null, fineCents: null, payer: 'P', payerDocument: '1', beneficiary: 'B',
      beneficiaryDocument: '2', assignor: 'A', line: '0'.repeat(47), barcode: '0'.repeat(44), dueDate: '2026-11-20', settleDate: '2026-11-20',
      sentAt: new Date('2026-11-20T12:00:00Z'), providerTime: '1', transactionId: 't1', description: null, billId: 1, forced: false,
      returnReason: null, returnMeaning: null, returnedAt: null,
    });
    expect(mode(join(receipts, 'bills'))).toBe(0o700);
    expect(mode(bill)).toBe(0o600);
  });
});

describe('warnings about files others can read', () => {
  const env = (dir: string) => ({ XDG_CONFIG_HOME: join(dir, 'c'), XDG_DATA_HOME: join(dir, 'd'), HOME: dir });

  it('says nothing about what paybatch created itself', async () => {
    const dir = tempDir();
    await runCli(['batch', 'list'], { env: env(dir) });
    const again = await runCli(['batch', 'list'], { env: env(dir) });
    expect(again.code).toBe(0);
    expect(again.stderr).toBe('');
  });

  it('warns once per run, on stderr, about a ledger and a receipts folder others can read', async () => {
    const dir = tempDir();
    const ledger = join(dir, 'd', 'paybatch', 'ledger.db');
    await (await openLedger(ledger)).close();
    chmodSync(ledger, 0o644);
    mkdirSync(join(dir, 'd', 'paybatch', 'receipts'), { mode: 0o755 });
    const r = await runCli(['batch', 'list', '--json'], { env: env(dir) });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([]);
    const warnings = r.stderr.split('\n').filter((l) => l.startsWith('warning:'));
    expect(warnings).toEqual([
      `warning: The receipts folder can be read by other users: ${join(dir, 'd', 'paybatch', 'receipts')} (mode 0755). It holds names, documents, Pix keys and amounts; make it private with: chmod -R go-rwx ${join(dir, 'd', 'paybatch', 'receipts')}`,
      // SQLite gave the -wal and -shm it made on opening the ledger's own mode.
      `warning: The ledger can be read by other users: ${ledger} (mode 0644), ${ledger}-wal (mode 0644), ${ledger}-shm (mode 0644). ` +
        `It holds names, documents, Pix keys and amounts; make it private with: chmod go-rwx ${ledger} ${ledger}-wal ${ledger}-shm`,
    ]);
  });
});

describe('temporary files a killed write left', () => {
  it("are swept: this host's dead processes' at once, anyone's after an hour, never a live writer's fresh one", async () => {
    const { execFileSync } = await import('node:child_process');
    const { utimesSync, writeFileSync } = await import('node:fs');
    const { hostname } = await import('node:os');
    const { sweepTemporaryFiles } = await import('../../src/private-files.js');
    const dir = tempDir();
    const batch = join(dir, 'Folha-novembro');
    mkdirSync(join(batch, 'deeper'), { recursive: true });
    const host = hostname().replace(/[^A-Za-z0-9-]+/g, '-');
    // A process that has ended: its pid names no live process (the kernel does not reuse it this soon).
    const dead = Number(execFileSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).toString());
    const now = new Date();
    const file = (name: string, ageMs = 0) => {
      const path = join(batch, name);
      writeFileSync(path, 'partial');
      const at = new Date(now.getTime() - ageMs);
      utimesSync(path, at, at);
      return path;
    };
    const killed = file(`1-Ana-E1.pdf.${host}.${dead}.1764200000000.tmp`);
    const live = file(`2-Bia-E2.pdf.${host}.${process.pid}.1764200000001.tmp`);
    const otherHost = file(`3-Caio-E3.pdf.other-host.${dead}.1764200000002.tmp`);
    const oldOtherHost = file(`4-Davi-E4.pdf.other-host.${dead}.1764200000003.tmp`, 3_600_001);
    const oldLive = file(`5-Eva-E5.pdf.${host}.${process.pid}.1764200000004.tmp`, 3_600_001);
    const receipt = file('6-Fabio-E6.pdf', 7_200_000);
    // As an older paybatch named them: only their age tells.
    const oldPlain = file('7-Gil-E7.pdf.tmp', 3_600_001);
    const plain = file('8-Hugo-E8.pdf.tmp');
    writeFileSync(join(batch, 'deeper', `x.pdf.${host}.${dead}.1.tmp`), 'partial');

    expect(sweepTemporaryFiles(dir, now, 1).sort()).toEqual([killed, oldOtherHost, oldLive, oldPlain].sort());
    expect(readdirSync(batch).sort()).toEqual(['2-Bia-E2.pdf.' + `${host}.${process.pid}.1764200000001.tmp`, '3-Caio-E3.pdf.other-host.' + `${dead}.1764200000002.tmp`, '6-Fabio-E6.pdf', '8-Hugo-E8.pdf.tmp', 'deeper'].sort());
    expect(statSync(plain).isFile()).toBe(true);
    expect([live, otherHost, receipt].every((p) => statSync(p).isFile())).toBe(true);
    // Below the depth asked for, nothing is touched; a folder that does not exist has nothing to sweep.
    expect(readdirSync(join(batch, 'deeper'))).toHaveLength(1);
    expect(sweepTemporaryFiles(join(dir, 'none'), now, 1)).toEqual([]);
  });

  it('left by a process killed between its write and its rename are swept at once on the same host', async () => {
    const { execFileSync } = await import('node:child_process');
    const { sweepTemporaryFiles } = await import('../../src/private-files.js');
    const dir = tempDir();
    const target = join(dir, 'Folha', '1-Ana-E1.pdf');
    // A real kill: the child's rename kills it, so the temporary file stays as a crash leaves it.
    // Node strips the types of src/ itself; its imports name .js files, which are the .ts files beside them.
    const child = `
      require('node:module').register('data:text/javascript,' + encodeURIComponent(
        'export async function resolve(s, c, next) { try { return await next(s, c); } catch (e) { if (s.endsWith(".js")) return next(s.slice(0, -3) + ".ts", c); throw e; } }'));
      const fs = require('node:fs');
      fs.renameSync = () => process.kill(process.pid, 'SIGKILL');
      require('node:module').syncBuiltinESMExports();
      import(${JSON.stringify(new URL('../../src/private-files.ts', import.meta.url).pathname)}).then((m) => m.writePrivateFile(${JSON.stringify(target)}, 'partial'));`;
    let signal: string | null = null;
    try {
      execFileSync(process.execPath, ['--experimental-strip-types', '--no-warnings', '-e', child], { stdio: 'pipe' });
    } catch (e) {
      signal = (e as { signal: string | null }).signal;
    }
    expect(signal).toBe('SIGKILL');
    const left = readdirSync(join(dir, 'Folha'));
    expect(left).toHaveLength(1);
    expect(left[0]).toMatch(/^1-Ana-E1\.pdf\..+\.tmp$/);
    expect(sweepTemporaryFiles(dir, new Date(), 1)).toEqual([join(dir, 'Folha', left[0]!)]);
    expect(readdirSync(join(dir, 'Folha'))).toEqual([]);
  });
});

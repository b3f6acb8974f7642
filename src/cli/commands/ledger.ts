import type { LedgerCheck } from '../../ledger/ledger-check.js';
import { noOptions, type RawInput, type RegisterCommands } from '../command.js';
import type { Context } from '../context.js';
import type { Output } from '../output.js';
import { optionalText } from '../raw-input.js';

export interface LedgerBackupOptions {
  /** Where to write the copy; absent: beside the ledger, with the time in its name. */
  readonly to?: string;
}

export const registerLedger: RegisterCommands = (program, runner) => {
  const ledger = program.command('ledger').description('back up and check the local ledger');

  ledger
    .command('backup')
    .description('copy the ledger to a private file (0600), consistent even while a daemon writes to it')
    .option('--to <file>', 'where to write the copy (never overwritten; default: beside the ledger, with the time in its name)')
    .addHelpText(
      'after',
      `
paybatch also backs the ledger up by itself before it updates the ledger's schema (the newest three are kept,
named <ledger>.pre-migration-<time>.db). To restore, stop paybatch and copy a backup over the ledger file.

Examples:
  paybatch ledger backup
  paybatch ledger backup --to /mnt/backups/ledger-2026-11-20.db
  paybatch ledger backup --json      # {"path": …, "bytes": …}`,
    )
    .action(runner.action(parseLedgerBackupOptions, runLedgerBackup));

  ledger
    .command('check')
    .description('check the ledger: SQLite integrity, calls without outcome, payments marked paid twice, batch totals')
    .addHelpText(
      'after',
      `
Exit code 0 when all is well, 4 when something needs attention. A call without outcome is one a run was making
when it stopped; when a later call of the same operation succeeded it is listed but needs nothing.

Examples:
  paybatch ledger check
  paybatch ledger check --json`,
    )
    .action(runner.action(noOptions, runLedgerCheck));
};

export function parseLedgerBackupOptions(raw: RawInput): LedgerBackupOptions {
  const to = optionalText(raw, 'to');
  return to === undefined ? {} : { to };
}

export async function runLedgerBackup(ctx: Context, opts: LedgerBackupOptions): Promise<void> {
  const { backupLedger, defaultBackupFile } = await import('../../ledger/backup.js');
  const ledger = await existingLedger(ctx);
  const result = await backupLedger(ledger, opts.to ?? defaultBackupFile(ledger.file, ctx.now()), { numbered: opts.to === undefined });
  ctx.out.result(result, () => ctx.out.print(`${ctx.out.style.green('✓')} Backed up ${ledger.file} to ${result.path} (${result.bytes} bytes).`));
}

export async function runLedgerCheck(ctx: Context): Promise<number> {
  const { checkLedger } = await import('../../ledger/ledger-check.js');
  const { formatBRL } = await import('../../domain/money.js');
  const { ExitCode } = await import('../../errors.js');
  const ledger = await existingLedger(ctx);
  const c = checkLedger(ledger);
  ctx.out.result({ file: ledger.file, ...c }, () => renderLedgerCheck(ctx.out, ledger.file, c, formatBRL));
  return c.clean ? ExitCode.ok : ExitCode.attention;
}

function renderLedgerCheck(out: Output, file: string, c: LedgerCheck, formatBRL: (cents: number) => string): void {
  const open = c.openCalls.filter((x) => !x.settledByRetry).length;
  out.print(`Ledger ${file}`);
  out.print(
    out.table(
      ['check', 'result'],
      [
        ['integrity (SQLite)', c.integrity.length ? `${c.integrity.length} problems` : 'ok'],
        ['provider calls', `${plural(c.calls, 'call')}; ${open} without outcome${c.openCalls.length > open ? ` (+${c.openCalls.length - open} settled by a retry)` : ''}; ${c.strayCalls.length} unpaired`],
        ['paid twice', c.paidTwice.length ? plural(c.paidTwice.length, 'payment') : 'none'],
        ['batch totals', `${plural(c.batches, 'batch')}; ${c.batchMismatches.length ? `${c.batchMismatches.length} differ from their items` : 'all match their items'}`],
      ],
    ),
  );
  if (c.integrity.length) section('SQLite integrity check', ['message'], c.integrity.map((m) => [m]));
  if (c.openCalls.length) {
    section('Calls without outcome (the provider may or may not have acted on them)', ['call', 'operation', 'subject', 'sent at', 'settled by a retry'],
      c.openCalls.map((x) => [x.id, x.operation, x.subject, x.createdAt, x.settledByRetry ? 'yes' : 'no']));
  }
  if (c.strayCalls.length) section('Unpaired call log rows', ['row', 'operation', 'subject', 'problem'], c.strayCalls.map((x) => [x.id, x.operation, x.subject, x.problem]));
  if (c.paidTwice.length) {
    section('Payments marked paid more than once', ['original item', 'identifiers', 'batches'],
      c.paidTwice.map((x) => [x.originalItemId, x.identifiers.join(' '), x.batchIds.map((b) => `#${b}`).join(' ')]));
  }
  if (c.batchMismatches.length) {
    section('Batches whose count or total differ from their items', ['batch', 'name', 'items (batch)', 'items (counted)', 'total (batch)', 'total (counted)'],
      c.batchMismatches.map((x) => [`#${x.batchId}`, x.name, x.itemCount, x.items, formatBRL(x.totalCents), formatBRL(x.itemsTotalCents)]));
  }
  out.print(c.clean ? `${out.style.green('✓')} Nothing needs attention.` : `${out.style.yellow('!')} Something above needs attention.`);

  function section(title: string, head: string[], rows: (string | number)[][]) {
    out.print(`\n${title}:`);
    out.print(out.table(head, rows));
  }
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : word.endsWith('h') ? 'es' : 's'}`;

/** The ledger, which must exist: backing up or checking a ledger that is not there would create an empty one. */
async function existingLedger(ctx: Context) {
  const { existsSync } = await import('node:fs');
  const { ConfigError } = await import('../../errors.js');
  const file = await ctx.ledgerFile();
  if (!existsSync(file)) throw new ConfigError(`There is no ledger at ${file}.`, { hint: 'Pass --ledger <path> (or set PAYBATCH_LEDGER) to name the ledger file.' });
  return ctx.ledger();
}

import type { LedgerCheck } from '../../engine/ledger-admin/index.js';
import type { Ledger } from '../../engine/ledger-door.js';
import { noOptions, type RawInput, type RegisterCommands } from '../command.js';
import type { Context } from '../context.js';
import { ledgerHelp } from '../messages/help/ledger.js';
import type { Output } from '../output.js';
import { flag, optionalText } from '../raw-input.js';

export interface LedgerBackupOptions {
  /** Where to write the copy; absent: beside the ledger, with the time in its name. */
  readonly to?: string;
}

export const registerLedger: RegisterCommands = (program, runner, locale) => {
  const h = ledgerHelp[locale];
  const ledger = program.command('ledger').description(h.group);

  ledger
    .command('migrate')
    .description(h.migrate.description)
    .addHelpText('after', h.migrate.examples)
    .action(runner.action(noOptions, runLedgerMigrate));

  ledger
    .command('copy')
    .description(h.copy.description)
    .requiredOption('--from <file|url>', h.copy.from)
    .option('--to <file|url>', h.copy.to)
    .option('--force', h.copy.force, false)
    .addHelpText('after', h.copy.examples)
    .action(runner.action(parseLedgerCopyOptions, runLedgerCopy));

  ledger
    .command('backup')
    .description(h.backup.description)
    .option('--to <file>', h.backup.to)
    .addHelpText('after', h.backup.examples)
    .action(runner.action(parseLedgerBackupOptions, runLedgerBackup));

  ledger
    .command('check')
    .description(h.check.description)
    .addHelpText('after', h.check.examples)
    .action(runner.action(noOptions, runLedgerCheck));
};

export interface LedgerCopyOptions {
  readonly from: string;
  /** Absent: the profile's ledger. */
  readonly to?: string;
  /** Copy although a daemon holds the source. */
  readonly force: boolean;
}

export function parseLedgerCopyOptions(raw: RawInput): LedgerCopyOptions {
  const to = optionalText(raw, 'to');
  return { from: optionalText(raw, 'from') ?? '', ...(to === undefined ? {} : { to }), force: flag(raw, 'force') };
}

export async function runLedgerMigrate(ctx: Context): Promise<void> {
  const { migrateLedgerAt } = await import('../../engine/ledger-admin/index.js');
  const result = await migrateLedgerAt(await ctx.ledgerFile());
  ctx.out.result(result, () =>
    ctx.out.print(
      result.applied.length
        ? `${ctx.out.style.green('✓')} Ledger ${result.ledger} brought up to date: ${result.applied.join(', ')}.`
        : `${ctx.out.style.green('✓')} Ledger ${result.ledger} is up to date (${result.migrations} migrations).`,
    ),
  );
}

export async function runLedgerCopy(ctx: Context, opts: LedgerCopyOptions): Promise<void> {
  const { existsSync } = await import('node:fs');
  const { resolve } = await import('node:path');
  const { ConfigError } = await import('../../errors.js');
  const { isPostgresUrl } = await import('../../domain/ledger-location.js');
  const { openLedger } = await import('../../engine/ledger-door.js');
  const { copyLedger } = await import('../../engine/ledger-admin/index.js');
  const { formatBRL } = await import('../../domain/money.js');
  // The profile decides the language of what follows, refusals included, even when --to names the target.
  await ctx.locale();
  const target = opts.to ?? (await ctx.ledgerFile());
  const same = isPostgresUrl(opts.from) ? opts.from === target : !isPostgresUrl(target) && resolve(opts.from) === resolve(target);
  if (same) throw new ConfigError('--from and --to name the same ledger.');
  if (!isPostgresUrl(opts.from) && !existsSync(opts.from)) throw new ConfigError(`There is no ledger at ${opts.from} (--from).`);
  const from = await openLedger(opts.from);
  ctx.onClose(() => from.close());
  if (!opts.force) {
    const { daemonsHolding } = await import('../../daemon/lock.js');
    const holders = await daemonsHolding(from, ctx.now());
    if (holders.length) {
      const named = holders.map((h) => (h.kind === 'lock' ? `the daemon pid ${h.pid} on ${h.host}, since ${h.since}` : `${h.holder}, working on ${h.work} until ${h.until}`));
      const { PaybatchError } = await import('../../errors.js');
      throw new PaybatchError(`${from.file} is held by a running daemon (${named.join('; ')}): whatever it writes once the copy has begun would be missing from the copy. Nothing was copied.`, {
        hint: 'Stop the daemon first (SIGTERM; systemctl stop), then copy; or pass --force to copy what the ledger holds now.',
      });
    }
  }
  const to = await openLedger(target);
  ctx.onClose(() => to.close());
  const result = await copyLedger(from, to);
  ctx.out.result({ from: from.file, to: to.file, ...result }, () => {
    ctx.out.print(
      ctx.out.table(
        ['table', 'rows', 'centavos by status (equal on both sides)'],
        result.tables.map((t) => [t.table, t.rows, t.cents ? Object.entries(t.cents).map(([status, cents]) => `${status} ${formatBRL(cents)}`).join('; ') : '']),
      ),
    );
    ctx.out.print(`${ctx.out.style.green('✓')} Copied ${from.file} to ${to.file}; every table's rows and sums match.`);
  });
}

export function parseLedgerBackupOptions(raw: RawInput): LedgerBackupOptions {
  const to = optionalText(raw, 'to');
  return to === undefined ? {} : { to };
}

export async function runLedgerBackup(ctx: Context, opts: LedgerBackupOptions): Promise<void> {
  const { backupLedger, defaultBackupFile } = await import('../../engine/ledger-admin/index.js');
  const ledger = await existingLedger(ctx);
  if (ledger.dialect === 'postgres') {
    const { ConfigError } = await import('../../errors.js');
    throw new ConfigError(`The ledger ${ledger.file} is a PostgreSQL database: back it up with PostgreSQL's own tools.`, {
      hint: 'pg_dump --format=custom (or your server\'s continuous archiving); paybatch ledger copy --to <file.db> also makes an SQLite copy.',
    });
  }
  const result = await backupLedger(ledger, opts.to ?? defaultBackupFile(ledger.file, ctx.now()), { numbered: opts.to === undefined });
  ctx.out.result(result, () => ctx.out.print(`${ctx.out.style.green('✓')} Backed up ${ledger.file} to ${result.path} (${result.bytes} bytes).`));
}

export async function runLedgerCheck(ctx: Context): Promise<number> {
  const { checkLedger } = await import('../../engine/ledger-admin/index.js');
  const { formatBRL } = await import('../../domain/money.js');
  const { ExitCode } = await import('../../errors.js');
  const ledger = await existingLedger(ctx);
  const c = await checkLedger(ledger);
  ctx.out.result({ file: ledger.file, dialect: ledger.dialect, ...c }, () => renderLedgerCheck(ctx.out, ledger, c, formatBRL));
  return c.clean ? ExitCode.ok : ExitCode.attention;
}

function renderLedgerCheck(out: Output, ledger: Pick<Ledger, 'file' | 'dialect'>, c: LedgerCheck, formatBRL: (cents: number) => string): void {
  const open = c.openCalls.filter((x) => !x.settledByRetry).length;
  out.print(`Ledger ${ledger.file}`);
  out.print(
    out.table(
      ['check', 'result'],
      [
        ledger.dialect === 'sqlite'
          ? ['integrity (SQLite)', c.integrity.length ? `${c.integrity.length} problems` : 'ok']
          : ['integrity (PostgreSQL)', 'checked by the server itself'],
        ['provider calls', `${plural(c.calls, 'call')}; ${open} without outcome${c.openCalls.length > open ? ` (+${c.openCalls.length - open} settled by a retry)` : ''}; ${c.strayCalls.length} unpaired`],
        ['paid twice', c.paidTwice.length ? plural(c.paidTwice.length, 'payment') : 'none'],
        ['batch totals', `${plural(c.batches, 'batch')}; ${c.batchMismatches.length ? `${c.batchMismatches.length} differ from their items` : 'all match their items'}`],
        ['remote batches', `${c.strayBatches.length ? `${plural(c.strayBatches.length, 'stray batch')} at the provider` : 'no stray batch'}; ${c.refusedBatches.length ? `${plural(c.refusedBatches.length, 'batch')} refused by the provider` : 'none refused'}`],
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
  if (c.strayBatches.length) {
    section('Remote batches a run created after losing its claim (delete them at the provider)', ['batch', 'remote batch', 'found at', 'why it is still there'],
      c.strayBatches.map((x) => [`#${x.batchId}`, x.remoteId, x.foundAt, x.reason ?? 'not looked at yet (the daemon deletes it while it is empty)']));
  }
  if (c.refusedBatches.length) {
    section("Batches the provider keeps refusing (the daemon no longer sends them; see 'paybatch batch show')", ['batch'], c.refusedBatches.map((id) => [`#${id}`]));
  }
  out.print(c.clean ? `${out.style.green('✓')} Nothing needs attention.` : `${out.style.yellow('!')} Something above needs attention.`);

  function section(title: string, head: string[], rows: (string | number)[][]) {
    out.print(`\n${title}:`);
    out.print(out.table(head, rows));
  }
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : word.endsWith('h') ? 'es' : 's'}`;

/**
 * The ledger, which must exist: backing up or checking a ledger that is not there would create an empty one. (A
 * PostgreSQL ledger is a database someone made on purpose: opening it makes the tables.)
 */
async function existingLedger(ctx: Context) {
  const { existsSync } = await import('node:fs');
  const { ConfigError } = await import('../../errors.js');
  const { isPostgresUrl } = await import('../../domain/ledger-location.js');
  const file = await ctx.ledgerFile();
  if (!isPostgresUrl(file) && !existsSync(file)) throw new ConfigError(`There is no ledger at ${file}.`, { hint: 'Pass --ledger <path> (or set PAYBATCH_LEDGER) to name the ledger file.' });
  return ctx.ledger();
}

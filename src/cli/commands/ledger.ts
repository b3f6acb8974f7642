import type { LedgerCheck } from '../../engine/ledger-admin/index.js';
import type { Ledger } from '../../engine/ledger-door.js';
import { noOptions, type RawInput, type RegisterCommands } from '../command.js';
import type { Context } from '../context.js';
import { ledgerHelp } from '../messages/help/ledger.js';
import { ledgerMessages, type LedgerMessages } from '../messages/ledger.js';
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
  const m = ledgerMessages[await ctx.locale()];
  const result = await migrateLedgerAt(await ctx.ledgerFile());
  ctx.out.result(result, () =>
    ctx.out.print(
      `${ctx.out.style.green('✓')} ${result.applied.length ? m.upToDateApplied(result.ledger, result.applied.join(', ')) : m.upToDate(result.ledger, result.migrations)}`,
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
  const m = ledgerMessages[await ctx.locale()];
  const target = opts.to ?? (await ctx.ledgerFile());
  const same = isPostgresUrl(opts.from) ? opts.from === target : !isPostgresUrl(target) && resolve(opts.from) === resolve(target);
  if (same) throw new ConfigError(m.sameLedger);
  if (!isPostgresUrl(opts.from) && !existsSync(opts.from)) throw new ConfigError(m.noLedgerFrom(opts.from));
  const from = await openLedger(opts.from);
  ctx.onClose(() => from.close());
  if (!opts.force) {
    const { daemonsHolding } = await import('../../daemon/lock.js');
    const holders = await daemonsHolding(from, ctx.now());
    if (holders.length) {
      const { PaybatchError } = await import('../../errors.js');
      throw new PaybatchError(m.heldByDaemon(from.file, holders.map((h) => m.holder(h)).join('; ')), { hint: m.heldHint });
    }
  }
  const to = await openLedger(target);
  ctx.onClose(() => to.close());
  const result = await copyLedger(from, to);
  ctx.out.result({ from: from.file, to: to.file, ...result }, () => {
    ctx.out.print(
      ctx.out.table(
        [...m.copyHead],
        result.tables.map((t) => [t.table, t.rows, t.cents ? Object.entries(t.cents).map(([status, cents]) => `${status} ${formatBRL(cents)}`).join('; ') : '']),
      ),
    );
    ctx.out.print(`${ctx.out.style.green('✓')} ${m.copied(from.file, to.file)}`);
  });
}

export function parseLedgerBackupOptions(raw: RawInput): LedgerBackupOptions {
  const to = optionalText(raw, 'to');
  return to === undefined ? {} : { to };
}

export async function runLedgerBackup(ctx: Context, opts: LedgerBackupOptions): Promise<void> {
  const { backupLedger, defaultBackupFile } = await import('../../engine/ledger-admin/index.js');
  const m = ledgerMessages[await ctx.locale()];
  const ledger = await existingLedger(ctx, m);
  if (ledger.dialect === 'postgres') {
    const { ConfigError } = await import('../../errors.js');
    throw new ConfigError(m.postgresBackup(ledger.file), { hint: m.postgresBackupHint });
  }
  const result = await backupLedger(ledger, opts.to ?? defaultBackupFile(ledger.file, ctx.now()), { numbered: opts.to === undefined });
  ctx.out.result(result, () => ctx.out.print(`${ctx.out.style.green('✓')} ${m.backedUp(ledger.file, result.path, result.bytes)}`));
}

export async function runLedgerCheck(ctx: Context): Promise<number> {
  const { checkLedger } = await import('../../engine/ledger-admin/index.js');
  const { formatBRL } = await import('../../domain/money.js');
  const { ExitCode } = await import('../../errors.js');
  const m = ledgerMessages[await ctx.locale()];
  const ledger = await existingLedger(ctx, m);
  const c = await checkLedger(ledger);
  ctx.out.result({ file: ledger.file, dialect: ledger.dialect, ...c }, () => renderLedgerCheck(ctx.out, m, ledger, c, formatBRL));
  return c.clean ? ExitCode.ok : ExitCode.attention;
}

function renderLedgerCheck(out: Output, m: LedgerMessages, ledger: Pick<Ledger, 'file' | 'dialect'>, c: LedgerCheck, formatBRL: (cents: number) => string): void {
  const open = c.openCalls.filter((x) => !x.settledByRetry).length;
  out.print(m.ledgerTitle(ledger.file));
  out.print(
    out.table(
      [...m.checkHead],
      [
        ledger.dialect === 'sqlite'
          ? [m.integritySqlite, c.integrity.length ? m.integrityProblems(c.integrity.length) : m.ok]
          : [m.integrityPostgres, m.checkedByServer],
        [m.providerCalls, m.calls(c.calls, open, c.openCalls.length - open, c.strayCalls.length)],
        [m.paidTwice, c.paidTwice.length ? m.payments(c.paidTwice.length) : m.none],
        [m.batchTotals, m.batchTotalsResult(c.batches, c.batchMismatches.length)],
        [m.remoteBatches, m.remoteBatchesResult(c.strayBatches.length, c.refusedBatches.length)],
      ],
    ),
  );
  if (c.integrity.length) section(m.integrityTitle, m.messageHead, c.integrity.map((x) => [x]));
  if (c.openCalls.length) {
    section(m.openTitle, m.openHead, c.openCalls.map((x) => [x.id, x.operation, x.subject, m.time(x.createdAt), x.settledByRetry ? m.yes : m.no]));
  }
  if (c.strayCalls.length) section(m.strayCallsTitle, m.strayCallsHead, c.strayCalls.map((x) => [x.id, x.operation, x.subject, x.problem]));
  if (c.paidTwice.length) {
    section(m.paidTwiceTitle, m.paidTwiceHead, c.paidTwice.map((x) => [x.originalItemId, x.identifiers.join(' '), x.batchIds.map((b) => `#${b}`).join(' ')]));
  }
  if (c.batchMismatches.length) {
    section(m.mismatchTitle, m.mismatchHead,
      c.batchMismatches.map((x) => [`#${x.batchId}`, x.name, x.itemCount, x.items, formatBRL(x.totalCents), formatBRL(x.itemsTotalCents)]));
  }
  if (c.strayBatches.length) {
    section(m.strayBatchesTitle, m.strayBatchesHead, c.strayBatches.map((x) => [`#${x.batchId}`, x.remoteId, m.time(x.foundAt), x.reason ?? m.notLookedAt]));
  }
  if (c.refusedBatches.length) section(m.refusedTitle, m.refusedHead, c.refusedBatches.map((id) => [`#${id}`]));
  out.print(c.clean ? `${out.style.green('✓')} ${m.clean}` : `${out.style.yellow('!')} ${m.attention}`);

  function section(title: string, head: readonly string[], rows: (string | number)[][]) {
    out.print(`\n${title}:`);
    out.print(out.table([...head], rows));
  }
}

/**
 * The ledger, which must exist: backing up or checking a ledger that is not there would create an empty one. (A
 * PostgreSQL ledger is a database someone made on purpose: opening it makes the tables.)
 */
async function existingLedger(ctx: Context, m: LedgerMessages) {
  const { existsSync } = await import('node:fs');
  const { ConfigError } = await import('../../errors.js');
  const { isPostgresUrl } = await import('../../domain/ledger-location.js');
  const file = await ctx.ledgerFile();
  if (!isPostgresUrl(file) && !existsSync(file)) throw new ConfigError(m.noLedger(file), { hint: m.noLedgerHint });
  return ctx.ledger();
}

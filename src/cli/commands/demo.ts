import { join } from 'node:path';
import { UsageError } from '../../errors.js';
import { PACKAGE_ROOT } from '../../package-root.js';
import type { RawInput, RegisterCommands } from '../command.js';
import type { BatchOutcomes } from '../../engine/batches/index.js';
import type { Context } from '../context.js';
import { demoMessages, type DemoMessages } from '../messages/demo.js';
import { demoHelp } from '../messages/help/demo.js';
import type { Output } from '../output.js';
import { optionalText, text } from '../raw-input.js';

const DEMO_FAULTS = 'failed=0.01,instabilityReturn=0.02,dupWebhook=0.05,reorderWebhook=0.05';
const DEMO_SHEET = join(PACKAGE_ROOT, 'fixtures', 'pagamentos-exemplo.csv');

export interface DemoOptions {
  readonly sheet: string;
  /** Folder for the demo ledger and receipts; absent: a new temporary folder. */
  readonly dir?: string;
  readonly timeoutSeconds: number;
}

export const registerDemo: RegisterCommands = (program, runner, locale) => {
  const h = demoHelp[locale];
  program
    .command('demo')
    .description(h.description)
    .option('--sheet <csv>', h.sheet, DEMO_SHEET)
    .option('--dir <dir>', h.dir)
    .option('--timeout <seconds>', h.timeout, '50')
    .action(runner.action(parseDemoOptions, runDemo));
};

export function parseDemoOptions(raw: RawInput): DemoOptions {
  const timeout = text(raw, 'timeout', '50');
  const timeoutSeconds = Number(timeout);
  if (timeout.trim() === '' || !Number.isFinite(timeoutSeconds) || timeoutSeconds <= 0) {
    throw new UsageError(`--timeout must be a number of seconds above zero, not "${timeout}".`);
  }
  const dir = optionalText(raw, 'dir');
  return { sheet: text(raw, 'sheet', DEMO_SHEET), ...(dir === undefined ? {} : { dir }), timeoutSeconds };
}

/** What the demo did, as `paybatch demo --json` prints it. */
interface DemoSummary extends BatchOutcomes {
  readonly folder: string;
  readonly batch: { readonly id: number; readonly remoteId: string | null; readonly items: number; readonly totalCents: number };
  readonly receiptsDir: string;
  readonly alerts: number;
  readonly timedOut: boolean;
}

export async function runDemo(ctx: Context, opts: DemoOptions): Promise<number> {
  const { mkdtemp, mkdir } = await import('node:fs/promises');
  const { tmpdir } = await import('node:os');
  const { randomBytes } = await import('node:crypto');
  const { openLedger } = await import('../../engine/ledger-door.js');
  const { batchOutcomes } = await import('../../engine/batches/index.js');
  const { connectProvider } = await import('../connect-provider.js');
  const { commitImport, prepareImport } = await import('../../engine/pix-import/index.js');
  const { runDaemon } = await import('../../daemon/run-daemon.js');
  const { daemonDeps } = await import('../daemon-deps.js');
  const { daemonLogger } = await import('../daemon-logger.js');
  const { progressReporter } = await import('../progress.js');
  const { formatBRL } = await import('../../domain/money.js');
  const { ExitCode } = await import('../../errors.js');

  const dir = opts.dir ?? (await mkdtemp(join(tmpdir(), 'paybatch-demo-')));
  await mkdir(dir, { recursive: true });
  const receiptsDir = join(dir, 'receipts');
  const base = await ctx.profile();
  const words = demoMessages[await ctx.locale()];
  // The demo always runs on the embedded sandbox, sped up, with a few faults so every path shows.
  const settings = { ...base.settings, sandboxSpeed: Math.max(base.settings.sandboxSpeed, 3600), sandboxFaults: base.settings.sandboxFaults ?? DEMO_FAULTS };
  const profile = { ...base, settings, embeddedSandbox: true, receiptsDir };
  const ledger = await openLedger(join(dir, 'ledger.db'));
  ctx.onClose(() => ledger.close());
  const { client, close } = await connectProvider(profile, { sandboxState: join(dir, 'sandbox.db'), out: ctx.out });
  ctx.onClose(close);
  ctx.out.info(words.folder(dir));

  const { onProgress, spinner } = await progressReporter(ctx.out);
  const importDeps = { ledger, provider: async () => client, settings, now: ctx.now, onProgress };
  // The demo's own sheet, in a fresh ledger: its plan is taken as it is.
  const imported = await (async () => {
    const prepared = await prepareImport(importDeps, { file: opts.sheet, dryRun: false, start: true, skipInvalid: false, allowDuplicates: false });
    return prepared.kind === 'done' ? prepared.result : commitImport(importDeps, prepared.plan);
  })().finally(() => spinner.stop());
  // The demo sheet fits in one batch.
  const batch = imported.batches[0]!;
  ctx.out.info(words.following(batch.id, batch.item_count, formatBRL(batch.total_cents)));

  const log = daemonLogger(ctx.out, 'pretty', (line) => (ctx.globals.quiet ? undefined : ctx.io.stderr.write(`${line}\n`)));
  const deps = await daemonDeps({ ledger, provider: client, now: ctx.now, profile, log, signal: new AbortController().signal, alerts: 'ledger-only' });
  const result = await runDaemon(deps, {
    once: false,
    intervalSeconds: 0.5,
    listen: { host: '127.0.0.1', port: 0 },
    subscribeUrl: 'auto',
    webhook: { method: 'standard-webhooks', secret: randomBytes(24).toString('hex'), header: settings.webhookSecretHeader },
    untilSettled: true,
    timeoutSeconds: opts.timeoutSeconds,
  });

  const doc: DemoSummary = {
    folder: dir,
    batch: { id: batch.id, remoteId: batch.remote_id, items: batch.item_count, totalCents: batch.total_cents },
    ...(await batchOutcomes(ledger, batch.id)),
    receiptsDir,
    alerts: result.last?.openAlerts ?? 0,
    timedOut: result.timedOut,
  };
  ctx.out.result(doc, () => renderDemo(ctx.out, doc, { ledgerFile: join(dir, 'ledger.db'), formatBRL, words }));
  return doc.timedOut ? ExitCode.attention : ExitCode.ok;
}

function renderDemo(out: Output, doc: DemoSummary, o: { ledgerFile: string; formatBRL: (cents: number) => string; words: DemoMessages }): void {
  const s = out.style;
  const w = o.words;
  out.print(s.bold(w.title));
  // Receipts are counted against the paid payments; those of payments returned afterwards stand on their own line.
  const otherReceipts: [string, number][] = doc.otherReceipts > 0 ? [[w.otherReceipts, doc.otherReceipts]] : [];
  out.print(
    out.table(
      ['', ''],
      [
        [w.rows, doc.rows],
        [w.paid, `${doc.paid} (${o.formatBRL(doc.paidCents)})`],
        [w.paidAfterReprocess, doc.paidAfterReprocess],
        [w.failed, doc.failed],
        [w.returnedFinal, doc.returnedFinal],
        [w.open, doc.open],
        [w.receipts, w.receiptsIn(doc.paidReceipts, doc.paid, doc.receiptsDir)],
        ...otherReceipts,
        [w.alerts, `${doc.alerts} (paybatch --ledger ${o.ledgerFile} alerts list)`],
      ],
    ),
  );
  if (doc.timedOut) out.warn(w.timedOut);
}

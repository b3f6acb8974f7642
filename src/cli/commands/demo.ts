import { fileURLToPath } from 'node:url';
import type { RegisterCommands } from '../command.js';

const DEMO_FAULTS = 'failed=0.01,instabilityReturn=0.02,dupWebhook=0.05,reorderWebhook=0.05';

export const registerDemo: RegisterCommands = (program, runner) => {
  program
    .command('demo')
    .description('the main job on the embedded sandbox, start to end, in a fresh ledger (what `npm start` runs)')
    .option('--sheet <csv>', 'the sheet to pay', fileURLToPath(new URL('../../../fixtures/pagamentos-exemplo.csv', import.meta.url)))
    .option('--dir <dir>', 'folder for the demo ledger and receipts (default: a new temporary folder)')
    .option('--timeout <seconds>', 'give up after this many seconds', '50')
    .action(
      runner.action<{ sheet: string; dir?: string; timeout: string }>(async (ctx, flags) => {
        const { mkdtemp, mkdir } = await import('node:fs/promises');
        const { tmpdir } = await import('node:os');
        const { join } = await import('node:path');
        const { randomBytes } = await import('node:crypto');
        const { openLedger } = await import('../../ledger/open-ledger.js');
        const { connectProvider } = await import('../connect-provider.js');
        const { importSheet } = await import('../../engine/import-sheet.js');
        const { runDaemon } = await import('../../daemon/run-daemon.js');
        const { daemonLogger } = await import('../daemon-logger.js');
        const { progressReporter } = await import('../progress.js');
        const { formatBRL } = await import('../../domain/money.js');
        const { ExitCode } = await import('../../errors.js');

        const dir = flags.dir ?? (await mkdtemp(join(tmpdir(), 'paybatch-demo-')));
        await mkdir(dir, { recursive: true });
        const receiptsDir = join(dir, 'receipts');
        const base = await ctx.profile();
        // The demo always runs on the embedded sandbox, sped up, with a few faults so every path shows.
        const settings = { ...base.settings, sandboxSpeed: Math.max(base.settings.sandboxSpeed, 3600), sandboxFaults: base.settings.sandboxFaults ?? DEMO_FAULTS };
        const profile = { ...base, settings, embeddedSandbox: true, receiptsDir };
        const ledger = await openLedger(join(dir, 'ledger.db'));
        ctx.onClose(() => ledger.close());
        const { client, close } = await connectProvider(profile, { sandboxState: join(dir, 'sandbox.db'), out: ctx.out });
        ctx.onClose(close);
        ctx.out.info(`Demo folder: ${dir}`);

        const { onProgress, spinner } = await progressReporter(ctx.out);
        const imported = await importSheet(
          { ledger, provider: async () => client, settings, now: ctx.now, onProgress, confirm: async () => true },
          { file: flags.sheet, dryRun: false, start: true, skipInvalid: false, allowDuplicates: false },
        ).finally(() => spinner.stop());
        const batch = imported.batch!;
        ctx.out.info(`Batch #${batch.id} started: ${batch.item_count} payments, ${formatBRL(batch.total_cents)}. Following them to the end…`);

        const log = daemonLogger(ctx.out, 'pretty', (line) => (ctx.globals.quiet ? undefined : ctx.io.stderr.write(`${line}\n`)));
        const result = await runDaemon(
          {
            ledger,
            provider: client,
            now: ctx.now,
            settings,
            receiptsDir,
            profile: profile.name,
            sandbox: true,
            send: async () => [],
            log,
            signal: new AbortController().signal,
            onCallback: (await import('../../engine/apply-callback.js')).applyCallback,
          },
          {
            once: false,
            intervalSeconds: 0.5,
            listen: { host: '127.0.0.1', port: 0 },
            subscribeUrl: 'auto',
            webhook: { method: 'standard-webhooks', secret: randomBytes(24).toString('hex'), header: settings.webhookSecretHeader },
            untilSettled: true,
            timeoutSeconds: Number(flags.timeout),
          },
        );

        const summary = ledger.raw
          .prepare(
            `SELECT original.line AS line,
               (SELECT status FROM items last WHERE coalesce(last.original_item_id, last.id) = original.id ORDER BY attempt DESC LIMIT 1) AS outcome,
               (SELECT max(attempt) FROM items a WHERE coalesce(a.original_item_id, a.id) = original.id) AS attempts,
               original.amount_cents AS cents
             FROM items original WHERE original.batch_id = ?`,
          )
          .all(batch.id) as { line: number; outcome: string; attempts: number; cents: number }[];
        const count = (f: (r: (typeof summary)[number]) => boolean) => summary.filter(f).length;
        const paid = summary.filter((r) => r.outcome === 'paid');
        const doc = {
          folder: dir,
          batch: { id: batch.id, remoteId: batch.remote_id, items: batch.item_count, totalCents: batch.total_cents },
          rows: summary.length,
          paid: paid.length,
          paidCents: paid.reduce((s, r) => s + r.cents, 0),
          paidAfterReprocess: count((r) => r.outcome === 'paid' && r.attempts > 1),
          failed: count((r) => r.outcome === 'failed'),
          returnedFinal: count((r) => r.outcome === 'returned'),
          open: count((r) => !['paid', 'failed', 'returned'].includes(r.outcome)),
          receipts: (ledger.raw.prepare('SELECT count(*) AS n FROM items WHERE receipt_path IS NOT NULL').get() as { n: number }).n,
          receiptsDir,
          alerts: result.last?.openAlerts ?? 0,
          timedOut: result.timedOut,
        };
        ctx.out.result(doc, () => {
          const s = ctx.out.style;
          ctx.out.print(s.bold(`\npaybatch demo — SANDBOX, no real money`));
          ctx.out.print(
            ctx.out.table(
              ['', ''],
              [
                ['rows in the sheet', doc.rows],
                ['paid', `${doc.paid} (${formatBRL(doc.paidCents)})`],
                ['  of which after reprocessing a Pix instability return', doc.paidAfterReprocess],
                ['failed at the provider', doc.failed],
                ['returned for good', doc.returnedFinal],
                ['still open', doc.open],
                ['receipts saved', `${doc.receipts} in ${receiptsDir}`],
                ['alerts for support', `${doc.alerts} (paybatch --ledger ${join(dir, 'ledger.db')} alerts list)`],
              ],
            ),
          );
          if (doc.timedOut) ctx.out.warn('the demo stopped at its time limit with payments still open');
        });
        return doc.timedOut ? ExitCode.attention : ExitCode.ok;
      }),
    );
};

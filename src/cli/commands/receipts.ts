import type { RegisterCommands } from '../command.js';

export const registerReceipts: RegisterCommands = (program, runner) => {
  const receipts = program.command('receipts').description('receipt PDFs of paid items');
  receipts
    .command('fetch')
    .description('save the receipt of every paid item that has none yet (as the daemon does)')
    .option('--batch <id>', 'only this batch (local #id or provider id)')
    .option('--out <dir>', 'folder to write to (default: the profile\'s receiptsDir)')
    .option('--again', 'fetch receipts already saved too', false)
    .action(
      runner.action<{ batch?: string; out?: string; again: boolean }>(async (ctx, flags) => {
        const { fetchReceipts } = await import('../../engine/fetch-receipts.js');
        const { findBatch } = await import('../../ledger/batch-repository.js');
        const { UsageError, ExitCode } = await import('../../errors.js');
        const ledger = await ctx.ledger();
        const batch = flags.batch === undefined ? undefined : findBatch(ledger, flags.batch);
        if (flags.batch !== undefined && !batch) throw new UsageError(`No batch "${flags.batch}" in the ledger.`);
        const profile = await ctx.profile();
        const result = await fetchReceipts(
          { ledger, provider: await ctx.provider(), receiptsDir: flags.out ?? profile.receiptsDir, now: ctx.now },
          { batchId: batch?.id, again: flags.again || flags.out !== undefined },
        );
        ctx.out.result(result, () => {
          ctx.out.print(`✓ ${result.saved.length} receipts saved${result.saved.length ? ` under ${flags.out ?? profile.receiptsDir}` : ''}.`);
          for (const f of result.failed) ctx.out.warn(`receipt of ${f.identifier}: ${f.error}`);
        });
        return result.failed.length ? ExitCode.attention : ExitCode.ok;
      }),
    );
};

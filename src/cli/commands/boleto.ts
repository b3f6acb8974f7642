import { ExitCode, UsageError } from '../../errors.js';
import type { BillOutcome, InspectedBill, PreparedBill } from '../../engine/pay-bill.js';
import type { BillRow } from '../../ledger/bill-repository.js';
import type { RegisterCommands } from '../command.js';
import type { Context } from '../context.js';

interface PayFlags {
  amount?: string;
  file?: string;
  description?: string;
  yes: boolean;
  force: boolean;
}

export const registerBoleto: RegisterCommands = (program, runner) => {
  const boleto = program.command('boleto').description('decode, inspect and pay bills (boletos, utility and government bills)');
  boleto
    .command('decode')
    .description('decode and check a digit line or barcode offline')
    .argument('<line-or-barcode...>', 'the 47/48-digit line or the 44-digit barcode (dots, spaces and dashes allowed; may be split in parts)')
    .addHelpText('after', '\nExamples:\n  paybatch boleto decode "23793.38128 60007.827136 95000.063305 5 16560000150000"\n  paybatch boleto decode 83680000000-9 87450048001-5 23456789012-9 34567890123-1 --json')
    .action(
      runner.action(async (ctx, _opts, parts) => {
        const { decodeBoleto } = await import('../../domain/boleto.js');
        const { saoPauloDate } = await import('../../domain/bank-calendar.js');
        const { formatBRL } = await import('../../domain/money.js');
        const d = decodeBoleto(parts.join(' '), saoPauloDate(ctx.now()));
        const doc = {
          input: d.input,
          valid: d.valid,
          kind: d.kind,
          barcode: d.barcode,
          line: d.line,
          amountCents: d.amountCents,
          dueDate: d.dueDate,
          bankCode: d.bankCode,
          segment: d.segment,
          segmentName: d.segmentName,
          valueIsReference: d.valueIsReference,
          companyCode: d.companyCode,
          error: d.error,
        };
        ctx.out.result(doc, () => {
          const s = ctx.out.style;
          const amount = d.amountCents === null ? null : d.amountCents === 0 ? 'payer supplies the amount' : formatBRL(d.amountCents);
          const rows: [string, string | number | null][] = [
            ['valid', d.valid ? s.green('yes') : s.red(`no: ${d.error}`)],
            ['kind', d.kind === 'bank' ? 'bank slip' : d.kind === 'collection' ? 'collection slip (utility/government)' : null],
            ['line', d.line],
            ['barcode', d.barcode],
            ['bank', d.bankCode],
            ['segment', d.segment === null ? null : `${d.segment} ${d.segmentName ?? ''}`.trim()],
            ['company', d.companyCode],
            [d.valueIsReference ? 'reference value' : 'amount', amount],
            ['due date', d.dueDate ?? (d.kind === 'bank' && d.valid ? 'none' : null)],
          ];
          ctx.out.print(ctx.out.table(['field', 'value'], rows.filter(([, v]) => v !== null)));
        });
        return d.valid ? ExitCode.ok : ExitCode.inputRejected;
      }),
    );

  boleto
    .command('details')
    .description("check a bill offline, then show the provider's details: beneficiary, amount, due date, limits, bank window")
    .argument('<line-or-barcode...>', 'the 47/48-digit line or the 44-digit barcode (dots, spaces and dashes allowed; may be split in parts)')
    .addHelpText('after', '\nAn invalid code never reaches the provider (exit 3).\n\nExample:\n  paybatch boleto details 83680000000-9 87450048001-5 23456789012-9 34567890123-1')
    .action(
      runner.action(async (ctx, _opts, parts) => {
        const { inspectBill } = await import('../../engine/pay-bill.js');
        const bill = await inspectBill({ provider: () => ctx.provider(), now: ctx.now }, parts.join(' '));
        const { formatBRL } = await import('../../domain/money.js');
        const { formatBoletoLine } = await import('../../domain/boleto.js');
        ctx.out.result(inspectedDoc(bill), () => {
          const d = bill.details;
          const brl = (c: number | null) => (c === null ? '-' : formatBRL(c));
          ctx.out.print(
            ctx.out.table(
              ['field', 'value'],
              [
                ['kind', bill.kindName],
                ['line', formatBoletoLine(bill.decoded.line)],
                ['beneficiary', d.beneficiary],
                ['beneficiary document', d.beneficiaryDocument],
                ['assignor', d.assignor],
                ['amount due', d.amountCents === null || (d.amountCents === 0 && d.canChangeAmount) ? 'chosen by the payer' : formatBRL(d.amountCents)],
                ['original amount', brl(d.originalAmountCents)],
                ['discount', brl(d.discountCents)],
                ['interest and fines', brl(d.interestCents)],
                ['minimum / maximum', `${brl(d.minValueCents)} / ${brl(d.maxValueCents)}`],
                ['amount can change', d.canChangeAmount ? 'yes' : 'no'],
                ['due date', d.dueDate || '-'],
                ['settle date (provider)', d.settleDate || '-'],
                ['bank window', bill.timing.message],
              ],
            ),
          );
        });
        for (const w of bill.warnings) ctx.out.warn(w);
        for (const p of bill.problems) ctx.out.error(`${p.field}: ${p.reason}`);
        if (bill.problems.length) ctx.out.info('This bill must not be paid as typed: nothing was paid.');
        return bill.problems.length ? ExitCode.inputRejected : ExitCode.ok;
      }),
    );

  boleto
    .command('pay')
    .description('pay a bill (or every bill of a CSV file): checks offline and with the provider, confirms, pays once')
    .argument('[line-or-barcode...]', 'the 47/48-digit line or the 44-digit barcode (dots, spaces and dashes allowed; may be split in parts)')
    .option('--amount <reais>', "amount to pay, e.g. 159,90: only for bills that let the payer choose it (default: the bill's)")
    .option('--file <csv>', 'pay every bill of a CSV file: columns code (or codigo, linha), amount (valor, optional), description (descricao, optional)')
    .option('--description <text>', 'a note kept with the payment in the ledger and on the receipt')
    .option('-y, --yes', 'do not ask for confirmation (scripts, CI)', false)
    .option('--force', 'pay although the ledger has the bill as paid, scheduled or with an unknown outcome', false)
    .addHelpText(
      'after',
      `
Every bill is decoded and checked before anything is paid: check digits, the provider's details (which must agree
with the code), the amount rules and the bank window (business days 08:00-20:00 São Paulo; 22:00 for utility and
government bills; outside it the payment is scheduled). The ledger records each payment before it is sent; a
payment whose answer is lost is recorded as unknown and never retried. Exit 4 when a payment failed or is unknown.

Examples:
  paybatch boleto pay 83680000000-9 87450048001-5 23456789012-9 34567890123-1
  paybatch boleto pay 23793381286000782713695000063305516560000150000 --yes --json
  paybatch boleto pay 85890000000-9 00000000000-0 ... --amount 1.234,56
  paybatch boleto pay --file contas.csv`,
    )
    .action(
      runner.action<PayFlags>(async (ctx, flags, parts) => {
        if (flags.file !== undefined && parts.length) throw new UsageError('Give either a bill code or --file, not both.');
        if (flags.file === undefined && !parts.length) throw new UsageError('Give the bill code (line or barcode), or --file with a CSV of bills.');
        if (flags.file !== undefined && flags.amount !== undefined) throw new UsageError('--amount is for one bill; with --file put the amounts in an amount column.');
        if (flags.file !== undefined && flags.description !== undefined) throw new UsageError('--description is for one bill; with --file put them in a description column.');
        const { payBills } = await import('../../engine/pay-bill.js');
        let requests;
        if (flags.file !== undefined) {
          const { readFile } = await import('node:fs/promises');
          const { readBillSheet } = await import('../../sheet/bill-sheet.js');
          let bytes: Buffer;
          try {
            bytes = await readFile(flags.file);
          } catch (e) {
            throw new UsageError(`Cannot read ${flags.file}: ${(e as Error).message}`);
          }
          requests = readBillSheet(bytes, flags.file);
        } else {
          requests = [{ code: parts.join(' '), amount: flags.amount ?? null, description: flags.description ?? null }];
        }
        const profile = await ctx.profile();
        const { formatBRL } = await import('../../domain/money.js');
        const result = await payBills(
          { ledger: await ctx.ledger(), provider: () => ctx.provider(), now: ctx.now, receiptsDir: profile.receiptsDir },
          requests,
          {
            force: flags.force,
            skipPaid: flags.file !== undefined,
            howToGive: flags.file === undefined ? '--amount' : 'the amount column',
            confirm: async (bills) => {
              await showPlan(ctx, bills, flags.file !== undefined);
              if (flags.yes) return true;
              return ctx.prompter.confirm(confirmQuestion(bills, formatBRL));
            },
            onOutcome: flags.file === undefined ? undefined : (o, i, n) => ctx.out.info(`[${i + 1}/${n}] ${o.bill.request.file}:${o.bill.request.line} ${o.status}: ${o.message}`),
          },
        );
        const { billDoc } = await listing();
        const counts = { paid: 0, scheduled: 0, unknown: 0, failed: 0, notAttempted: result.notAttempted.length, skipped: result.skipped.length };
        for (const o of result.outcomes) counts[o.status]++;
        const attention = counts.unknown + counts.failed + counts.notAttempted > 0;
        ctx.out.result(
          {
            outcome: attention ? 'attention' : 'ok',
            counts,
            paidCents: result.outcomes.filter((o) => o.status === 'paid' || o.status === 'scheduled').reduce((s, o) => s + (o.row.amount_paid_cents ?? o.row.amount_cents), 0),
            bills: result.outcomes.map((o) => ({ ...billDoc(o.row), file: o.bill.request.file ?? null, fileLine: o.bill.request.line ?? null, message: o.message, hint: o.hint, warnings: o.warnings })),
            notAttempted: result.notAttempted.map((b) => ({ file: b.request.file ?? null, fileLine: b.request.line ?? null, line: b.decoded.line, amountCents: b.amountCents })),
            skipped: result.skipped.map((k) => ({ file: k.request.file ?? null, fileLine: k.request.line ?? null, line: k.paidBy.line, billId: k.paidBy.id, status: k.paidBy.status, reason: k.reason })),
          },
          () => {
            const s = ctx.out.style;
            const mark: Record<BillOutcome['status'], string> = { paid: s.green('✓'), scheduled: s.cyan('◷'), unknown: s.yellow('?'), failed: s.red('✗') };
            for (const k of result.skipped) ctx.out.print(`- ${k.request.file}:${k.request.line} left out: ${k.reason}`);
            if (!result.outcomes.length && result.skipped.length) ctx.out.print('Nothing to pay: every bill of the file is already paid or scheduled in the ledger.');
            for (const o of result.outcomes) {
              ctx.out.print(`${mark[o.status]} ${o.message}`);
              if (o.receiptPath) ctx.out.print(`  receipt: ${o.receiptPath}`);
            }
            if (result.notAttempted.length) {
              ctx.out.print(`${s.yellow('!')} Stopped after an unknown outcome: ${result.notAttempted.length} bills were not sent (${result.notAttempted.map((b) => `line ${b.request.line}`).join(', ')}).`);
            }
          },
        );
        for (const o of result.outcomes) {
          for (const w of o.warnings) ctx.out.warn(w);
          if (o.hint) ctx.out.info(o.hint);
        }
        if (result.notAttempted.length) {
          ctx.out.info('Settle the unknown payment first (see above), then run the same file again: bills the ledger has as paid are left out, so only the rest is paid.');
        }
        return attention ? ExitCode.attention : ExitCode.ok;
      }),
    );

  boleto
    .command('list')
    .description('bills in the ledger: paid, scheduled, unknown and returned, with the date until which a return can arrive')
    .option('--all', 'failed payments and unfinished intents too', false)
    .action(
      runner.action<{ all: boolean }>(async (ctx, flags) => {
        const { listBills } = await import('../../ledger/bill-repository.js');
        const { formatBRL } = await import('../../domain/money.js');
        const { billDoc } = await listing();
        const rows = listBills(await ctx.ledger(), flags.all ? ['intent', 'paid', 'scheduled', 'unknown', 'failed', 'returned'] : ['paid', 'scheduled', 'unknown', 'returned']);
        const docs = rows.map(billDoc);
        ctx.out.result(docs, () => {
          if (!docs.length) return ctx.out.print('No bills yet. Pay one with: paybatch boleto pay <line-or-barcode>');
          ctx.out.print(
            ctx.out.table(
              ['#', 'status', 'beneficiary', 'amount', 'due', 'settle', 'return possible until', 'transaction', 'note'],
              docs.map((b) => [
                b.id,
                b.status,
                b.beneficiary,
                formatBRL(b.amountPaidCents ?? b.amountCents),
                b.dueDate,
                b.settleDate,
                b.returnableUntil,
                b.transactionId,
                b.status === 'returned' ? `${b.returnReason ?? '?'} → ${b.returnMeaning ?? 'reason not in the table'}` : (b.error ?? b.description),
              ]),
            ),
          );
        });
      }),
    );
};

/** The JSON of a bill row (`boleto list`, `boleto pay`): a stable contract. Loads the rules it needs lazily. */
async function listing() {
  const { returnPossibleUntil } = await import('../../engine/bill-plan.js');
  const returnableUntil = (b: BillRow): string | null => (b.status === 'paid' || b.status === 'scheduled' ? returnPossibleUntil(b.settle_date) : null);
  const billDoc = (b: BillRow) => ({
    id: b.id,
    status: b.status,
    kind: b.kind,
    line: b.line,
    barcode: b.barcode,
    beneficiary: b.beneficiary,
    beneficiaryDocument: b.beneficiary_document,
    assignor: b.assignor,
    description: b.description,
    dueDate: b.due_date,
    amountCents: b.amount_cents,
    amountPaidCents: b.amount_paid_cents,
    transactionId: b.transaction_id,
    remoteStatus: b.remote_status,
    settleDate: b.settle_date,
    returnableUntil: returnableUntil(b),
    returnReason: b.return_reason,
    returnMeaning: b.return_meaning,
    returnedAt: b.returned_at,
    receipt: b.receipt_path,
    forced: b.forced === 1,
    error: b.error,
    createdAt: b.created_at,
  });
  return { billDoc };
}

function inspectedDoc(bill: InspectedBill) {
  const d = bill.details;
  return {
    code: { line: bill.decoded.line, barcode: bill.decoded.barcode, kind: bill.decoded.kind, kindName: bill.kindName, amountCents: bill.decoded.amountCents, dueDate: bill.decoded.dueDate },
    details: {
      beneficiary: d.beneficiary,
      beneficiaryDocument: d.beneficiaryDocument,
      assignor: d.assignor,
      amountCents: d.amountCents,
      originalAmountCents: d.originalAmountCents,
      discountCents: d.discountCents,
      interestCents: d.interestCents,
      minValueCents: d.minValueCents,
      maxValueCents: d.maxValueCents,
      canChangeAmount: d.canChangeAmount,
      dueDate: d.dueDate,
      settleDate: d.settleDate,
      typefulLine: d.typefulLine,
    },
    window: bill.timing,
    problems: bill.problems,
    warnings: bill.warnings,
  };
}

/** What is about to be paid, on stderr, before the confirmation (also with --yes: the log says what was paid). */
async function showPlan(ctx: Context, bills: readonly PreparedBill[], fromFile: boolean): Promise<void> {
  const { formatBRL } = await import('../../domain/money.js');
  const { formatBoletoLine } = await import('../../domain/boleto.js');
  const out = ctx.out;
  const only = bills.length === 1 ? bills[0] : undefined;
  if (only && !fromFile) {
    const d = only.details;
    out.info(
      out.table(
        ['', ''],
        [
          ['beneficiary', `${d.beneficiary} (${d.beneficiaryDocument})`],
          ['kind', only.kindName],
          ['line', formatBoletoLine(only.decoded.line)],
          ['amount', formatBRL(only.amountCents)],
          ['due date', d.dueDate || '-'],
          ['when', only.timing.message],
          ...(only.description ? [['description', only.description] as [string, string]] : []),
        ],
      ),
    );
  } else {
    out.info(
      out.table(
        ['line', 'beneficiary', 'amount', 'due', 'when'],
        bills.map((b) => [b.request.line, b.details.beneficiary, formatBRL(b.amountCents), b.details.dueDate, b.timing.scheduledFor ? `scheduled for ${b.timing.scheduledFor}` : 'now']),
      ),
    );
    out.info(`${bills.length} bills, total ${formatBRL(bills.reduce((s, b) => s + b.amountCents, 0))}.`);
  }
  for (const b of bills) {
    const where = fromFile ? `${b.request.file}:${b.request.line} ` : '';
    for (const w of b.warnings) out.warn(`${where}${w}`);
    if (b.previous.length) out.warn(`${where}the ledger already has this bill as ${b.previous.map((p) => `${p.status} (#${p.id})`).join(', ')}; paying it again because of --force`);
  }
}

function confirmQuestion(bills: readonly PreparedBill[], formatBRL: (c: number) => string): string {
  const only = bills.length === 1 ? bills[0] : undefined;
  if (only) {
    const when = only.timing.scheduledFor ? `scheduled for ${only.timing.scheduledFor}` : 'now';
    return `Pay ${formatBRL(only.amountCents)} to ${only.details.beneficiary || 'the beneficiary'} (${only.details.beneficiaryDocument || 'no document'}), ${when}?`;
  }
  const total = bills.reduce((s, b) => s + b.amountCents, 0);
  const later = bills.filter((b) => b.timing.scheduledFor !== null).length;
  return `Pay ${bills.length} bills totalling ${formatBRL(total)}${later ? ` (${later} scheduled for the next bank window)` : ''}?`;
}

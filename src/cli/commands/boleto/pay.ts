import type { Command } from 'commander';
import type { BillOutcome, OnBillOutcome, PayBillsResult } from '../../../engine/bills/index.js';
import type { DatedBillRequest, PreparedBill, ScheduledBill } from '../../../engine/bills/index.js';
import { CancelledError, ExitCode, UsageError } from '../../../errors.js';
import type { RawInput, Runner } from '../../command.js';
import type { Context } from '../../context.js';
import type { Locale } from '../../../words/locale.js';
import { boletoHelp } from '../../messages/help/boleto.js';
import { boletoMessages, type BoletoMessages } from '../../messages/boleto.js';
import { statusWord } from '../../../words/status-words.js';
import type { Output } from '../../output.js';
import { flag, optionalText } from '../../raw-input.js';

/** One bill typed on the command line, or every bill of a CSV file. */
export type BillSource =
  | { readonly kind: 'code'; readonly code: string; readonly amount: string | null; readonly description: string | null }
  | { readonly kind: 'file'; readonly file: string };

export interface BoletoPayOptions {
  readonly source: BillSource;
  readonly yes: boolean;
  readonly force: boolean;
}

type FormatBRL = (cents: number) => string;
type Words = typeof import('./bill-messages.js');
type BillWords = Words['billWords']['en'];

/** The run's words for people: the bills' texts, the command's frame, and São Paulo days (DD/MM/AAAA in pt-BR). */
interface Humanized {
  readonly bill: BillWords;
  readonly frame: BoletoMessages['pay'];
  formatBRL: FormatBRL;
  formatBoletoLine(line: string): string;
  day(ymd: string): string;
  status(status: string): string;
}

export function registerBoletoPay(boleto: Command, runner: Runner, locale: Locale): void {
  const h = boletoHelp[locale];
  boleto
    .command('pay')
    .description(h.pay.description)
    .argument('[line-or-barcode...]', h.code)
    .option('--amount <reais>', h.pay.amount)
    .option('--file <csv>', h.pay.file)
    .option('--description <text>', h.pay.note)
    .option('-y, --yes', h.pay.yes, false)
    .option('--force', h.pay.force, false)
    .addHelpText('after', h.pay.examples)
    .action(runner.action(parseBoletoPayOptions, runBoletoPay));
}

export function parseBoletoPayOptions(raw: RawInput): BoletoPayOptions {
  const file = optionalText(raw, 'file');
  const amount = optionalText(raw, 'amount');
  const description = optionalText(raw, 'description');
  const parts = raw.args;
  if (file !== undefined && parts.length) throw new UsageError('Give either a bill code or --file, not both.');
  if (file === undefined && !parts.length) throw new UsageError('Give the bill code (line or barcode), or --file with a CSV of bills.');
  if (file !== undefined && amount !== undefined) throw new UsageError('--amount is for one bill; with --file put the amounts in an amount column.');
  if (file !== undefined && description !== undefined) throw new UsageError('--description is for one bill; with --file put them in a description column.');
  const source: BillSource =
    file === undefined ? { kind: 'code', code: parts.join(' '), amount: amount ?? null, description: description ?? null } : { kind: 'file', file };
  return { source, yes: flag(raw, 'yes'), force: flag(raw, 'force') };
}

export async function runBoletoPay(ctx: Context, opts: BoletoPayOptions): Promise<number> {
  const { prepareBillPayment, commitBillPayment, BillsRefusedError, billsByDay, recordBillSchedules } = await import('../../../engine/bills/index.js');
  const words = await import('./bill-messages.js');
  const profile = await ctx.profile();
  const { saoPauloDate } = await import('../../../domain/bank-calendar.js');
  const { cnabLayout } = profile.settings;
  const today = saoPauloDate(ctx.now());
  const read = await billRequests(opts.source, { today, ...(cnabLayout ? { cnabLayout } : {}) });
  const fromFile = opts.source.kind === 'file';
  const amountWay = fromFile ? 'column' : 'option';
  const h = await humanize(ctx, words);
  let result: PayBillsResult;
  let scheduled: readonly ScheduledBill[];
  const ledger = await ctx.ledger();
  // A remittance's bills for a later day are scheduled, not paid now (the daemon pays each on its day).
  const { now: requests, later } = await billsByDay(ledger, read, today);
  try {
    const { approvalGateOf, makerKeyOf } = await import('../../approval-gate.js');
    const { billDocumentWriter } = await import('../../../receipts/bill-receipt.js');
    const documents = billDocumentWriter({ receiptsDir: profile.receiptsDir, locale: await ctx.locale(), sandbox: profile.embeddedSandbox });
    const deps = { ledger, provider: () => ctx.provider(), now: ctx.now, documents, approvals: await approvalGateOf(ctx), maker: await makerKeyOf(ctx) };
    const prepared = await prepareBillPayment(deps, { requests, force: opts.force, skipPaid: fromFile });
    const fresh = later.filter((b) => !b.already);
    if (prepared.kind === 'plan' || fresh.length) {
      // No bill is paid, scheduled, nor its intent written, before the person confirms the plan (or passed --yes).
      const bills = prepared.kind === 'plan' ? prepared.plan.bills : [];
      if (bills.length) showPlan(ctx.out, bills, fromFile, h);
      for (const b of fresh) ctx.out.info(h.frame.laterLine(`${b.file}:${b.line}`, h.formatBRL(b.amountCents), h.day(b.payOn)));
      if (!opts.yes && !(await ctx.prompter.confirm(confirmQuestion(bills, fresh, h)))) throw new CancelledError('paid');
      scheduled = await recordBillSchedules(deps, later);
    } else scheduled = later;
    if (prepared.kind === 'done') result = prepared.result;
    else {
      const onOutcome: OnBillOutcome | undefined = fromFile
        ? (o, i, n) => ctx.out.info(h.frame.progress(i + 1, n, `${o.bill.request.file}:${o.bill.request.line}`, h.status(o.status), h.bill.outcomeText(o).message))
        : undefined;
      result = await commitBillPayment(deps, prepared.plan, onOutcome);
    }
  } catch (e) {
    // The error's texts reach the --json document too: English there.
    throw e instanceof BillsRefusedError ? words.refusedBillsError(e, requests, amountWay, ctx.out.json ? 'en' : await ctx.locale()) : e;
  }
  const { loadBillDoc } = await import('./bill-doc.js');
  const billDoc = await loadBillDoc();
  const counts = { paid: 0, scheduled: 0, unknown: 0, failed: 0, notAttempted: result.notAttempted.length, skipped: result.skipped.length };
  for (const o of result.outcomes) counts[o.status]++;
  const attention = counts.unknown + counts.failed + counts.notAttempted > 0;
  ctx.out.result(
    {
      outcome: attention ? 'attention' : 'ok',
      counts,
      paidCents: result.outcomes.filter((o) => o.status === 'paid' || o.status === 'scheduled').reduce((s, o) => s + (o.row.amount_paid_cents ?? o.row.amount_cents), 0),
      bills: result.outcomes.map((o) => ({
        ...billDoc(o.row),
        file: o.bill.request.file ?? null,
        fileLine: o.bill.request.line ?? null,
        ...words.outcomeText(o),
        warnings: o.warnings.map(words.warningText),
      })),
      notAttempted: result.notAttempted.map((b) => ({ file: b.request.file ?? null, fileLine: b.request.line ?? null, line: b.decoded.line, amountCents: b.amountCents })),
      skipped: result.skipped.map((k) => ({ file: k.request.file ?? null, fileLine: k.request.line ?? null, line: k.paidBy.line, billId: k.paidBy.id, status: k.paidBy.status, reason: words.leftOutText(k.paidBy) })),
      scheduled: scheduled.map((b) => ({ file: b.file, fileLine: b.line, payOn: b.payOn, amountCents: b.amountCents, already: b.already })),
    },
    () => renderOutcomes(ctx.out, result, scheduled, h),
  );
  for (const o of result.outcomes) {
    for (const w of o.warnings) ctx.out.warn(h.bill.warningText(w));
    const { hint } = h.bill.outcomeText(o);
    if (hint) ctx.out.info(hint);
  }
  if (result.notAttempted.length) ctx.out.info(h.frame.settleFirst);
  return attention ? ExitCode.attention : ExitCode.ok;
}

async function humanize(ctx: Context, words: Words): Promise<Humanized> {
  const { formatBRL } = await import('../../../domain/money.js');
  const { formatBoletoLine } = await import('../../../domain/boleto.js');
  const { localDay } = await import('../../../words/local-time.js');
  const locale = await ctx.locale();
  return {
    bill: words.billWords[locale],
    frame: boletoMessages[locale].pay,
    formatBRL,
    formatBoletoLine,
    day: (ymd) => (/^\d{4}-\d{2}-\d{2}$/.test(ymd) ? localDay(ymd, locale) : ymd),
    status: (status) => statusWord(status, locale),
  };
}

/** The bills to pay: the one typed, or the rows of the file (a remittance's with the day each asks). */
async function billRequests(source: BillSource, o: { readonly today: string; readonly cnabLayout?: string }): Promise<readonly DatedBillRequest[]> {
  if (source.kind === 'code') return [{ code: source.code, amount: source.amount, description: source.description }];
  const { readFile } = await import('node:fs/promises');
  const { readBillList } = await import('../../../sheet/bill-sheet.js');
  const { saySheet } = await import('../../../words/sheet.js');
  let bytes: Buffer;
  try {
    bytes = await readFile(source.file);
  } catch (e) {
    throw new UsageError(`Cannot read ${source.file}: ${(e as Error).message}`);
  }
  // English, as the rest of a bill list's refusal.
  return readBillList(bytes, source.file, (reason) => saySheet(reason, 'en'), o);
}

function renderOutcomes(out: Output, result: PayBillsResult, scheduled: readonly ScheduledBill[], h: Humanized): void {
  const { bill, frame } = h;
  const s = out.style;
  const mark: Record<BillOutcome['status'], string> = { paid: s.green('✓'), scheduled: s.cyan('◷'), unknown: s.yellow('?'), failed: s.red('✗') };
  for (const k of result.skipped) out.print(frame.leftOut(`${k.request.file}:${k.request.line}`, bill.leftOutText(k.paidBy)));
  for (const b of scheduled) {
    const where = `${b.file}:${b.line}`;
    out.print(b.already ? frame.alreadyScheduled(where, h.day(b.payOn)) : `${s.cyan('◷')} ${frame.scheduled(where, h.formatBRL(b.amountCents), h.day(b.payOn))}`);
  }
  if (!result.outcomes.length && result.skipped.length && !scheduled.some((b) => !b.already)) out.print(frame.nothingToPay);
  for (const o of result.outcomes) {
    out.print(`${mark[o.status]} ${bill.outcomeText(o).message}`);
    if (o.receiptPath) out.print(frame.receipt(o.receiptPath));
  }
  if (result.notAttempted.length) {
    out.print(`${s.yellow('!')} ${frame.stopped(result.notAttempted.length, result.notAttempted.map((b) => b.request.line))}`);
  }
}

/** What is about to be paid, on stderr, before the confirmation (also with --yes: the log says what was paid). */
function showPlan(out: Output, bills: readonly PreparedBill[], fromFile: boolean, h: Humanized): void {
  const { bill, frame, formatBRL } = h;
  const only = bills.length === 1 ? bills[0] : undefined;
  if (only && !fromFile) {
    const d = only.details;
    out.info(
      out.table(
        ['', ''],
        [
          [frame.beneficiary, `${d.beneficiary} (${d.beneficiaryDocument})`],
          [frame.kind, bill.billKindName(only.decoded)],
          [frame.line, h.formatBoletoLine(only.decoded.line)],
          [frame.amount, formatBRL(only.amountCents)],
          [frame.dueDate, d.dueDate ? h.day(d.dueDate) : '-'],
          [frame.when, bill.timingText(only.timing)],
          ...(only.description ? [[frame.description, only.description] as [string, string]] : []),
        ],
      ),
    );
  } else {
    out.info(
      out.table(
        frame.planHead,
        bills.map((b) => [b.request.line, b.details.beneficiary, formatBRL(b.amountCents), h.day(b.details.dueDate), when(b, h)]),
      ),
    );
    out.info(frame.planTotal(bills.length, formatBRL(bills.reduce((s, b) => s + b.amountCents, 0))));
  }
  for (const b of bills) {
    const where = fromFile ? `${b.request.file}:${b.request.line} ` : '';
    for (const w of b.warnings) out.warn(`${where}${bill.warningText(w)}`);
    if (b.previous.length) out.warn(`${where}${frame.againWithForce(bill.previousText(b.previous))}`);
  }
}

function when(b: PreparedBill, h: Humanized): string {
  return b.timing.scheduledFor ? h.frame.scheduledFor(h.day(b.timing.scheduledFor)) : h.frame.now;
}

function confirmQuestion(bills: readonly PreparedBill[], later: readonly ScheduledBill[], h: Humanized): string {
  const { frame, formatBRL } = h;
  const laterTotal = formatBRL(later.reduce((s, b) => s + b.amountCents, 0));
  if (bills.length === 0) return frame.confirmSchedules(later.length, laterTotal);
  const only = bills.length === 1 ? bills[0] : undefined;
  const total = bills.reduce((s, b) => s + b.amountCents, 0);
  const pay = only
    ? frame.confirmOne(formatBRL(only.amountCents), only.details.beneficiary || frame.theBeneficiary, only.details.beneficiaryDocument || frame.noDocument, when(only, h))
    : frame.confirmMany(bills.length, formatBRL(total), bills.filter((b) => b.timing.scheduledFor !== null).length);
  return later.length ? `${pay.replace(/\?$/, '')}${frame.andSchedule(later.length, laterTotal)}?` : pay;
}

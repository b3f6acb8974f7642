import type { Command } from 'commander';
import type { Locale } from '../../words/locale.js';
import { batchName } from '../../words/batch-name.js';
import type { ApprovalWords } from '../messages/approval-words.js';
import type { ApprovalCheck, PreparedApproval } from '../../engine/approvals/index.js';
import { CancelledError, UsageError } from '../../errors.js';
import type { BatchRow } from '../../engine/batches/index.js';
import type { RawInput, Runner } from '../command.js';
import type { Context } from '../context.js';
import type { ApprovalMessages } from '../messages/approvals.js';
import { approveHelp } from '../messages/help/approve.js';
import { arg, flag, optionalText } from '../raw-input.js';
import { approveOptions } from './approvals.js';

export interface BatchApproveOptions {
  /** Local #id or provider id. */
  readonly ref: string;
  readonly yes: boolean;
  readonly key?: string;
}

export interface BoletoApproveOptions {
  readonly code: string;
  /** In reais as people write it, for bills whose amount the payer chooses. */
  readonly amount: string | null;
  readonly yes: boolean;
  readonly key?: string;
}

/** `batch approve`, its help in `locale` (batch.ts registers it; until it passes its locale, the help stays English). */
export function registerBatchApprove(batch: Command, runner: Runner, locale: Locale): void {
  const h = approveHelp[locale].batchApprove;
  approveOptions(batch.command('approve').description(h.description).argument('<id>', h.id), locale)
    .addHelpText('after', h.examples)
    .action(runner.action(parseBatchApproveOptions, runBatchApprove));
}

/** `batch claim`, its help in `locale` (as `batch approve`). */
export function registerBatchClaim(batch: Command, runner: Runner, locale: Locale): void {
  const h = approveHelp[locale].batchClaim;
  approveOptions(batch.command('claim').description(h.description).argument('<id>', h.id), locale)
    .addHelpText('after', h.examples)
    .action(runner.action(parseBatchApproveOptions, runBatchClaim));
}

/** `boleto approve`, its help in `locale` (boleto/index.ts registers it; until it passes its locale, the help stays English). */
export function registerBoletoApprove(boleto: Command, runner: Runner, locale: Locale): void {
  const h = approveHelp[locale].boletoApprove;
  approveOptions(
    boleto
      .command('approve')
      .description(h.description)
      .argument('<line-or-barcode...>', h.code)
      .option('--amount <reais>', h.amount),
    locale,
  )
    .addHelpText('after', h.examples)
    .action(runner.action(parseBoletoApproveOptions, runBoletoApprove));
}

export function parseBatchApproveOptions(raw: RawInput): BatchApproveOptions {
  const key = optionalText(raw, 'key');
  return { ref: arg(raw, 0, 'id'), yes: flag(raw, 'yes'), ...(key === undefined ? {} : { key }) };
}

export function parseBoletoApproveOptions(raw: RawInput): BoletoApproveOptions {
  if (!raw.args.length) throw new UsageError('Give the bill code (line or barcode).');
  const key = optionalText(raw, 'key');
  return { code: raw.args.join(' '), amount: optionalText(raw, 'amount') ?? null, yes: flag(raw, 'yes'), ...(key === undefined ? {} : { key }) };
}

export async function runBatchApprove(ctx: Context, opts: BatchApproveOptions): Promise<void> {
  const { findBatch } = await import('../../engine/batches/index.js');
  const { prepareBatchApproval, signApproval } = await import('../../engine/approvals/index.js');
  const h = await humanize(ctx);
  const ledger = await ctx.ledger();
  const batch = await findBatch(ledger, opts.ref);
  if (!batch) {
    const { batchMessages } = await import('../messages/batch.js');
    const words = batchMessages[await ctx.locale()];
    throw new UsageError(words.noSuchBatch(opts.ref, (await ctx.ledger()).file), { hint: words.listHint });
  }
  const { deps, signer } = await approvalSetup(ctx, opts.key);
  const prepared = await prepareBatchApproval(deps, batch.id, signer);
  const { figures } = prepared.check;
  showSummary(ctx, h, prepared, [
    [h.w.batchLabel, `#${batch.id} "${batchName(batch, ctx.out.locale)}"`],
    [h.w.itemsLabel, String(figures.rows)],
    [h.w.totalLabel, h.formatBRL(figures.totalCents)],
    [h.w.largestLabel, h.formatBRL(figures.largestCents)],
  ]);
  await confirmOrCancel(ctx, opts.yes, h.w.confirmBatch(batch.id, batchName(batch, ctx.out.locale), figures.rows, h.formatBRL(figures.totalCents)));
  const after = await signApproval(deps, prepared, signer);
  await report(ctx, h, after, prepared.approverName, { batch: { id: batch.id, name: batch.name, items: figures.rows, totalCents: figures.totalCents } }, h.w.readyBatch(batch.id));
}

export async function runBatchClaim(ctx: Context, opts: BatchApproveOptions): Promise<void> {
  const { findBatch } = await import('../../engine/batches/index.js');
  const { approvalCheckDoc, claimBatch } = await import('../../engine/approvals/index.js');
  const h = await humanize(ctx);
  const batch = await findBatch(await ctx.ledger(), opts.ref);
  if (!batch) {
    const { batchMessages } = await import('../messages/batch.js');
    const words = batchMessages[await ctx.locale()];
    throw new UsageError(words.noSuchBatch(opts.ref, (await ctx.ledger()).file), { hint: words.listHint });
  }
  const { deps, signer } = await approvalSetup(ctx, opts.key);
  await confirmOrCancel(ctx, opts.yes, h.w.confirmClaim(batch.id, batchName(batch, ctx.out.locale)));
  const after = await claimBatch(deps, batch.id, signer);
  const as = after.makers.find((m) => m.fingerprint === signer.fingerprint)?.name ?? signer.fingerprint;
  ctx.out.result({ batch: { id: batch.id, name: batch.name }, maker: as, ...approvalCheckDoc(after) }, () => {
    ctx.out.print(h.w.claimed(batch.id, as));
    if (after.need.required) ctx.out.print(nextStep(h.w, after, h.w.readyBatch(batch.id), h.words));
  });
}

export async function runBoletoApprove(ctx: Context, opts: BoletoApproveOptions): Promise<void> {
  const { billApprovalTarget, prepareBillApproval, signApproval } = await import('../../engine/approvals/index.js');
  const { billToApprove } = await import('../../engine/bills/index.js');
  const { BillsRefusedError } = await import('../../engine/bills/index.js');
  const { formatBoletoLine } = await import('../../domain/boleto.js');
  const { localDay } = await import('../../words/local-time.js');
  const h = await humanize(ctx);
  const ledger = await ctx.ledger();
  const request = { code: opts.code, amount: opts.amount };
  const { deps, signer } = await approvalSetup(ctx, opts.key);
  let bill;
  try {
    bill = await billToApprove({ ledger, provider: () => ctx.provider(), now: ctx.now }, request);
  } catch (e) {
    if (!(e instanceof BillsRefusedError)) throw e;
    const { refusedBillsError } = await import('./boleto/bill-messages.js');
    throw refusedBillsError(e, [request], 'option', ctx.out.json ? 'en' : await ctx.locale());
  }
  const target = billApprovalTarget(bill);
  const prepared = await prepareBillApproval(deps, target, signer);
  const line = formatBoletoLine(target.line);
  showSummary(ctx, h, prepared, [
    [h.w.billLabel, line],
    [h.w.totalLabel, h.formatBRL(target.amountCents)],
    [h.w.dueLabel, target.dueDate ? localDay(target.dueDate, await ctx.locale()) : '-'],
  ]);
  await confirmOrCancel(ctx, opts.yes, h.w.confirmBill(line, h.formatBRL(target.amountCents)));
  const after = await signApproval(deps, prepared, signer);
  await report(ctx, h, after, prepared.approverName, { bill: { line: target.line, amountCents: target.amountCents, dueDate: target.dueDate } }, h.w.readyBill(target.line));
}

interface Humanized {
  readonly w: ApprovalMessages;
  readonly words: ApprovalWords;
  formatBRL(cents: number): string;
  reasons(check: ApprovalCheck): string;
}

async function humanize(ctx: Context): Promise<Humanized> {
  const { formatBRL } = await import('../../domain/money.js');
  const { APPROVAL_WORDS } = await import('../messages/approval-words.js');
  const { approvalMessages } = await import('../messages/approvals.js');
  const locale = await ctx.locale();
  return { w: approvalMessages[locale], words: APPROVAL_WORDS[locale], formatBRL, reasons: (check) => check.need.reasons.map(APPROVAL_WORDS[locale].reason).join('; ') };
}

/** The profile's gate and this approver's key, opened (asking its passphrase when it has one). */
async function approvalSetup(ctx: Context, keyFile: string | undefined) {
  const { osIdentity } = await import('../../config/approver-key.js');
  const { approvalGateOf, openOwnApproverKey } = await import('../approval-gate.js');
  const gate = await approvalGateOf(ctx);
  const signer = await openOwnApproverKey(ctx, keyFile);
  return { deps: { ledger: await ctx.ledger(), gate, now: ctx.now, signedFrom: osIdentity() }, signer };
}

/** The summary a person approves, on stderr (so `--json` keeps stdout to its document). */
function showSummary(ctx: Context, h: Humanized, prepared: PreparedApproval, rows: readonly (readonly [string, string])[]): void {
  const { check } = prepared;
  const signed = check.approvals.filter((a) => a.counted).map((a) => a.approverName);
  ctx.out.info(
    ctx.out.table(
      ['', ''],
      [
        ...rows,
        [h.w.digestLabel, check.digest],
        [h.w.needsLabel, check.need.required ? h.w.needs(check.need.required, h.reasons(check)) : h.w.needsNone],
        [h.w.signedLabel, h.w.signedSoFar(check.valid, signed)],
        [h.w.approverLabel, prepared.approverName],
      ],
    ),
  );
}

async function confirmOrCancel(ctx: Context, yes: boolean, question: string): Promise<void> {
  if (yes || (await ctx.prompter.confirm(question))) return;
  throw new CancelledError();
}

async function report(ctx: Context, h: Humanized, after: ApprovalCheck, approver: string, what: Record<string, unknown>, ready: string): Promise<void> {
  const { approvalCheckDoc } = await import('../../engine/approvals/index.js');
  ctx.out.result({ ...what, approver, ...approvalCheckDoc(after) }, () => {
    ctx.out.print(h.w.approved(after.subject, approver));
    ctx.out.print(nextStep(h.w, after, ready, h.words));
  });
}

/**
 * What a check still waits for: approvals, a maker proven by a key (the approvals count only then: `approved`), or
 * nothing, when `ready` says what to do next.
 */
function nextStep(w: ApprovalMessages, check: ApprovalCheck, ready: string, words: ApprovalWords): string {
  if (check.missing > 0) return w.stillMissing(check.missing, check.waitingFor);
  if (check.makers.length > 0) return ready;
  if (!check.subject.startsWith('batch:')) return words.billMakerUnproven;
  const id = Number(check.subject.slice('batch:'.length));
  return `${words.batchMakerUnproven(id)} ${words.claimBatch(id)}`;
}

/**
 * `batch show`'s approvals: the check of the batch as it is now (`--json`: `approvals`), and its rendering, which
 * lists each approval with whether it counts and why not.
 */
export async function batchApprovals(ctx: Context, batch: BatchRow) {
  const { approvalCheckDoc, missingApprovals } = await import('../../engine/approvals/index.js');
  const { approvalGateOf } = await import('../approval-gate.js');
  const { APPROVAL_WORDS } = await import('../messages/approval-words.js');
  const { localDateTime, zoneLabel } = await import('../../words/local-time.js');
  const { approvalMessages } = await import('../messages/approvals.js');
  const locale = await ctx.locale();
  const w = approvalMessages[locale];
  const check = await missingApprovals(await ctx.ledger(), await approvalGateOf(ctx), { kind: 'batch', batch });
  // Approvals matter before a batch starts: once started (or a reprocess batch), only the signatures it has are shown.
  const waiting = batch.kind === 'sheet' && ['draft', 'created', 'submitted'].includes(batch.status);
  const render = () => {
    if (!check.approvals.length && !(waiting && check.need.required)) return;
    ctx.out.print(w.showTitle);
    if (check.approvals.length) {
      ctx.out.print(
        ctx.out.table(
          w.showHead(zoneLabel(locale)),
          check.approvals.map((a) => [
            a.approverName,
            a.fingerprint,
            localDateTime(new Date(a.signedAt), locale),
            a.signedFrom,
            a.problem === null ? w.counted : `${w.notCounted}: ${APPROVAL_WORDS[locale].problem(a.problem, a.approverName)}`,
          ]),
        ),
      );
    }
    if (waiting && check.need.required) ctx.out.print(nextStep(w, check, w.readyBatch(batch.id), APPROVAL_WORDS[locale]));
  };
  return { doc: approvalCheckDoc(check), render };
}

import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { billKindName, outcomeText, refusedBillsError, refusalText, leftOutText, warningText } from '../../src/cli/commands/boleto/bill-messages.js';
import { BillsRefusedError, inspectBill, type InspectedBill } from '../../src/engine/bills/pay-bill.js';
import { payBills } from './pay-through.js';
import { resolveBill } from '../../src/engine/bills/resolve-bill.js';
import type { BillRequest, PreparedBill } from '../../src/engine/bills/plan-bills.js';
import { CancelledError } from '../../src/errors.js';
import { callbackHandler } from '../../src/engine/webhooks/apply-callback.js';
import { recordWebhookEvent } from '../../src/engine/webhooks/apply-event.js';
import { decodeBoleto } from '../../src/domain/boleto.js';
import { getBill, insertBillIntent, listBills } from '../../src/ledger/bill-repository.js';
import { billDocumentWriter } from '../../src/receipts/bill-receipt.js';
import { callsOf, logIntent } from '../../src/ledger/call-log.js';
import { checkLedger } from '../../src/ledger/ledger-check.js';
import type { WebhookEvent } from '../../src/domain/webhook-event.js';
import { openLedger, type Ledger } from '../../src/ledger/open-ledger.js';
import { pdfText } from '../sandbox/pdf-text.js';
import { useTempDir } from '../helpers/temp-dir.js';
import { bankLine, collectionLine, detailsFor, FakeProvider, httpError, lostAnswer, paymentFor } from './fixtures.js';

/** Bills of a provider whose bill amounts are reais (as the embedded sandbox's). */
const applyCallback = callbackHandler('reais');

const tempDir = useTempDir();
const ledgers: Ledger[] = [];
afterEach(async () => {
  for (const l of ledgers.splice(0)) await l.close();
});

const MONDAY = new Date('2025-03-10T10:00:00-03:00');
const SATURDAY = new Date('2025-03-08T22:30:00-03:00');

async function setUp(provider: FakeProvider, now = MONDAY) {
  const ledger = await openLedger(':memory:');
  ledgers.push(ledger);
  const receiptsDir = tempDir();
  const deps = { ledger, provider: async () => provider, now: () => now, documents: billDocumentWriter({ receiptsDir, locale: 'en', sandbox: false }) };
  const asked: (readonly PreparedBill[])[] = [];
  const pay = (requests: BillRequest[], o: { force?: boolean; answer?: boolean } = {}) =>
    payBills(deps, requests, {
      force: o.force ?? false,
      skipPaid: requests.some((r) => r.file !== undefined),
      confirm: async (bills) => {
        asked.push(bills);
        return o.answer ?? true;
      },
    });
  return { ledger, deps, pay, asked, receiptsDir };
}

/** The refusal `p` ends with, and the error the CLI shows for it (a bill typed on the command line, or `requests`). */
async function rejection(p: Promise<unknown>, requests: readonly BillRequest[] = [{ code: '' }]) {
  const e = await p.then(() => null, (x: unknown) => x);
  expect(e).toBeInstanceOf(BillsRefusedError);
  const refused = e as BillsRefusedError;
  const shown = refusedBillsError(refused, requests, 'option');
  return { refused: refused.refused, reasons: refused.refused.flatMap((b) => b.reasons), message: shown.message, hint: shown.hint, problems: shown.problems };
}

async function inspected(p: ReturnType<typeof inspectBill>): Promise<InspectedBill> {
  const r = await p;
  if (!r.ok) throw new Error(`inspection stopped at the ${r.stage}`);
  return r.bill;
}

const fixedBill = bankLine({ amountCents: 15_990 });
const fixedProvider = (over: ConstructorParameters<typeof FakeProvider>[1] = undefined, before?: () => void) =>
  new FakeProvider((code) => detailsFor(code, 15_990), over, before);

function decodedBarcode(code: string): string {
  const d = decodeBoleto(code, '2025-03-10');
  if (!d.valid || d.barcode === null) throw new Error('fixture line does not decode');
  return d.barcode;
}

function billPaidEvent(line: string, amount: number, transactionId: string): WebhookEvent {
  const detail = { transactionId, typefulLine: line, amount, settleDate: '2025-03-10' };
  const raw = { serviceId: '1', eventId: `ev-${transactionId}`, type: 'bill_payment', category: 'bill_paid', timestamp: '1741611600', detail };
  return { kind: 'callback', eventId: raw.eventId, type: raw.type, category: raw.category, timestamp: raw.timestamp, title: null, detail, raw };
}

describe('payBills: one bill', () => {
  it('writes the intent (bill row and call log) before the call, then the outcome and a PDF receipt', async () => {
    let seenBeforeCall: unknown[] = [];
    let ledgerRef: Ledger | null = null;
    const provider = fixedProvider(undefined, async () => {
      seenBeforeCall = [(await listBills(ledgerRef!, ['intent'])).map((b) => b.status), (await callsOf(ledgerRef!, 'bill:1')).map((c) => c.phase)];
    });
    const { ledger, pay, asked } = await setUp(provider);
    ledgerRef = ledger;
    const r = await pay([{ code: fixedBill, description: 'aluguel março' }]);
    expect(seenBeforeCall).toEqual([['intent'], ['intent']]);
    expect(provider.calls).toEqual([
      { op: 'details', code: fixedBill },
      { op: 'pay', code: fixedBill, amountCents: 15_990 },
    ]);
    expect(asked).toHaveLength(1);
    expect(r.outcomes).toHaveLength(1);
    const o = r.outcomes[0]!;
    expect(o.status).toBe('paid');
    expect(o.answer).toMatchObject({ kind: 'taken', payment: { status: 'paid' } });
    expect(outcomeText(o)).toEqual({ message: `Paid R$ 159,90 to Silva Comércio Ltda (transaction tx-${fixedBill.slice(-6)}, settle date 2025-03-10).`, hint: null });
    expect(o.row).toMatchObject({ status: 'paid', amount_cents: 15_990, amount_paid_cents: 15_990, settle_date: '2025-03-10', description: 'aluguel março', forced: 0, remote_status: 'paid' });
    expect((await callsOf(ledger, 'bill:1')).map((c) => [c.phase, c.outcome])).toEqual([['intent', null], ['outcome', 'ok']]);
    const pdf = readFileSync(o.receiptPath!);
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    expect(pdf.subarray(-8).toString()).toContain('%%EOF');
    expect(o.receiptPath).toMatch(/\/bills\/2025-03-10-Silva-Comercio-Ltda-tx-[\w-]+\.pdf$/);
    const text = pdfText(pdf);
    for (const s of ['Bill payment receipt', 'R$ 159,90', 'Empresa Pagadora Ltda', '12.345.678/0001-95', 'aluguel março', '2025-03-20']) expect(text).toContain(s);
  });

  it("keeps what the payment was made of, from the details it was decided on, and the receipt shows it", async () => {
    // A late R$ 459,90 bill: R$ 9,20 fine and R$ 1,38 interest, no discount: R$ 470,48 to pay.
    const late = bankLine({ amountCents: 45_990 });
    const provider = new FakeProvider((code) => detailsFor(code, 47_048, { originalAmountCents: 45_990, discountCents: 0, interestCents: 138, fineCents: 920 }));
    const { pay } = await setUp(provider);
    const o = (await pay([{ code: late }])).outcomes[0]!;
    expect(provider.calls.at(-1)).toEqual({ op: 'pay', code: late, amountCents: 47_048 });
    expect(o.row).toMatchObject({ status: 'paid', amount_paid_cents: 47_048, original_cents: 45_990, discount_cents: 0, interest_cents: 138, fine_cents: 920 });
    const lines = pdfText(readFileSync(o.receiptPath!)).split('\n');
    const after = (label: string) => lines[lines.indexOf(label) + 1];
    expect([after('Original amount'), after('Discount'), after('Interest'), after('Fine'), after('Amount paid')]).toEqual(['R$ 459,90', '- R$ 0,00', '+ R$ 1,38', '+ R$ 9,20', 'R$ 470,48']);
  });

  it('never reaches the provider with an invalid code', async () => {
    const provider = fixedProvider();
    const { pay } = await setUp(provider);
    const typo = fixedBill.slice(0, -1) + String((Number(fixedBill.at(-1)) + 1) % 10);
    const e = await rejection(pay([{ code: typo }]));
    // The last digit of the amount (field 5) changed: only the general check digit, mod 11, objects.
    expect(e.reasons).toEqual([{ code: 'invalid_code', problems: [{ code: 'general_check_digit', actual: expect.any(Number), expected: expect.any(Number) }] }]);
    expect(e.problems).toEqual([{ field: 'code', code: 'invalid_code', reason: expect.stringMatching(/^general check digit is \d, should be \d$/) }]);
    expect(e.message).toBe('This bill cannot be paid; nothing was paid.');
    expect(provider.calls).toEqual([]);
  });

  it('refuses a bill whose details disagree with the code, paying nothing', async () => {
    const provider = new FakeProvider((code) => detailsFor(code, 19_590));
    const { pay, ledger } = await setUp(provider);
    const e = await rejection(pay([{ code: fixedBill }]));
    expect(e.reasons).toEqual([{ code: 'amount_mismatch', codeCents: 15_990, providerCents: 19_590 }]);
    expect(e.problems[0]?.reason).toMatch(/code says R\$ 159,90 but the provider's bill is R\$ 195,90/);
    expect(provider.calls.map((c) => c.op)).toEqual(['details']);
    expect(await listBills(ledger, ['intent', 'paid', 'failed', 'unknown'])).toEqual([]);
  });

  it('turns a 404 of the details into a problem with the code', async () => {
    const provider = new FakeProvider(() => httpError(404, 'not_found', 'bill not found'));
    const { pay } = await setUp(provider);
    const e = await rejection(pay([{ code: fixedBill }]));
    expect(e.reasons).toEqual([{ code: 'unknown_to_provider' }]);
    expect(e.problems).toEqual([{ field: 'code', code: 'unknown_to_provider', reason: 'the provider does not know this bill (HTTP 404); check the digits against the slip' }]);
  });

  it('records a lost answer as unknown, never retries it, and says what to check', async () => {
    const provider = fixedProvider(() => lostAnswer());
    const { pay, ledger } = await setUp(provider);
    const r = await pay([{ code: fixedBill }]);
    const o = r.outcomes[0]!;
    expect(o.status).toBe('unknown');
    expect(o.row.status).toBe('unknown');
    expect(o.answer).toEqual({ kind: 'lost', error: lostAnswer().message, startedAt: MONDAY });
    const { message, hint } = outcomeText(o);
    expect(message).toBe(
      `The answer to the payment of R$ 159,90 to Silva Comércio Ltda was lost (${lostAnswer().message}): the bill may or may not be paid. It is recorded as unknown (bill #1) and will not be retried.`,
    );
    expect(hint).toMatch(/^Check the provider's statement, or its bill payments for the line 23791\.23454 .* around 2025-03-10 10:00 \(São Paulo\)\. If the payment is not there, pay again with --force;/);
    expect(provider.calls.filter((c) => c.op === 'pay')).toHaveLength(1);
    expect((await callsOf(ledger, 'bill:1')).map((c) => c.outcome)).toEqual([null, 'unknown']);
  });

  it('refuses a bill the ledger has as paid, scheduled or unknown unless --force', async () => {
    const cases = [
      [() => paymentFor(fixedBill, 15_990), 'already_paid_in_ledger'],
      [() => paymentFor(fixedBill, 15_990, { status: 'scheduled' }), 'already_paid_in_ledger'],
      [() => lostAnswer(), 'unknown_outcome_in_ledger'],
    ] as const;
    for (const [answer, kind] of cases) {
      const provider = fixedProvider(answer);
      const { pay, ledger } = await setUp(provider);
      await pay([{ code: fixedBill }]);
      const e = await rejection(pay([{ code: fixedBill }]));
      expect(e.reasons).toEqual([{ code: kind, billId: 1, status: expect.any(String), createdAt: expect.any(String), transactionId: kind === 'unknown_outcome_in_ledger' ? null : expect.any(String) }]);
      expect(e.problems[0]?.code).toBe(kind);
      expect(e.problems[0]?.reason).toContain('--force');
      expect(e.hint).toBe('Check the ledger with `paybatch boleto list` before paying again.');
      expect(provider.calls.filter((c) => c.op === 'pay')).toHaveLength(1);
      const again = await pay([{ code: fixedBill }], { force: true });
      expect(again.outcomes[0]?.row.forced).toBe(1);
      expect(provider.calls.filter((c) => c.op === 'pay')).toHaveLength(2);
      // A paid or scheduled payment stands beside the forced one; an unknown one is closed as not found.
      expect(await listBills(ledger, ['paid', 'scheduled', 'unknown'])).toHaveLength(kind === 'unknown_outcome_in_ledger' ? 1 : 2);
    }
  });

  it('--force over a payment a kill cut short closes it as not paid: no longer blocking, its call no longer open', async () => {
    const provider = fixedProvider();
    const { pay, ledger } = await setUp(provider);
    const cut = await insertBillIntent(ledger, { barcode: decodedBarcode(fixedBill), line: fixedBill, kind: 'bank', description: null, beneficiary: null, beneficiaryDocument: null, assignor: null, dueDate: null, amountCents: 15_990, forced: false }, MONDAY);
    await logIntent(ledger, 'pay_bill', `bill:${cut}`, { code: fixedBill }, MONDAY);
    expect((await checkLedger(ledger)).openCalls).toHaveLength(1);
    const r = await pay([{ code: fixedBill }], { force: true });
    expect(r.outcomes.map((o) => [o.status, o.row.id, o.row.forced])).toEqual([['paid', 2, 1]]);
    expect(await getBill(ledger, cut)).toMatchObject({ status: 'failed', error: 'not found at the provider when it was paid again with --force as bill #2' });
    expect((await callsOf(ledger, `bill:${cut}`)).map((c) => c.outcome)).toEqual([null, 'unknown']);
    expect(await checkLedger(ledger)).toMatchObject({ openCalls: [], strayCalls: [], clean: true });
    // The file run again sees the bill paid, not a payment in doubt.
    const again = await pay([{ code: fixedBill, file: 'contas.csv', line: 2 }]);
    expect(again.skipped.map((s) => s.paidBy.id)).toEqual([2]);
  });

  it("an event that settles the bill while the call is in flight stands: the lost answer does not write 'unknown' over it", async () => {
    let ledgerRef: Ledger | undefined;
    const provider = fixedProvider(
      () => lostAnswer(),
      async () => {
        // The daemon receives the provider's bill_paid event before the payment's answer is lost.
        await recordWebhookEvent(ledgerRef!, billPaidEvent(fixedBill, 159.9, 'tx-from-event'), { deliveryId: 'd1', receivedAt: MONDAY }, { onCallback: applyCallback });
      },
    );
    const { pay, ledger } = await setUp(provider);
    ledgerRef = ledger;
    const r = await pay([{ code: fixedBill }]);
    expect(r.outcomes[0]?.row).toMatchObject({ status: 'paid', transaction_id: 'tx-from-event', error: null });
    // One outcome: the event's; the call's lost answer does not add a second.
    expect((await callsOf(ledger, 'bill:1')).map((c) => c.outcome)).toEqual([null, 'ok']);
    expect(await checkLedger(ledger)).toMatchObject({ openCalls: [], strayCalls: [], clean: true });
  });

  it('checks the ledger again as it pays: a bill another run started meanwhile is refused, nothing sent', async () => {
    const provider = fixedProvider();
    const { deps, ledger } = await setUp(provider);
    const request = { code: fixedBill };
    const p = payBills(deps, [request], {
      force: false,
      confirm: async ([bill]) => {
        await insertBillIntent(ledger, { barcode: bill!.decoded.barcode, line: bill!.decoded.line, kind: 'bank', description: null, beneficiary: null, beneficiaryDocument: null, assignor: null, dueDate: null, amountCents: 15_990, forced: false }, MONDAY);
        return true;
      },
    });
    const e = await p.then(() => null, (x: unknown) => x);
    expect(e).toMatchObject({ stage: 'paying', refused: [{ request, reasons: [{ code: 'unfinished_payment_in_ledger', billId: 1, status: 'intent', createdAt: '2025-03-10T13:00:00.000Z', transactionId: null }] }] });
    const shown = refusedBillsError(e as BillsRefusedError, [request], 'option');
    expect(shown.message).toBe('This bill cannot be paid; nothing was paid.');
    expect(shown.problems).toEqual([{ field: 'code', code: 'unfinished_payment_in_ledger', reason: expect.stringMatching(/^a payment of this bill is being sent since 2025-03-10 13:00 UTC \(bill #1\), by another run right now or by one that stopped before recording its outcome/) }]);
    expect(shown.hint).toBeUndefined();
    expect(provider.calls.map((c) => c.op)).toEqual(['details']);
    expect(await listBills(ledger, ['intent', 'paid'])).toHaveLength(1);
  });

  it('pays a returned or failed bill again without --force', async () => {
    let answer: () => ReturnType<typeof paymentFor> | Error = () => httpError(422, 'amount_mismatch');
    const provider = fixedProvider(() => answer());
    const { pay } = await setUp(provider);
    expect((await pay([{ code: fixedBill }])).outcomes[0]?.status).toBe('failed');
    answer = () => paymentFor(fixedBill, 15_990);
    expect((await pay([{ code: fixedBill }])).outcomes[0]?.status).toBe('paid');
  });

  it("marks the provider's 409 as failed with a clear message", async () => {
    const provider = fixedProvider(() => httpError(409, 'bill_already_paid', 'this bill was already paid'));
    const { pay } = await setUp(provider);
    const o = (await pay([{ code: fixedBill }])).outcomes[0]!;
    expect(o.status).toBe('failed');
    expect(o.row.error).toMatch(/^already paid at the provider/);
    expect(o.answer).toMatchObject({ kind: 'refused', alreadyPaid: true });
    expect(outcomeText(o).message).toMatch(/already paid or scheduled at the provider.*Nothing was paid now/);
    expect(outcomeText(o).hint).toMatch(/Someone else may have paid it/);
  });

  it('keeps a scheduled payment as scheduled, and an unknown status word as unknown', async () => {
    const scheduled = fixedProvider(() => paymentFor(fixedBill, 15_990, { status: 'scheduled', settleDate: '2025-03-10' }));
    const s = await setUp(scheduled, SATURDAY);
    const o = (await s.pay([{ code: fixedBill }])).outcomes[0]!;
    expect(o.status).toBe('scheduled');
    expect(outcomeText(o).message).toMatch(/^Scheduled: R\$ 159,90 to .* for 2025-03-10/);
    expect(o.warnings).toEqual([]);
    expect(s.asked[0]?.[0]?.timing).toMatchObject({ windowOpen: false, scheduledFor: '2025-03-10' });
    expect(pdfText(readFileSync(o.receiptPath!))).toContain('Scheduled for 2025-03-10');

    const odd = fixedProvider(() => paymentFor(fixedBill, 15_990, { status: 'processing' }));
    const u = await setUp(odd);
    const w = (await u.pay([{ code: fixedBill }])).outcomes[0]!;
    expect(w.status).toBe('unknown');
    expect(w.row).toMatchObject({ status: 'unknown', remote_status: 'processing', transaction_id: expect.any(String) });
    expect(outcomeText(w).message).toMatch(/with status "processing", which paybatch does not know; it is recorded as unknown \(bill #1\)\.$/);
  });

  it('pays nothing when the confirmation is declined', async () => {
    const provider = fixedProvider();
    const { pay, ledger } = await setUp(provider);
    await expect(pay([{ code: fixedBill }], { answer: false })).rejects.toBeInstanceOf(CancelledError);
    expect(provider.calls.map((c) => c.op)).toEqual(['details']);
    expect(await listBills(ledger, ['intent', 'paid'])).toEqual([]);
  });

  it('sends the amount given for a bill that lets the payer choose it', async () => {
    const reference = collectionLine({ valueId: 7, amountCents: 123 });
    const provider = new FakeProvider((code) => detailsFor(code, 0, { canChangeAmount: true, minValueCents: 1, maxValueCents: 100_000_000, originalAmountCents: 0 }));
    const { pay } = await setUp(provider);
    const e = await rejection(pay([{ code: reference }]));
    expect(e.reasons).toEqual([{ code: 'reference_value' }]);
    expect(e.problems[0]).toMatchObject({ field: 'amount', reason: expect.stringContaining('(--amount)') });
    await pay([{ code: reference, amount: '1.234,56' }]);
    expect(provider.calls.at(-1)).toEqual({ op: 'pay', code: reference, amountCents: 123_456 });
  });
});

describe('payBills: a list', () => {
  const codes = [1, 2, 3, 4].map((i) => bankLine({ amountCents: 10_000 * i, tail: `000${i}` }));
  const listProvider = (pay?: ConstructorParameters<typeof FakeProvider>[1]) =>
    new FakeProvider((code) => detailsFor(code, 10_000 * (codes.indexOf(code) + 1)), pay);
  const rows = (list: string[]): BillRequest[] => list.map((code, i) => ({ code, file: 'bills.csv', line: i + 2 }));

  it('validates every row first: with one bad row nothing is paid and every problem is named by line', async () => {
    const provider = listProvider();
    const { pay, ledger } = await setUp(provider);
    const bad = [...rows(codes.slice(0, 2)), { code: '123', file: 'bills.csv', line: 4 }, { code: codes[0]!, file: 'bills.csv', line: 5 }, { code: codes[2]!, amount: '1,2,3', file: 'bills.csv', line: 6 }];
    const e = await rejection(pay(bad), bad);
    expect(e.refused.map((b) => [b.request.line, b.reasons.map((r) => r.code)])).toEqual([[4, ['invalid_code']], [5, ['same_bill_twice']], [6, ['invalid_amount']]]);
    expect(e.message).toBe('3 of 5 bills in bills.csv cannot be paid; nothing was paid.');
    expect(e.hint).toBeUndefined();
    expect(e.problems.map((p) => [p.line, p.field])).toEqual([[4, 'code'], [5, 'code'], [6, 'amount']]);
    expect(e.problems[1]?.reason).toMatch(/same bill as line 2/);
    expect(provider.calls.filter((c) => c.op === 'pay')).toEqual([]);
    expect(await listBills(ledger, ['intent', 'paid'])).toEqual([]);
  });

  it('confirms once and pays one by one', async () => {
    const provider = listProvider();
    const { pay, asked } = await setUp(provider);
    const r = await pay(rows(codes));
    expect(asked).toHaveLength(1);
    expect(asked[0]?.map((b) => b.amountCents)).toEqual([10_000, 20_000, 30_000, 40_000]);
    expect(r.outcomes.map((o) => o.status)).toEqual(['paid', 'paid', 'paid', 'paid']);
  });

  it('stops at the first unknown outcome; a definite refusal does not stop it', async () => {
    const provider = listProvider((code, cents) => (code === codes[0] ? httpError(409, 'bill_already_paid') : code === codes[1] ? lostAnswer() : paymentFor(code, cents)));
    const { pay } = await setUp(provider);
    const r = await pay(rows(codes));
    expect(r.outcomes.map((o) => o.status)).toEqual(['failed', 'unknown']);
    expect(r.notAttempted.map((b) => b.request.line)).toEqual([4, 5]);
    expect(provider.calls.filter((c) => c.op === 'pay')).toHaveLength(2);
  });

  it('run again after an unknown outcome: refused until that bill is settled, then pays only what is left', async () => {
    let lose = true;
    const provider = listProvider((code, cents) => (code === codes[1] && lose ? lostAnswer() : paymentFor(code, cents)));
    const { pay, ledger } = await setUp(provider);
    const first = await pay(rows(codes));
    expect(first.outcomes.map((o) => o.status)).toEqual(['paid', 'unknown']);

    const refused = await rejection(pay(rows(codes)), rows(codes));
    expect(refused.problems).toEqual([{ file: 'bills.csv', line: 3, field: 'code', code: 'unknown_outcome_in_ledger', reason: expect.stringMatching(/unknown outcome \(bill #2\)/) }]);

    // Checked at the provider: not there. Paid again on its own with --force.
    lose = false;
    expect((await pay([{ code: codes[1]! }], { force: true })).outcomes[0]?.status).toBe('paid');

    const rest = await pay(rows(codes));
    expect(rest.skipped.map((k) => [k.request.line, k.paidBy.id])).toEqual([[2, 1], [3, 3]]);
    expect(leftOutText(rest.skipped[0]!.paidBy)).toMatch(/^already paid on .* \(bill #1, transaction [\w-]+\)$/);
    expect(rest.outcomes.map((o) => [o.bill.request.line, o.status])).toEqual([[4, 'paid'], [5, 'paid']]);

    const again = await pay(rows(codes));
    expect(again).toMatchObject({ outcomes: [], skipped: [{}, {}, {}, {}] });
    expect(await listBills(ledger, ['paid'])).toHaveLength(4);
    expect(provider.calls.filter((c) => c.op === 'pay')).toHaveLength(5);
  });
});

describe('inspectBill', () => {
  it('returns the details with the rules applied, and problems instead of throwing', async () => {
    const provider = new FakeProvider((code) => detailsFor(code, 19_590));
    const bill = await inspected(inspectBill({ provider: async () => provider, now: () => MONDAY }, fixedBill));
    expect(billKindName(bill.decoded)).toBe('bank slip (bank 237)');
    expect(bill.refusals).toEqual([{ code: 'amount_mismatch', codeCents: 15_990, providerCents: 19_590 }]);
    expect(bill.timing.windowOpen).toBe(true);
  });

  it('warns when the provider expects another settle date than this clock', async () => {
    const provider = new FakeProvider((code) => detailsFor(code, 15_990, { settleDate: '2025-03-12' }));
    const bill = await inspected(inspectBill({ provider: async () => provider, now: () => MONDAY }, fixedBill));
    expect(bill.warnings).toEqual([{ code: 'settle_date_differs', providerSettleDate: '2025-03-12', expectedSettleDate: '2025-03-10' }]);
    expect(bill.warnings.map(warningText)).toContain("the provider gives 2025-03-12 as the settle date, while this computer's clock expects 2025-03-10: the provider's clock decides");
  });

  it('refuses an invalid code without calling the provider', async () => {
    const provider = fixedProvider();
    const r = await inspectBill({ provider: async () => provider, now: () => MONDAY }, '1234');
    expect(r).toEqual({ ok: false, stage: 'code', refusal: { code: 'invalid_code', problems: [{ code: 'wrong_length', length: 4 }] } });
    expect(provider.calls).toEqual([]);
  });
});

describe("resolveBill: what the provider's statement shows", () => {
  const cutShort = async () => {
    const provider = fixedProvider();
    const { ledger, pay } = await setUp(provider);
    const id = await insertBillIntent(ledger, { barcode: decodedBarcode(fixedBill), line: fixedBill, kind: 'bank', description: null, beneficiary: null, beneficiaryDocument: null, assignor: null, dueDate: null, amountCents: 15_990, forced: false }, MONDAY);
    await logIntent(ledger, 'pay_bill', `bill:${id}`, { code: fixedBill }, MONDAY);
    return { ledger, pay, provider, id };
  };

  it('paid: the bill is paid with its transaction, its call closed, and paying it again is refused', async () => {
    const { ledger, pay, provider, id } = await cutShort();
    expect(await resolveBill(ledger, id, { paid: true, transactionId: 'tx-statement' }, MONDAY)).toMatchObject({ status: 'paid', transaction_id: 'tx-statement' });
    expect((await callsOf(ledger, `bill:${id}`)).map((c) => c.outcome)).toEqual([null, 'ok']);
    expect((await checkLedger(ledger)).clean).toBe(true);
    await rejection(pay([{ code: fixedBill }]));
    expect(provider.calls.filter((c) => c.op === 'pay')).toHaveLength(0);
  });

  it('not paid: the bill is closed as failed and may be paid again without --force', async () => {
    const { ledger, pay, provider, id } = await cutShort();
    expect(await resolveBill(ledger, id, { paid: false }, MONDAY)).toMatchObject({ status: 'failed', error: expect.stringMatching(/^not paid: the provider's statement shows no payment of it/) });
    expect((await callsOf(ledger, `bill:${id}`)).map((c) => c.outcome)).toEqual([null, 'error']);
    expect((await checkLedger(ledger)).clean).toBe(true);
    expect((await pay([{ code: fixedBill }])).outcomes.map((o) => [o.status, o.row.forced])).toEqual([['paid', 0]]);
    expect(provider.calls.filter((c) => c.op === 'pay')).toHaveLength(1);
  });

  it('refuses a bill whose outcome is known', async () => {
    const { ledger, id } = await cutShort();
    await resolveBill(ledger, id, { paid: true, transactionId: null }, MONDAY);
    await expect(resolveBill(ledger, id, { paid: false }, MONDAY)).rejects.toThrow(/^Bill #1 is paid: only a payment whose outcome is unknown/);
  });
});

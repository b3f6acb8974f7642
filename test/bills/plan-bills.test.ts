import { describe, expect, it } from 'vitest';
import { decodeBoleto } from '../../src/domain/boleto.js';
import type { BillRefusal } from '../../src/engine/bills/bill-plan.js';
import { detailsToAsk, MAX_BILL_DESCRIPTION, planBills, type BillDecision, type BillPlanInput, type BillRequest, type DetailsAnswer } from '../../src/engine/bills/plan-bills.js';
import type { BillRow } from '../../src/ledger/bill-repository.js';
import type { BillStatus } from '../../src/ledger/schema.js';
import type { BillDetails } from '../../src/provider/types.js';
import { bankLine, collectionLine, detailsFor } from './fixtures.js';

// The pure plan: no ledger, no provider; every expected decision is written out by hand.
const MONDAY = new Date('2025-03-10T10:00:00-03:00');
const SATURDAY = new Date('2025-03-08T22:30:00-03:00');

const fixed = bankLine({ amountCents: 15_990 });
const other = bankLine({ amountCents: 20_000, tail: '0002' });
const third = bankLine({ amountCents: 30_000, tail: '0003' });
const reference = collectionLine({ valueId: 7 });

const row = (id: number, status: BillStatus, line = fixed): BillRow =>
  ({ id, status, line, barcode: decodeBoleto(line, '2025-03-10').barcode, created_at: '2025-03-07T13:00:00.000Z', transaction_id: status === 'paid' ? `tx-${id}` : null }) as BillRow;

/** What a refusal says of a ledger row made by `row`. */
const attempt = (id: number, status: BillStatus) => ({ billId: id, status, createdAt: '2025-03-07T13:00:00.000Z', transactionId: status === 'paid' ? `tx-${id}` : null });

const found = (details: BillDetails): DetailsAnswer => ({ ok: true, details });

/** A request with what the shell would gather for it: the decode, the ledger's rows, and details when asked. */
function input(request: BillRequest, o: { previous?: BillRow[]; details?: DetailsAnswer | null } = {}): BillPlanInput {
  const decoded = decodeBoleto(request.code, '2025-03-10');
  const details = o.details === null ? undefined : (o.details ?? (decoded.valid ? found(detailsFor(request.code, decoded.amountCents ?? 0)) : undefined));
  return { request, decoded, previous: o.previous ?? [], ...(details === undefined ? {} : { details }) };
}

const plan = (inputs: BillPlanInput[], o: { now?: Date; force?: boolean; skipPaid?: boolean } = {}) =>
  planBills(inputs, { now: o.now ?? MONDAY, force: o.force ?? false, skipPaid: o.skipPaid ?? false });

/** A decision in short: what to pay, what to leave out, or the reasons of a refusal. */
function summary(d: BillDecision) {
  switch (d.action) {
    case 'pay':
      return { pay: d.bill.amountCents, scheduledFor: d.bill.timing.scheduledFor, warnings: d.bill.warnings, previous: d.bill.previous.map((p) => p.id) };
    case 'skip':
      return { skip: d.paidBy.id };
    case 'refuse':
      return { refuse: d.reasons };
  }
}

const paidRow = row(1, 'paid');

describe('planBills: one request', () => {
  it.each<[string, BillPlanInput, { force?: boolean; skipPaid?: boolean; now?: Date }, ReturnType<typeof summary>]>([
    ['a fixed bill: its own amount, now', input({ code: fixed }), {}, { pay: 15_990, scheduledFor: null, warnings: [], previous: [] }],
    ['on Saturday night: scheduled for Monday', input({ code: fixed }), { now: SATURDAY }, { pay: 15_990, scheduledFor: '2025-03-10', warnings: [], previous: [] }],
    ['an empty code', input({ code: '   ' }), {}, { refuse: [{ code: 'no_code' }] }],
    [
      'a bad code, a bad amount and a long description: every reason, in that order',
      input({ code: '1234', amount: '1,2,3', description: 'x'.repeat(MAX_BILL_DESCRIPTION + 1) }),
      {},
      {
        refuse: [
          { code: 'invalid_code', problems: [{ code: 'wrong_length', length: 4 }] },
          { code: 'invalid_amount', reason: { code: 'amount_misplaced_group', text: '1,2,3', mark: ',' } },
          { code: 'description_too_long', length: 141, max: 140 },
        ],
      },
    ],
    ['a description of exactly the maximum', input({ code: fixed, description: ` ${'x'.repeat(MAX_BILL_DESCRIPTION)} ` }), {}, { pay: 15_990, scheduledFor: null, warnings: [], previous: [] }],
    ['paid in the ledger', input({ code: fixed }, { previous: [paidRow] }), {}, { refuse: [{ code: 'already_paid_in_ledger', ...attempt(1, 'paid') }] }],
    ['scheduled in the ledger', input({ code: fixed }, { previous: [row(2, 'scheduled')] }), {}, { refuse: [{ code: 'already_paid_in_ledger', ...attempt(2, 'scheduled') }] }],
    ['unknown in the ledger', input({ code: fixed }, { previous: [row(3, 'unknown')] }), {}, { refuse: [{ code: 'unknown_outcome_in_ledger', ...attempt(3, 'unknown') }] }],
    ['an intent without outcome in the ledger', input({ code: fixed }, { previous: [row(4, 'intent')] }), {}, { refuse: [{ code: 'unfinished_payment_in_ledger', ...attempt(4, 'intent') }] }],
    ['paid in the ledger, with --force', input({ code: fixed }, { previous: [paidRow] }), { force: true }, { pay: 15_990, scheduledFor: null, warnings: [], previous: [1] }],
    ['paid in the ledger, in a file run again', input({ code: fixed }, { previous: [paidRow] }), { skipPaid: true }, { skip: 1 }],
    ['unknown in the ledger, in a file run again: still refused', input({ code: fixed }, { previous: [row(3, 'unknown')] }), { skipPaid: true }, { refuse: [{ code: 'unknown_outcome_in_ledger', ...attempt(3, 'unknown') }] }],
    ['unknown, then paid with --force: the newest decides', input({ code: fixed }, { previous: [row(3, 'unknown'), row(5, 'paid')] }), { skipPaid: true }, { skip: 5 }],
    [
      'paid in the ledger, in a file, with a bad amount: refused, not left out',
      input({ code: fixed, amount: 'abc' }, { previous: [paidRow] }),
      { skipPaid: true },
      { refuse: [{ code: 'invalid_amount', reason: { code: 'amount_characters', text: 'abc' } }, { code: 'already_paid_in_ledger', ...attempt(1, 'paid') }] },
    ],
    ['a bill the provider does not know', input({ code: fixed }, { details: { ok: false, refusal: { code: 'unknown_to_provider' } } }), {}, { refuse: [{ code: 'unknown_to_provider' }] }],
    ['details with another amount than the code', input({ code: fixed }, { details: found(detailsFor(fixed, 19_590)) }), {}, { refuse: [{ code: 'amount_mismatch', codeCents: 15_990, providerCents: 19_590 }] }],
    [
      "another bill's details, and another amount asked for a fixed bill",
      input({ code: fixed, amount: '100' }, { details: found(detailsFor(other, 15_990)) }),
      {},
      { refuse: [{ code: 'another_bill', providerLine: other }, { code: 'fixed_amount', billCents: 15_990, requestedCents: 10_000 }] },
    ],
    ['a reference-value slip without an amount', input({ code: reference }, { details: found(detailsFor(reference, 0, { canChangeAmount: true, originalAmountCents: 0 })) }), {}, { refuse: [{ code: 'reference_value' }] }],
    [
      'a reference-value slip with an amount',
      input({ code: reference, amount: '25,00' }, { details: found(detailsFor(reference, 0, { canChangeAmount: true, minValueCents: 1, maxValueCents: 100_000, originalAmountCents: 0 })) }),
      {},
      { pay: 2_500, scheduledFor: null, warnings: [], previous: [] },
    ],
    [
      'past due, with interest and a discount, and another settle date: paid, with warnings',
      input({ code: fixed }, { details: found(detailsFor(fixed, 16_000, { originalAmountCents: 15_990, dueDate: '2025-03-05', interestCents: 110, discountCents: 100, settleDate: '2025-03-11' })) }),
      {},
      {
        pay: 16_000,
        scheduledFor: null,
        warnings: [
          { code: 'due_date_differs', codeDueDate: '2025-03-20', providerDueDate: '2025-03-05' },
          { code: 'past_due', dueDate: '2025-03-05', interestCents: 110 },
          { code: 'discount', discountCents: 100 },
          { code: 'settle_date_differs', providerSettleDate: '2025-03-11', expectedSettleDate: '2025-03-10' },
        ],
        previous: [],
      },
    ],
  ])('%s', (_what, one, o, expected) => {
    expect(plan([one], o).map(summary)).toEqual([expected]);
  });
});

describe('planBills: a list', () => {
  const rows = (requests: Omit<BillRequest, 'file' | 'line'>[]) => requests.map((r, i) => ({ ...r, file: 'bills.csv', line: i + 2 }));

  it('refuses the same bill twice, naming the line of the first (or "another request" without lines)', () => {
    const [a, b, c] = rows([{ code: fixed }, { code: other }, { code: fixed }]);
    expect(plan([input(a!), input(b!), input(c!, { details: null })]).map(summary)).toEqual([
      { pay: 15_990, scheduledFor: null, warnings: [], previous: [] },
      { pay: 20_000, scheduledFor: null, warnings: [], previous: [] },
      { refuse: [{ code: 'same_bill_twice', firstLine: 2 }] },
    ]);
    expect(plan([input({ code: fixed }), input({ code: fixed }, { details: null })]).map(summary)[1]).toEqual({ refuse: [{ code: 'same_bill_twice', firstLine: null }] });
  });

  it('asks the provider only for requests that pass every offline check', () => {
    const requests = rows([{ code: fixed }, { code: '99' }, { code: other, amount: 'x' }, { code: fixed }, { code: reference }, { code: third }]);
    const inputs = requests.map((r, i) => input(r, { previous: i === 5 ? [row(9, 'paid', third)] : [], details: null }));
    expect(detailsToAsk(inputs, { now: MONDAY, force: false, skipPaid: true })).toEqual([decodeBoleto(fixed, '2025-03-10').line, null, null, null, decodeBoleto(reference, '2025-03-10').line, null]);
    expect(detailsToAsk(inputs, { now: MONDAY, force: true, skipPaid: true }).map((l) => l !== null)).toEqual([true, false, false, false, true, true]);
  });

  it('decides every request, in order, so every problem can be shown at once', () => {
    const requests = rows([{ code: fixed }, { code: '99' }, { code: other }, { code: reference }]);
    const inputs = [input(requests[0]!), input(requests[1]!), input(requests[2]!, { previous: [row(9, 'paid', other)], details: null }), input(requests[3]!, { details: found(detailsFor(reference, 0, { canChangeAmount: true, originalAmountCents: 0 })) })];
    const decisions = plan(inputs, { skipPaid: true });
    expect(decisions.map((d) => d.action)).toEqual(['pay', 'refuse', 'skip', 'refuse']);
    expect(decisions.map((d) => (d.action === 'pay' ? d.bill.request.line : d.request.line))).toEqual([2, 3, 4, 5]);
    expect(decisions.flatMap((d) => (d.action === 'refuse' ? d.reasons.map((r: BillRefusal) => r.code) : []))).toEqual(['invalid_code', 'reference_value']);
  });

  it('throws when a request that needs the provider has no details (a mistake of the caller)', () => {
    expect(() => plan([input({ code: fixed }, { details: null })])).toThrow(/no details for request 1/);
  });
});

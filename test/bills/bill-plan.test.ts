import { describe, expect, it } from 'vitest';
import { decodeBoleto } from '../../src/domain/boleto.js';
import { billKindName, refusalText, timingText, warningText } from '../../src/cli/commands/boleto/bill-messages.js';
import { billTiming, chooseAmount, crossCheck, returnPossibleUntil } from '../../src/engine/bills/bill-plan.js';
import { bankLine, collectionLine, detailsFor } from './fixtures.js';

const decode = (line: string) => decodeBoleto(line, '2025-03-10');

describe('billKindName', () => {
  it.each([
    [bankLine(), 'bank slip (bank 237)'],
    [collectionLine({ segment: 3 }), 'utility bill: electricity and gas (energia elétrica e gás)'],
    [collectionLine({ segment: 5 }), 'government collection: government agencies (órgãos governamentais)'],
    [collectionLine({ segment: 9 }), 'collection slip: bank use only (uso exclusivo do banco)'],
  ])('%s is a %s', (line, name) => {
    expect(billKindName(decode(line))).toBe(name);
  });
});

describe('billTiming: the bank window, São Paulo time', () => {
  it.each([
    ['a weekday morning', bankLine(), '2025-03-10T10:00:00-03:00', true, null],
    ['08:00 sharp', bankLine(), '2025-03-10T08:00:00-03:00', true, null],
    ['before 08:00 the same day', bankLine(), '2025-03-10T07:59:00-03:00', false, '2025-03-10'],
    ['a bank slip at 20:00', bankLine(), '2025-03-10T20:00:00-03:00', false, '2025-03-11'],
    ['a utility bill at 21:00', collectionLine({ segment: 3 }), '2025-03-10T21:00:00-03:00', true, null],
    ['a government collection at 21:59', collectionLine({ segment: 5 }), '2025-03-10T21:59:00-03:00', true, null],
    ['a utility bill at 22:00', collectionLine({ segment: 3 }), '2025-03-10T22:00:00-03:00', false, '2025-03-11'],
    ['a company collection slip at 21:00 (20:00 close)', collectionLine({ segment: 6 }), '2025-03-10T21:00:00-03:00', false, '2025-03-11'],
    ['Saturday night', bankLine(), '2025-03-08T22:30:00-03:00', false, '2025-03-10'],
    ['Friday night before Carnival', bankLine(), '2025-02-28T21:00:00-03:00', false, '2025-03-05'],
  ])('%s', (_what, line, instant, open, scheduledFor) => {
    const t = billTiming(decode(line), new Date(instant));
    expect(t.windowOpen).toBe(open);
    expect(t.scheduledFor).toBe(scheduledFor);
    expect(timingText(t)).toMatch(open ? /paid at once/ : new RegExp(`scheduled for ${scheduledFor} 08:00`));
  });

  it('names the 22:00 close of utility and government bills', () => {
    expect(billTiming(decode(collectionLine({ segment: 2 })), new Date('2025-03-08T12:00:00-03:00'))).toMatchObject({ closeHour: 22, windowOpen: false });
    expect(timingText(billTiming(decode(collectionLine({ segment: 2 })), new Date('2025-03-08T12:00:00-03:00')))).toContain('08:00–22:00');
  });
});

describe('crossCheck: the details must describe the bill typed', () => {
  it('accepts details that agree, and warns of a discount', () => {
    const line = bankLine();
    expect(crossCheck(decode(line), detailsFor(line, 15_990), '2025-03-10')).toEqual({ refusals: [], warnings: [] });
    const discounted = detailsFor(line, 15_670, { originalAmountCents: 15_990, discountCents: 320 });
    const r = crossCheck(decode(line), discounted, '2025-03-10');
    expect(r).toEqual({ refusals: [], warnings: [{ code: 'discount', discountCents: 320 }] });
    expect(r.warnings.map(warningText)).toEqual(['the provider grants a discount of R$ 3,20']);
  });

  it('refuses when the provider has another amount than the one written in the code', () => {
    const line = bankLine({ amountCents: 15_990 });
    const r = crossCheck(decode(line), detailsFor(line, 19_590), '2025-03-10');
    expect(r.refusals).toEqual([{ code: 'amount_mismatch', codeCents: 15_990, providerCents: 19_590 }]);
    expect(refusalText(r.refusals[0]!, 'option')).toMatch(/code says R\$ 159,90 but the provider's bill is R\$ 195,90.*mistyped digit/);
  });

  it('compares with the amount due when the provider gives no original amount and no discount or interest', () => {
    const line = collectionLine({ amountCents: 8_745 });
    expect(crossCheck(decode(line), detailsFor(line, 8_754, { originalAmountCents: null }), '2025-03-10').refusals).toHaveLength(1);
    // With interest the amount due is not the face value: nothing to compare.
    expect(crossCheck(decode(line), detailsFor(line, 9_000, { originalAmountCents: null, interestCents: 255 }), '2025-03-10').refusals).toEqual([]);
  });

  it('refuses details of another line, and accepts the barcode or a formatted line', () => {
    const line = bankLine();
    const other = bankLine({ tail: '9999' });
    const another = crossCheck(decode(line), detailsFor(other, 15_990), '2025-03-10').refusals;
    expect(another).toEqual([{ code: 'another_bill', providerLine: other }]);
    expect(refusalText(another[0]!, 'option')).toMatch(/another bill/);
    const d = decode(line);
    expect(crossCheck(d, detailsFor(d.barcode!, 15_990), '2025-03-10').refusals).toEqual([]);
    expect(crossCheck(d, detailsFor(`${line.slice(0, 5)}.${line.slice(5)}`, 15_990), '2025-03-10').refusals).toEqual([]);
    expect(crossCheck(d, detailsFor('', 15_990), '2025-03-10').refusals).toEqual([]);
  });

  it('skips the amount check of slips whose amount the payer gives', () => {
    const reference = collectionLine({ valueId: 7, amountCents: 12_345 });
    expect(crossCheck(decode(reference), detailsFor(reference, 0, { canChangeAmount: true }), '2025-03-10').refusals).toEqual([]);
  });

  it('warns of a different due date and of a bill past due', () => {
    const line = bankLine({ dueDate: '2025-03-20' });
    const r = crossCheck(decode(line), detailsFor(line, 15_990, { dueDate: '2025-03-05', interestCents: 412 }), '2025-03-10');
    expect(r.warnings).toEqual([
      { code: 'due_date_differs', codeDueDate: '2025-03-20', providerDueDate: '2025-03-05' },
      { code: 'past_due', dueDate: '2025-03-05', interestCents: 412 },
    ]);
    expect(r.warnings.map(warningText)).toEqual(["the code's due date is 2025-03-20, the provider's is 2025-03-05", 'past due since 2025-03-05; the provider adds R$ 4,12 of interest and fines']);
  });
});

describe('chooseAmount: the amount rules', () => {
  const fixed = bankLine({ amountCents: 15_990 });
  const zero = bankLine({ amountCents: 0 });
  const reference = collectionLine({ valueId: 7 });
  const open = (line: string) => detailsFor(line, 0, { canChangeAmount: true, minValueCents: 1, maxValueCents: 100_000_000, originalAmountCents: 0 });

  it.each([
    ['a fixed bill, no amount given: its own', fixed, detailsFor(fixed, 15_990), null, 15_990],
    ['a fixed bill with a discount: the amount due today', fixed, detailsFor(fixed, 15_670, { discountCents: 320, originalAmountCents: 15_990 }), null, 15_670],
    ['a fixed bill, exactly its amount given', fixed, detailsFor(fixed, 15_990), 15_990, 15_990],
    ['a zero-amount slip with an amount', zero, open(zero), 50_000, 50_000],
    ['a reference-value slip with an amount', reference, open(reference), 12_345, 12_345],
    ['the minimum', zero, open(zero), 1, 1],
    ['the maximum', zero, open(zero), 100_000_000, 100_000_000],
  ])('pays %s', (_what, line, details, requested, expected) => {
    expect(chooseAmount(decode(line), details, requested)).toEqual({ ok: true, amountCents: expected });
  });

  it.each([
    ['another amount for a fixed bill', fixed, detailsFor(fixed, 15_990), 16_000, { code: 'fixed_amount', billCents: 15_990, requestedCents: 16_000 }, /^this bill's amount cannot change: it is R\$ 159,90, not R\$ 160,00 \(leave the amount out to pay it\)$/],
    ['a reference-value slip without an amount', reference, open(reference), null, { code: 'reference_value' }, /reference value.*\(--amount\)$/],
    ['a zero-amount slip without an amount', zero, open(zero), null, { code: 'amount_needed', minCents: 1, maxCents: 100_000_000 }, /does not fix its amount.*between R\$ 0,01 and R\$ 1\.000\.000,00 \(--amount\)$/],
    ['a zero-amount slip without an amount or limits', zero, { ...open(zero), minValueCents: null }, null, { code: 'amount_needed', minCents: null, maxCents: null }, /^this bill does not fix its amount: give the amount to pay \(--amount\)$/],
    ['an amount above the maximum', zero, open(zero), 100_000_001, { code: 'above_maximum', requested: true, amountCents: 100_000_001, maxCents: 100_000_000 }, /^the amount R\$ 1\.000\.000,01 is above the bill's maximum of R\$ 1\.000\.000,00$/],
    ['an amount below the minimum', zero, { ...open(zero), minValueCents: 1_000 }, 999, { code: 'below_minimum', requested: true, amountCents: 999, minCents: 1_000 }, /^the amount R\$ 9,99 is below the bill's minimum of R\$ 10,00$/],
    ["a bill's own amount below its minimum", fixed, detailsFor(fixed, 15_990, { minValueCents: 20_000 }), null, { code: 'below_minimum', requested: false, amountCents: 15_990, minCents: 20_000 }, /^the bill's amount R\$ 159,90 is below/],
    ['a fixed bill the provider gives no amount for', fixed, detailsFor(fixed, 0, { minValueCents: null, maxValueCents: null, originalAmountCents: null }), null, { code: 'no_amount' }, /^the provider gives no amount for this bill$/],
    ['an amount for a fixed bill the provider gives no amount for', fixed, detailsFor(fixed, 0, { minValueCents: null, maxValueCents: null, originalAmountCents: null }), 100, { code: 'amount_not_choosable' }, /does not let the payer choose one$/],
  ])('refuses %s', (_what, line, details, requested, refusal, text) => {
    const r = chooseAmount(decode(line), details, requested);
    expect(r).toEqual({ ok: false, refusal });
    if (!r.ok) expect(refusalText(r.refusal, 'option')).toMatch(text);
  });

  it('names the way to give the amount', () => {
    const r = chooseAmount(decode(reference), open(reference), null);
    expect(!r.ok && refusalText(r.refusal, 'column')).toMatch(/\(the amount column\)$/);
  });
});

describe('returnPossibleUntil', () => {
  it.each([
    ['2025-03-10', '2025-03-17'],
    ['2025-02-28', '2025-03-11'], // Carnival Monday and Tuesday are not business days
    ['2025-12-23', '2025-12-31'], // Christmas is not a business day; 31 December is
  ])('a bill settled %s can be returned until %s', (settle, until) => {
    expect(returnPossibleUntil(settle)).toBe(until);
  });
  it('is null without a date', () => {
    expect(returnPossibleUntil(null)).toBeNull();
    expect(returnPossibleUntil('soon')).toBeNull();
  });
});

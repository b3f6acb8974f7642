import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { daysSinceFactorBase, dueDateFromFactor, factorFromDueDate } from '../../src/domain/bank-slip.js';
import { decodeBoleto } from '../../src/domain/boleto.js';

// The due-date factor counts days from 1997-10-07; it reached 9999 on 2025-02-21 and restarted at 1000 on
// 2025-02-22 (FEBRABAN; BoletoNet/BoletoNetCore BoletoNetCore.Testes/FatorVencimento.cs asserts exactly these two
// dates). Vectors below: fernandosavio/boleto-utils boleto-utils/tests/lib_test.rs (factor → date, synthetic
// barcodes "111…" with valid check digits, and real barcodes), mrmgomes/boleto-utils test/test.js (barcode 10499898…: factor 8981 → 2022-05-10).

const isoPlusDays = (iso: string, days: number): string =>
  new Date(Date.parse(`${iso}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

describe('dueDateFromFactor', () => {
  it.each([
    [9999, '2025-02-01', '2025-02-21'], // last day of the first cycle, seen before the restart
    [9999, '2025-03-01', '2025-02-21'], // … and after it
    [1000, '2025-03-01', '2025-02-22'], // first day of the second cycle
    [1000, '2025-02-01', '2025-02-22'], // 2000-07-03 is more than 3000 days back, so the new cycle
    [1002, '2025-06-01', '2025-02-24'],
    [1667, '2025-06-01', '2026-12-21'],
    [1667, '2002-01-01', '2002-05-01'], // the same factor, read in 2002
    [4789, '2010-01-01', '2010-11-17'], // old-cycle interpretation
    [4789, '2025-06-01', '2035-07-09'], // 2010-11-17 is now outside the window; 2035 is inside
    [8981, '2022-05-01', '2022-05-10'],
    [6720, '2016-02-15', '2016-03-01'],
    [1000, '2000-06-01', '2000-07-03'], // factor 1000 in the first cycle
    [1, '1998-01-01', '1997-10-08'], // factors below 1000 only existed in 1997-2000
  ])('factor %i, today %s → %s', (factor, today, expected) => {
    expect(dueDateFromFactor(factor, today)).toEqual({ ok: true, value: expected });
  });

  it('factor 0 means no due date', () => {
    expect(dueDateFromFactor(0, '2025-06-01')).toEqual({ ok: true, value: null });
  });

  it('fails when no cycle falls from 3000 days before to 5500 days after today', () => {
    expect(dueDateFromFactor(1, '2025-06-01')).toEqual({
      ok: false,
      warning: { code: 'due_date_unplaced', factor: '0001', earliest: '2017-03-15', latest: '2040-06-22', today: '2025-06-01' },
    });
    expect(dueDateFromFactor(1000, '2010-01-01').ok).toBe(false); // 2000-07-03 too old, 2025-02-22 too far
  });

  it('includes both edges of the window', () => {
    const today = '2025-06-01';
    const earliest = isoPlusDays(today, -3000);
    const latest = isoPlusDays(today, 5500);
    expect(dueDateFromFactor(factorFromDueDate(earliest), today)).toEqual({ ok: true, value: earliest });
    expect(dueDateFromFactor(factorFromDueDate(latest), today)).toEqual({ ok: true, value: latest });
    // one day further on either side is 8501 days wide of the other edge, less than a 9000-day cycle: no date
    expect(dueDateFromFactor(factorFromDueDate(isoPlusDays(earliest, -1)), today).ok).toBe(false);
    expect(dueDateFromFactor(factorFromDueDate(isoPlusDays(latest, 1)), today).ok).toBe(false);
  });

  it('throws on a malformed today', () => {
    expect(() => dueDateFromFactor(1000, '2025-13-01')).toThrow(RangeError);
  });

  it('reads back any date within the window of any today (property)', () => {
    const days = fc.integer({ min: 1, max: daysSinceFactorBase('2100-12-31') ?? 0 });
    fc.assert(
      fc.property(days, fc.integer({ min: -5500, max: 3000 }), (dueDays, offset) => {
        const dueDate = isoPlusDays('1997-10-07', dueDays);
        const today = isoPlusDays(dueDate, offset);
        expect(dueDateFromFactor(factorFromDueDate(dueDate), today)).toEqual({ ok: true, value: dueDate });
      }),
    );
  });
});

describe('factorFromDueDate', () => {
  it.each([
    ['1997-10-08', 1],
    ['2000-07-02', 999],
    ['2000-07-03', 1000],
    ['2010-11-17', 4789],
    ['2016-03-01', 6720],
    ['2022-05-10', 8981],
    ['2025-02-21', 9999],
    ['2025-02-22', 1000],
    ['2025-02-24', 1002],
    ['2026-12-21', 1667],
    ['2049-10-13', 9999], // the second cycle ends 9000 days later…
    ['2049-10-14', 1000], // … and the factor restarts at 1000 again
  ])('%s → %i', (date, factor) => {
    expect(factorFromDueDate(date)).toBe(factor);
  });

  it('throws before 1997-10-08 and on malformed dates', () => {
    expect(() => factorFromDueDate('1997-10-07')).toThrow(RangeError);
    expect(() => factorFromDueDate('2025-02-29')).toThrow(RangeError);
  });
});

describe('decodeBoleto due dates from real and library barcodes', () => {
  it.each([
    ['11193999955555555556666666666666666666666666', '2025-02-01', '2025-02-21'],
    ['11199100055555555556666666666666666666666666', '2025-03-01', '2025-02-22'],
    ['11191100255555555556666666666666666666666666', '2025-03-01', '2025-02-24'],
    ['11196166755555555556666666666666666666666666', '2025-06-01', '2026-12-21'],
    ['11198478955555555556666666666666666666666666', '2010-01-01', '2010-11-17'],
    ['11196000055555555556666666666666666666666666', '2025-06-01', null],
    ['75696903800002500001434301033723400014933001', '2022-07-01', '2022-07-06'],
    ['00191667900002434790000002656973019362470618', '2016-01-01', '2016-01-20'],
    ['10499898100000214032006561000100040099726390', '2022-05-01', '2022-05-10'],
  ])('%s today %s → %s', (barcode, today, dueDate) => {
    expect(decodeBoleto(barcode, today)).toMatchObject({ valid: true, dueDate });
  });

  it('a slip whose factor fits no window is still valid: its due date is unknown, and a warning names the factor', () => {
    expect(decodeBoleto('11199100055555555556666666666666666666666666', '2010-01-01')).toMatchObject({
      valid: true,
      kind: 'bank',
      dueDate: null,
      problems: [],
      warnings: [{ code: 'due_date_unplaced', factor: '1000', earliest: '2001-10-15', latest: '2025-01-22', today: '2010-01-01' }],
    });
  });

  it('the line of issue 13 (factor 7586, every check digit right) is valid with an unknown due date on 2026-11-23', () => {
    // 7586 days after 1997-10-07 is 2018-07-15, before the window; one cycle later, 2043-03-06, is after it.
    expect(decodeBoleto('00190000090114971860168524522114675860000102656', '2026-11-23')).toMatchObject({
      valid: true,
      kind: 'bank',
      bankCode: '001',
      amountCents: 102656,
      dueDate: null,
      problems: [],
      warnings: [{ code: 'due_date_unplaced', factor: '7586', earliest: '2018-09-06', latest: '2041-12-14', today: '2026-11-23' }],
    });
  });

  it('a factor 0 (no due date) gives no warning', () => {
    expect(decodeBoleto('11196000055555555556666666666666666666666666', '2025-06-01')).toMatchObject({ valid: true, dueDate: null, warnings: [] });
  });
});

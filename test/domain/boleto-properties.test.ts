import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bankBarcodeFromLine } from '../../src/domain/bank-slip.js';
import { buildBankBarcode, buildCollectionBarcode } from '../../src/domain/boleto-builder.js';
import { barcodeToLine, decodeBoleto, lineToBarcode } from '../../src/domain/boleto.js';
import { mod11Remainder } from '../../src/domain/check-digits.js';
import { collectionBarcodeFromLine } from '../../src/domain/collection-slip.js';

// Property tests over generated slips. What a single mistyped digit can and cannot slip past:
// - Modulo 10 (bank line fields 1-3, every block of a collection line with value identifier 6 or 7) catches
//   every single-digit change, so those changes must always make the code invalid.
// - Modulo 11 folds remainders together: the bank rule gives check digit 1 for remainders 0, 1 and 10, the
//   collection rule gives 0 for remainders 0 and 1. A change that moves the remainder within those sets keeps the
//   same check digit, and no implementation can see it. So where modulo 11 is the only protection (field 5 of a
//   bank line — due-date factor and amount —, the whole bank barcode, collection codes with value identifier
//   8 or 9), a change may pass only when both remainders, before and after, lie in the folded set. The tests
//   assert exactly that, and one example below shows such a change on a real barcode.
// - The first digit of a 44-digit barcode decides its kind (8 = collection), so changing it to or from 8 reads
//   the code under the other layout; those changes are left out of the barcode properties. Lines carry their kind
//   in their length, and any change of their first digit is caught.
// - In a collection barcode (no block digits) changing the value identifier between 6/7 and 8/9 switches the
//   rule that computes the single general digit, which then matches by chance about one time in ten; those
//   changes are left out too. In a line, all four block digits and the general digit would have to match.

const DAY_MS = 86_400_000;
const isoPlusDays = (iso: string, days: number): string =>
  new Date(Date.parse(`${iso}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
const digits = (n: number): fc.Arbitrary<string> => fc.stringMatching(new RegExp(`^\\d{${n}}$`));

interface BankCase {
  args: { bankCode: string; dueDate: string | null; amountCents: number; freeField: string };
  barcode: string;
  today: string;
}

const bankCase: fc.Arbitrary<BankCase> = fc
  .record({
    bankCode: fc.stringMatching(/^[0-79]\d\d$/),
    dueDays: fc.option(fc.integer({ min: 1, max: 20_000 }), { nil: null }),
    amountCents: fc.oneof(fc.integer({ min: 0, max: 9_999_999_999 }), fc.integer({ min: 0, max: 1_000_000 })),
    freeField: digits(25),
    todayOffset: fc.integer({ min: -5500, max: 3000 }),
  })
  .map(({ bankCode, dueDays, amountCents, freeField, todayOffset }) => {
    const dueDate = dueDays === null ? null : isoPlusDays('1997-10-07', dueDays);
    const args = { bankCode, dueDate, amountCents, freeField };
    return { args, barcode: buildBankBarcode(args), today: dueDate === null ? '2025-06-01' : isoPlusDays(dueDate, todayOffset) };
  });

interface CollectionCase {
  args: { segment: number; valueId: 6 | 7 | 8 | 9; amountCents: number; companyCode: string; freeField: string };
  barcode: string;
}

const collectionCase: fc.Arbitrary<CollectionCase> = fc
  .constantFrom(1, 2, 3, 4, 5, 6, 7, 9)
  .chain((segment) =>
    fc.record({
      segment: fc.constant(segment),
      valueId: fc.constantFrom<6 | 7 | 8 | 9>(6, 7, 8, 9),
      amountCents: fc.oneof(fc.integer({ min: 0, max: 99_999_999_999 }), fc.integer({ min: 0, max: 1_000_000 })),
      companyCode: digits(segment === 6 ? 8 : 4),
      freeField: digits(segment === 6 ? 21 : 25),
    }),
  )
  .map((args) => ({ args, barcode: buildCollectionBarcode(args) }));

/** A change of one digit: position and a different digit. */
const change = (length: number) =>
  fc.record({ position: fc.integer({ min: 0, max: length - 1 }), shift: fc.integer({ min: 1, max: 9 }) });
const applyChange = (code: string, position: number, shift: number): string =>
  code.slice(0, position) + String((Number(code.charAt(position)) + shift) % 10) + code.slice(position + 1);

const BANK_FOLD = new Set([0, 1, 10]);
const COLLECTION_FOLD = new Set([0, 1]);
const bankRemainder = (barcode: string): number => mod11Remainder(barcode.slice(0, 4) + barcode.slice(5));
const collectionRemainder = (digits43: string): number => mod11Remainder(digits43);
const collectionGeneralRemainder = (barcode: string): number => collectionRemainder(barcode.slice(0, 3) + barcode.slice(4));
const isMod11 = (valueIdDigit: string): boolean => valueIdDigit === '8' || valueIdDigit === '9';

describe('round trip line ↔ barcode', () => {
  it('bank slips', () => {
    fc.assert(
      fc.property(bankCase, ({ barcode, today }) => {
        const line = barcodeToLine(barcode);
        expect(line.ok).toBe(true);
        if (!line.ok) return;
        expect(line.value).toHaveLength(47);
        expect(lineToBarcode(line.value)).toEqual({ ok: true, value: barcode });
        expect(decodeBoleto(line.value, today)).toMatchObject({ valid: true, barcode, line: line.value });
        expect(decodeBoleto(barcode, today)).toMatchObject({ valid: true, barcode, line: line.value });
      }),
      { numRuns: 300 },
    );
  });

  it('collection slips', () => {
    fc.assert(
      fc.property(collectionCase, ({ barcode }) => {
        const line = barcodeToLine(barcode);
        expect(line.ok).toBe(true);
        if (!line.ok) return;
        expect(line.value).toHaveLength(48);
        expect(lineToBarcode(line.value)).toEqual({ ok: true, value: barcode });
        expect(decodeBoleto(line.value, '2025-06-01')).toMatchObject({ valid: true, barcode, line: line.value });
      }),
      { numRuns: 300 },
    );
  });
});

describe('builder output decodes valid with what went in', () => {
  it('bank slips: amount, due date, bank code', () => {
    fc.assert(
      fc.property(bankCase, ({ args, barcode, today }) => {
        expect(decodeBoleto(barcode, today)).toMatchObject({
          valid: true,
          kind: 'bank',
          amountCents: args.amountCents === 0 ? null : args.amountCents,
          dueDate: args.dueDate,
          bankCode: args.bankCode,
          error: null,
        });
      }),
      { numRuns: 500 },
    );
  });

  it('collection slips: amount or reference, segment, company code', () => {
    fc.assert(
      fc.property(collectionCase, ({ args, barcode }) => {
        const isReference = args.valueId === 7 || args.valueId === 9;
        expect(decodeBoleto(barcode, '2025-06-01')).toMatchObject({
          valid: true,
          kind: 'collection',
          amountCents: isReference || args.amountCents === 0 ? null : args.amountCents,
          valueIsReference: isReference,
          segment: args.segment,
          companyCode: args.companyCode,
          government: [1, 5, 7].includes(args.segment),
          utility: [2, 3, 4].includes(args.segment),
          error: null,
        });
      }),
      { numRuns: 500 },
    );
  });
});

describe('a single changed digit is caught', () => {
  it('bank line: always in fields 1-4; in field 5 unless the modulo-11 fold hides it', () => {
    fc.assert(
      fc.property(bankCase, change(47), ({ barcode, today }, { position, shift }) => {
        const line = barcodeToLine(barcode);
        if (!line.ok) throw new Error(line.error);
        const mutated = applyChange(line.value, position, shift);
        const decoded = decodeBoleto(mutated, today);
        const onlyModulo11 = position >= 33;
        const folded = BANK_FOLD.has(bankRemainder(barcode)) && BANK_FOLD.has(bankRemainder(bankBarcodeFromLine(mutated)));
        if (!(onlyModulo11 && folded)) expect(decoded.valid).toBe(false);
      }),
      { numRuns: 2000 },
    );
  });

  it('bank barcode: unless the modulo-11 fold hides it', () => {
    fc.assert(
      fc.property(bankCase, change(44), ({ barcode, today }, { position, shift }) => {
        const mutated = applyChange(barcode, position, shift);
        fc.pre(!mutated.startsWith('8'));
        const decoded = decodeBoleto(mutated, today);
        const checkOrCurrency = position === 3 || position === 4;
        const folded = BANK_FOLD.has(bankRemainder(barcode)) && BANK_FOLD.has(bankRemainder(mutated));
        if (checkOrCurrency || !folded) expect(decoded.valid).toBe(false);
      }),
      { numRuns: 2000 },
    );
  });

  it('collection line: always with modulo 10; with modulo 11 unless block and general digits both fold', () => {
    fc.assert(
      fc.property(collectionCase, change(48), ({ barcode }, { position, shift }) => {
        const line = barcodeToLine(barcode);
        if (!line.ok) throw new Error(line.error);
        const mutated = applyChange(line.value, position, shift);
        const decoded = decodeBoleto(mutated, '2025-06-01');
        const block = Math.floor(position / 12);
        const isCheckDigit = position % 12 === 11 || position === 3;
        const blockOf = (text: string): string => text.slice(block * 12, block * 12 + 11);
        const folded =
          isMod11(line.value.charAt(2)) &&
          isMod11(mutated.charAt(2)) &&
          !isCheckDigit &&
          COLLECTION_FOLD.has(collectionRemainder(blockOf(line.value))) &&
          COLLECTION_FOLD.has(collectionRemainder(blockOf(mutated))) &&
          COLLECTION_FOLD.has(collectionGeneralRemainder(barcode)) &&
          COLLECTION_FOLD.has(collectionGeneralRemainder(collectionBarcodeFromLine(mutated)));
        if (!folded) expect(decoded.valid).toBe(false);
      }),
      { numRuns: 2000 },
    );
  });

  it('collection barcode: always with modulo 10; with modulo 11 unless the general digit folds', () => {
    fc.assert(
      fc.property(collectionCase, change(44), ({ barcode }, { position, shift }) => {
        const mutated = applyChange(barcode, position, shift);
        fc.pre(mutated.startsWith('8'));
        fc.pre(position !== 2 || isMod11(barcode.charAt(2)) === isMod11(mutated.charAt(2)) || !/[6-9]/.test(mutated.charAt(2)));
        const decoded = decodeBoleto(mutated, '2025-06-01');
        const folded =
          isMod11(barcode.charAt(2)) &&
          position !== 3 &&
          COLLECTION_FOLD.has(collectionGeneralRemainder(barcode)) &&
          COLLECTION_FOLD.has(collectionGeneralRemainder(mutated));
        if (!folded) expect(decoded.valid).toBe(false);
      }),
      { numRuns: 2000 },
    );
  });

  it('example of the fold: a real Itaú barcode whose check digit 1 comes from remainder 0', () => {
    // bb-wrapper's Itaú barcode, R$ 614,01. Its amount digits are protected by modulo 11 alone (in the line too:
    // field 5), and with remainder 0 a change to remainder 1 or 10 keeps check digit 1: R$ 30.000.614,01 passes.
    const barcode = '34191873400000614011092306628112938349558000';
    expect(bankRemainder(barcode)).toBe(0);
    const tampered = '34191873430000614011092306628112938349558000';
    expect(bankRemainder(tampered)).toBe(1);
    expect(decodeBoleto(tampered, '2021-09-01')).toMatchObject({ valid: true, amountCents: 3_000_061_401 });
    // the same change in a slip whose remainder is not folded is caught
    const sicoob = '75696903800002500001434301033723400014933001';
    expect(BANK_FOLD.has(bankRemainder(sicoob))).toBe(false);
    expect(decodeBoleto(applyChange(sicoob, 9, 3), '2022-07-01').valid).toBe(false);
  });
});

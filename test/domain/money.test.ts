import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sayValidation } from '../../src/words/validation.js';
import { centsToReais, formatBRL, formatReais, parseAmount, reaisToCents } from '../../src/domain/money.js';

// Vectors: the sheet formats listed in DESIGN.md ("Money and units"), the BRL text that Intl.NumberFormat('pt-BR',
// { style: 'currency', currency: 'BRL' }) produces (with U+00A0 after "R$"), and brazilian-values'
// test/formatters.test.ts (formatToBRL(1200.504) → "R$ 1.200,50", formatToBRL(0) → "R$ 0,00").

const NBSP = '\u00a0';
const NNBSP = '\u202f';

describe('parseAmount', () => {
  it.each([
    ['1.234,56', 123456],
    ['1234,56', 123456],
    ['1234.56', 123456],
    ['R$ 1.234,56', 123456],
    ['R$1234', 123400],
    ['r$ 12', 1200],
    ['1234', 123400],
    ['0,50', 50],
    ['0.05', 5],
    ['1.234.567,89', 123456789],
    ['1,234,567.89', 123456789],
    ['1.234.567', 123456700],
    ['1,234,567', 123456700],
    ['1,234.56', 123456],
    ['1.234,5', 123450],
    ['10,5', 1050],
    ['10.5', 1050],
    ['  42,00  ', 4200],
    [`R$${NBSP}1.200,50`, 120050],
    [`${NBSP}7,10${NBSP}`, 710],
    [`1${NNBSP}234,56`, 123456],
    ['1 234 567,89', 123456789],
    ['R$ 1 234', 123400],
    ['007,00', 700],
    ['0,01', 1],
    ['90.071.992.547.409,91', Number.MAX_SAFE_INTEGER],
  ])('reads %j as %i centavos', (text, cents) => {
    expect(parseAmount(text)).toEqual({ ok: true, value: cents });
  });

  it.each([
    ['', 'empty'],
    ['   ', 'empty'],
    [NBSP, 'empty'],
    ['R$', 'no digits'],
    ['1,234', 'ambiguous'],
    ['1.234', 'ambiguous'],
    ['R$ 999,999', 'ambiguous'],
    ['1234,567', 'more than two decimal places'],
    ['0,125', 'more than two decimal places'],
    ['1.234,567', 'more than two decimal places'],
    ['1.234.567,891', 'more than two decimal places'],
    ['-10,00', 'negative'],
    ['-R$ 10,00', 'negative'],
    ['R$ -10,00', 'negative'],
    ['- R$ 10', 'negative'],
    ['10,00 -', 'negative'],
    ['(10,00)', 'negative'],
    ['R$ (10,00)', 'negative'],
    ['(R$ 10,00)', 'negative'],
    ['10,00-', 'negative'],
    ['0', 'greater than zero'],
    ['0,00', 'greater than zero'],
    ['R$ 0', 'greater than zero'],
    ['abc', 'characters other than digits'],
    ['12a', 'characters other than digits'],
    ['1e3', 'characters other than digits'],
    ['+10', 'characters other than digits'],
    ['USD 10', 'characters other than digits'],
    ['1.23,45', 'misplaced'],
    ['12.34.567,00', 'misplaced'],
    ['1,23.45', 'misplaced'],
    ['1.234.56', 'misplaced'],
    ['1.234,56,00', 'more than once'],
    [',50', 'digit is needed before'],
    ['12,', 'no digits after'],
    ['12 34', 'misplaced space'],
    ['1 23,45', 'misplaced space'],
    ['1,5 0', 'misplaced space'],
    ['90.071.992.547.409,92', 'too large'],
    ['99999999999999999999', 'too large'],
  ])('refuses %j (%s)', (text, reason) => {
    const result = parseAmount(text);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(sayValidation(result.error, 'en')).toContain(reason);
  });
});

describe('formatBRL, formatReais and centsToReais', () => {
  it.each([
    [123456, 'R$ 1.234,56', '1234.56', 1234.56],
    [-100, '-R$ 1,00', '-1.00', -1],
    [5, 'R$ 0,05', '0.05', 0.05],
    [0, 'R$ 0,00', '0.00', 0],
    [120050, 'R$ 1.200,50', '1200.50', 1200.5],
    [100000, 'R$ 1.000,00', '1000.00', 1000],
    [123456789, 'R$ 1.234.567,89', '1234567.89', 1234567.89],
    [-7489, '-R$ 74,89', '-74.89', -74.89],
    [Number.MAX_SAFE_INTEGER, 'R$ 90.071.992.547.409,91', '90071992547409.91', 90071992547409.91],
  ])('%i centavos → %j, %j, %d', (cents, brl, reais, number) => {
    expect(formatBRL(cents)).toBe(brl);
    expect(formatReais(cents)).toBe(reais);
    expect(centsToReais(cents)).toBe(number);
  });

  it('gives the exact decimal where dividing the float drifts', () => {
    // 1.15 * 100 = 114.99999999999999: the reason money never goes through float arithmetic.
    expect(115 / 100).toBe(1.15);
    expect(1.15 * 100).not.toBe(115);
    expect(centsToReais(115)).toBe(1.15);
    expect(reaisToCents(1.15)).toEqual({ ok: true, value: 115 });
  });

  it.each([[1.5], [Number.NaN], [Number.POSITIVE_INFINITY], [Number.MAX_SAFE_INTEGER + 1]])(
    'throws RangeError on %d centavos',
    (cents) => {
      expect(() => formatBRL(cents)).toThrow(RangeError);
      expect(() => formatReais(cents)).toThrow(RangeError);
      expect(() => centsToReais(cents)).toThrow(RangeError);
    },
  );

  it('matches Intl pt-BR currency text, apart from the space after R$', () => {
    const intl = new Intl.NumberFormat('pt-BR', { style: 'currency', currency: 'BRL' });
    for (const cents of [1, 99, 100, 123456, 100000000, 987654321]) {
      expect(formatBRL(cents)).toBe(intl.format(cents / 100).replace(NBSP, ' '));
    }
  });
});

describe('reaisToCents', () => {
  it.each<[number | string, number]>([
    [1234.56, 123456],
    ['1234.56', 123456],
    ['1234.5', 123450],
    [1234.5, 123450],
    [0.1, 10],
    [10, 1000],
    ['10', 1000],
    [0, 0],
    ['0.00', 0],
    [' 12.30 ', 1230],
    [9999999999999.99, 999999999999999],
    ['90071992547409.91', Number.MAX_SAFE_INTEGER],
  ])('reads %j as %i centavos', (value, cents) => {
    expect(reaisToCents(value)).toEqual({ ok: true, value: cents });
  });

  it.each<[number | string, string]>([
    [Number.NaN, 'not a number'],
    [Number.POSITIVE_INFINITY, 'not a number'],
    [-1, 'negative'],
    ['-1.00', 'negative'],
    [0.1 + 0.2, 'more than two decimal places'],
    ['1.234', 'more than two decimal places'],
    [1e-7, 'not a decimal number'],
    [1e21, 'too large to be exact'],
    ['1e3', 'not a decimal number'],
    ['1,50', 'not a decimal number'],
    ['', 'not a decimal number'],
    ['abc', 'not a decimal number'],
    ['12.', 'not a decimal number'],
    ['.5', 'not a decimal number'],
    ['90071992547409.92', 'too large'],
    [90071992547409.91, 'too large to be exact'],
    [1e13, 'too large to be exact'],
  ])('refuses %s (%s)', (value, reason) => {
    const result = reaisToCents(value);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toContain(reason);
  });
});

describe('money properties', () => {
  const positiveCents = fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER });

  it('parseAmount reads back what formatBRL writes', () => {
    fc.assert(fc.property(positiveCents, (cents) => {
      expect(parseAmount(formatBRL(cents))).toEqual({ ok: true, value: cents });
    }));
  });

  it('parseAmount reads back formatReais and the international style with "," thousands', () => {
    fc.assert(fc.property(positiveCents, (cents) => {
      const reais = formatReais(cents);
      const [whole = '', fraction = ''] = reais.split('.');
      const international = `${whole.replace(/\B(?=(\d{3})+$)/g, ',')}.${fraction}`;
      expect(parseAmount(reais)).toEqual({ ok: true, value: cents });
      expect(parseAmount(international)).toEqual({ ok: true, value: cents });
    }));
  });

  it('reaisToCents inverts centsToReais up to 15 significant digits (R$ 9.999.999.999.999,99)', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 999_999_999_999_999 }), (cents) => {
      expect(reaisToCents(centsToReais(cents))).toEqual({ ok: true, value: cents });
      expect(reaisToCents(formatReais(cents))).toEqual({ ok: true, value: cents });
    }));
  });

  it('parseAmount reads a cell on its quick path as its full reading does (a leading space takes the full one)', () => {
    const digits = fc.string({ unit: fc.constantFrom(...'0123456789'.split('')), minLength: 0, maxLength: 5 });
    // Digit runs joined by marks: the amounts people write, and every near miss (groups of 2 or 4, marks twice, no decimals).
    const marked = fc.tuple(fc.constantFrom('', 'R$', 'R$ ', 'r$ ', 'R$  '), fc.array(fc.tuple(digits, fc.constantFrom('.', ',', '')), { maxLength: 5 }), digits)
      .map(([currency, parts, last]) => currency + parts.map(([d, mark]) => d + mark).join('') + last);
    const loose = fc.string({ unit: fc.constantFrom(...'0123456789.,R$r '.split('')), maxLength: 20 });
    fc.assert(fc.property(fc.oneof(marked, loose), (text) => {
      expect(parseAmount(text)).toEqual(parseAmount(` ${text}`));
    }), { numRuns: 5000 });
  });

  it('parseAmount never throws and only yields positive safe integers', () => {
    const amountish = fc.string({ unit: fc.constantFrom(...'0123456789.,R$ -()'.split(''), NBSP), maxLength: 24 });
    fc.assert(fc.property(fc.oneof(amountish, fc.string()), (text) => {
      const result = parseAmount(text);
      if (result.ok) {
        expect(Number.isSafeInteger(result.value)).toBe(true);
        expect(result.value).toBeGreaterThan(0);
      } else {
        expect(sayValidation(result.error, 'en').length).toBeGreaterThan(0);
      }
    }));
  });
});

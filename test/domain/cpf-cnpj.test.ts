import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sayValidation } from '../../src/words/validation.js';
import { cnpjCheckDigits, formatCnpj, normalizeCnpj } from '../../src/domain/cnpj.js';
import { cpfCheckDigits, formatCpf, normalizeCpf } from '../../src/domain/cpf.js';

// Sources of the vectors (public code, read through the search index):
// - [stdnum]   arthurdejong/python-stdnum, stdnum/br/cpf.py and stdnum/br/cnpj.py doctests
// - [bv]       VitorLuizC/brazilian-values, test/validators.test.ts
// - [vbr]      klawdyo/validation-br, src/cpf.test.ts, src/cnpj.test.ts, src/pix-key.spec.ts
// - [pycpf]    pycpfcnpj CPFTests (valid 11144477735, invalid 11144477736)
// - [bnum]     poliquin/brazilnum README
// - [rfb]      Receita Federal, CNPJ alfanumérico (Nota Técnica COCAD/SUARA/RFB nº 49/2024): 12.ABC.345/01DE-35
// - [dotnet]   rsantosdosanjos/cnpj-validator-dotnet README: 12ABC34501DE99 invalid, DV of 12ABC34501DE is 35

describe('normalizeCpf', () => {
  it.each([
    ['390.533.447-05', '39053344705'], // [stdnum]
    ['366.418.768-70', '36641876870'], // [bv]
    ['36641876870', '36641876870'], // [bv]
    ['133.782.710-00', '13378271000'], // [vbr]
    ['400.448.260-79', '40044826079'], // [vbr]
    ['74172316085', '74172316085'], // [vbr]
    ['15886489070', '15886489070'], // [vbr]
    ['90889477086', '90889477086'], // [vbr]
    ['004.129.620-63', '00412962063'], // [vbr] pix-key.spec, a leading-zero CPF
    ['11144477735', '11144477735'], // [pycpf]
    ['968.811.342-58', '96881134258'], // [bnum]
    [' 968 811 342 58 ', '96881134258'],
    ['968.811.342.58', '96881134258'],
  ])('accepts %j as %s', (input, digits) => {
    expect(normalizeCpf(input)).toEqual({ ok: true, value: digits });
  });

  it.each([
    ['231.002.999-00', 'check digits do not match (expected 81)'], // [stdnum]; 81 worked by hand
    ['213.198.013-20', 'check digits do not match'], // [bv]
    ['287.967.420-20', 'check digits do not match'], // [vbr]
    ['333.782.710-00', 'check digits do not match'], // [vbr]
    ['200.448.260-79', 'check digits do not match'], // [vbr]
    ['24172316085', 'check digits do not match'], // [vbr]
    ['11144477736', 'check digits do not match (expected 35)'], // [pycpf]
    ['327.861.067-97', 'check digits do not match'], // [bnum]
    ['11111111111', 'all digits equal'], // [bv] [vbr]
    ['00000000000', 'all digits equal'], // [bv]
    ['111.111.111-11', 'all digits equal'], // [bv]
    ['390.533.447=05', 'only have digits'], // [stdnum] invalid delimiter
    ['366.41askaosoa8.768-70', 'only have digits'], // [bv]
    ['1004218907', 'got 10; a spreadsheet may have dropped leading zeros'], // [bv] accepts it padded; we do not guess
    ['2131201872781', 'got 13'], // [bv]
    ['24172316085000000', 'got 17'], // [vbr]
    ['', 'empty'],
  ])('refuses %j (%s)', (input, reason) => {
    const result = normalizeCpf(input);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(sayValidation(result.error, 'en')).toContain(reason);
  });

  it.each([
    ['741723160', '85'], // [vbr]
    ['158864890', '70'], // [vbr]
    ['908894770', '86'], // [vbr]
    ['390533447', '05'], // [stdnum]
    ['123456789', '09'],
  ])('cpfCheckDigits(%s) = %s', (base, digits) => {
    expect(cpfCheckDigits(base)).toBe(digits);
  });

  it.each([
    ['23100299900', '231.002.999-00'], // [stdnum]
    ['74172316085', '741.723.160-85'], // [vbr]
    ['00889477086', '008.894.770-86'], // [vbr]
    ['12345678909', '123.456.789-09'],
  ])('formatCpf(%s) = %s', (digits, masked) => {
    expect(formatCpf(digits)).toBe(masked);
  });

  it.each([['12345678'], ['1234567890a'], ['123.456.789-09']])('formatCpf and cpfCheckDigits throw on %j', (bad) => {
    expect(() => formatCpf(bad)).toThrow(RangeError);
    expect(() => cpfCheckDigits(bad)).toThrow(RangeError);
  });
});

describe('normalizeCnpj', () => {
  it.each([
    ['16.727.230/0001-97', '16727230000197'], // [stdnum]
    ['41142260000189', '41142260000189'], // [bv]
    ['45.723.174/0001-10', '45723174000110'], // [bv]
    ['11.222.333/0001-81', '11222333000181'], // [vbr]
    ['73.797.980/0001-79', '73797980000179'], // [vbr]
    ['06.946.762/0001-61', '06946762000161'], // [vbr]
    ['96.051.576/0001-57', '96051576000157'], // [vbr]
    ['55.585.709/0001-98', '55585709000198'], // [vbr]
    ['32432147000147', '32432147000147'], // [vbr]
    ['91951438000100', '91951438000100'], // [vbr]
    ['41356581000186', '41356581000186'], // [vbr] pix-key.spec
    ['02.558.157/0001-62', '02558157000162'], // [bnum]
    ['12.ABC.345/01DE-35', '12ABC34501DE35'], // [rfb]
    ['12ABC34501DE35', '12ABC34501DE35'], // [rfb] [dotnet]
    ['12.abc.345/01de-35', '12ABC34501DE35'], // [rfb], lower case
    [' 12 ABC 345 01DE 35 ', '12ABC34501DE35'],
  ])('accepts %j as %s', (input, value) => {
    expect(normalizeCnpj(input)).toEqual({ ok: true, value });
  });

  it.each([
    ['16.727.230.0001-98', 'check digits do not match (expected 97)'], // [stdnum]
    ['41142260007182', 'check digits do not match'], // [bv]
    ['19.981.127/0001-10', 'check digits do not match'], // [bv]
    ['53.797.980/0001-79', 'check digits do not match'], // [vbr]
    ['36.946.762/0001-61', 'check digits do not match'], // [vbr]
    ['39360938000180', 'check digits do not match'], // [vbr]
    ['02.558.157/0001-55', 'check digits do not match (expected 62)'], // [bnum]
    ['12ABC34501DE99', 'check digits do not match (expected 35)'], // [dotnet]
    ['11111111111111', 'all digits equal'], // [vbr]
    ['00.000.000/0000-00', 'all digits equal'],
    ['16.727.230/0001=97', 'may only have'], // [stdnum] invalid delimiter
    ['64.637.agsvs009/0001-90', 'got 19'], // [bv]
    ['12.ABC.345/01DE-3A', 'must be digits'],
    ['12.ÁBC.345/01DE-35', 'may only have'],
    ['1122233300018', 'got 13; a spreadsheet may have dropped leading zeros'],
    ['', 'empty'],
  ])('refuses %j (%s)', (input, reason) => {
    const result = normalizeCnpj(input);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(sayValidation(result.error, 'en')).toContain(reason);
  });

  it.each([
    ['112223330001', '81'], // [vbr]
    ['993609380001', '80'], // [vbr]
    ['324321470001', '47'], // [vbr]
    ['12ABC34501DE', '35'], // [rfb] [dotnet]
  ])('cnpjCheckDigits(%s) = %s', (base, digits) => {
    expect(cnpjCheckDigits(base)).toBe(digits);
  });

  it.each([
    ['16727230000197', '16.727.230/0001-97'], // [stdnum]
    ['11222333000181', '11.222.333/0001-81'], // [vbr]
    ['00432147000147', '00.432.147/0001-47'], // [vbr]
    ['12ABC34501DE35', '12.ABC.345/01DE-35'], // [rfb]
  ])('formatCnpj(%s) = %s', (value, masked) => {
    expect(formatCnpj(value)).toBe(masked);
  });

  it.each([['12abc34501de35'], ['12ABC34501DE3X'], ['1122233300018']])('formatCnpj throws on %j', (bad) => {
    expect(() => formatCnpj(bad)).toThrow(RangeError);
  });

  it.each([['12abc34501de'], ['12ABC34501D'], ['12ABC34501D-']])('cnpjCheckDigits throws on %j', (bad) => {
    expect(() => cnpjCheckDigits(bad)).toThrow(RangeError);
  });
});

const DIGITS = '0123456789'.split('');
const ALPHANUMERIC = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ'.split('');
const chars = (alphabet: string[], length: number) =>
  fc.string({ unit: fc.constantFrom(...alphabet), minLength: length, maxLength: length });
const notAllSame = (s: string) => !/^(.)\1*$/.test(s);

const cpfBase = chars(DIGITS, 9).filter(notAllSame);
const numericCnpjBase = chars(DIGITS, 12).filter(notAllSame);
const alphanumericCnpjBase = chars(ALPHANUMERIC, 12).filter(notAllSame);
const cnpjBase = fc.oneof(numericCnpjBase, alphanumericCnpjBase);

/** The value a check-digit rule gives a character: ASCII − 48. */
const worth = (c: string) => c.charCodeAt(0) - 48;

/** `value` with the character at `at` replaced by `by`. */
const replaceAt = (value: string, at: number, by: string) => value.slice(0, at) + by + value.slice(at + 1);

describe('CPF properties', () => {
  it('every generated CPF validates, masked or not, and normalizing is idempotent', () => {
    fc.assert(fc.property(cpfBase, (base) => {
      const cpf = base + cpfCheckDigits(base);
      expect(normalizeCpf(cpf)).toEqual({ ok: true, value: cpf });
      expect(normalizeCpf(formatCpf(cpf))).toEqual({ ok: true, value: cpf });
    }));
  });

  it('a changed check digit is always caught', () => {
    fc.assert(fc.property(cpfBase, fc.constantFrom(9, 10), fc.constantFrom(...DIGITS), (base, at, by) => {
      const cpf = base + cpfCheckDigits(base);
      fc.pre(cpf[at] !== by);
      expect(normalizeCpf(replaceAt(cpf, at, by)).ok).toBe(false);
    }));
  });

  it('a changed digit of the base is always caught when the first check digit is not 0', () => {
    // Every base weight (2..10) is prime to 11, so the first remainder always moves; only the rule
    // "remainder 0 or 1 → digit 0" can hide the move, and then the first check digit is 0.
    fc.assert(fc.property(cpfBase, fc.integer({ min: 0, max: 8 }), fc.constantFrom(...DIGITS), (base, at, by) => {
      const cpf = base + cpfCheckDigits(base);
      fc.pre(cpf[at] !== by);
      const changed = normalizeCpf(replaceAt(cpf, at, by));
      if (cpf[9] !== '0') expect(changed.ok).toBe(false);
      if (changed.ok) expect(cpf[9]).toBe('0');
    }));
  });

  it('shows the blind spot: one digit apart, both valid (first check digit 0)', () => {
    expect(normalizeCpf('81001333101').ok).toBe(true);
    expect(normalizeCpf('91001333101').ok).toBe(true);
  });

  it('a character other than a digit or mask is refused, wherever it goes', () => {
    fc.assert(fc.property(cpfBase, fc.integer({ min: 0, max: 10 }), fc.constantFrom(...'AaXx*#/+'.split('')), (base, at, by) => {
      const cpf = base + cpfCheckDigits(base);
      expect(normalizeCpf(replaceAt(cpf, at, by)).ok).toBe(false);
    }));
  });
});

describe('CNPJ properties', () => {
  it('every generated CNPJ, numeric or alphanumeric, validates masked, bare or lower case; normalizing is idempotent', () => {
    fc.assert(fc.property(cnpjBase, (base) => {
      const cnpj = base + cnpjCheckDigits(base);
      expect(normalizeCnpj(cnpj)).toEqual({ ok: true, value: cnpj });
      expect(normalizeCnpj(formatCnpj(cnpj))).toEqual({ ok: true, value: cnpj });
      expect(normalizeCnpj(formatCnpj(cnpj).toLowerCase())).toEqual({ ok: true, value: cnpj });
    }));
  });

  it('a changed check digit is always caught', () => {
    fc.assert(fc.property(cnpjBase, fc.constantFrom(12, 13), fc.constantFrom(...ALPHANUMERIC), (base, at, by) => {
      const cnpj = base + cnpjCheckDigits(base);
      fc.pre(cnpj[at] !== by);
      expect(normalizeCnpj(replaceAt(cnpj, at, by)).ok).toBe(false);
    }));
  });

  it('a changed digit of a numeric CNPJ is always caught when the first check digit is not 0', () => {
    fc.assert(fc.property(numericCnpjBase, fc.integer({ min: 0, max: 11 }), fc.constantFrom(...DIGITS), (base, at, by) => {
      const cnpj = base + cnpjCheckDigits(base);
      fc.pre(cnpj[at] !== by);
      const changed = normalizeCnpj(replaceAt(cnpj, at, by));
      if (cnpj[12] !== '0') expect(changed.ok).toBe(false);
      if (changed.ok) expect(cnpj[12]).toBe('0');
    }));
  });

  it('a changed character of an alphanumeric CNPJ is caught when its value moves by a non-multiple of 11 and the first check digit is not 0', () => {
    fc.assert(fc.property(cnpjBase, fc.integer({ min: 0, max: 11 }), fc.constantFrom(...ALPHANUMERIC), (base, at, by) => {
      const cnpj = base + cnpjCheckDigits(base);
      const from = cnpj[at] as string;
      fc.pre(from !== by && (worth(by) - worth(from)) % 11 !== 0 && cnpj[12] !== '0');
      expect(normalizeCnpj(replaceAt(cnpj, at, by)).ok).toBe(false);
    }));
  });

  it('a character swapped for one worth a multiple of 11 more or less is never caught (a limit of mod 11 with letters)', () => {
    // "1" (1), "G" (23) and "R" (34) weigh the same mod 11; so do "0", "F" and "Q", "6", "A", "L" and "W", etc.
    fc.assert(fc.property(cnpjBase, fc.integer({ min: 0, max: 11 }), fc.constantFrom(...ALPHANUMERIC), (base, at, by) => {
      const cnpj = base + cnpjCheckDigits(base);
      const from = cnpj[at] as string;
      fc.pre(from !== by && (worth(by) - worth(from)) % 11 === 0);
      const changed = replaceAt(cnpj, at, by);
      fc.pre(!/^(.)\1*$/.test(changed));
      expect(normalizeCnpj(changed)).toEqual({ ok: true, value: changed });
    }));
    expect(normalizeCnpj('G2ABC34501DE35').ok).toBe(true); // [rfb] example with "1" → "G"
  });
});

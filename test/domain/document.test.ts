import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sayValidation } from '../../src/words/validation.js';
import { cnpjCheckDigits, formatCnpj } from '../../src/domain/cnpj.js';
import { cpfCheckDigits, formatCpf } from '../../src/domain/cpf.js';
import { maskedDocumentMatches, normalizeDocument, shownDocument } from '../../src/domain/document.js';

// Sources: CPF 366.418.768-70 and CNPJ 45.723.174/0001-10 from VitorLuizC/brazilian-values test/validators.test.ts;
// CPF 133.782.710-00 from klawdyo/validation-br src/cpf.test.ts; the alphanumeric CNPJ 12.ABC.345/01DE-35 from the
// Receita Federal. The masked shapes are those of brazilian-values' formatToHiddenDigits tests ("111.***.***-11",
// "52.715.@@@/@@@@-@@") and the "***.456.789-**" style of Pix receipts, which show the middle six CPF digits.

describe('normalizeDocument', () => {
  it.each([
    ['366.418.768-70', { type: 'cpf', value: '36641876870' }],
    ['36641876870', { type: 'cpf', value: '36641876870' }],
    ['45.723.174/0001-10', { type: 'cnpj', value: '45723174000110' }],
    ['12.abc.345/01de-35', { type: 'cnpj', value: '12ABC34501DE35' }],
    [' 133 782 710 00 ', { type: 'cpf', value: '13378271000' }],
  ])('%j → %o', (input, document) => {
    expect(normalizeDocument(input)).toEqual({ ok: true, value: document });
  });

  it.each([
    ['366.418.768-71', 'CPF check digits do not match (expected 70)'],
    ['45.723.174/0001-11', 'CNPJ check digits do not match (expected 10)'],
    ['111.111.111-11', 'CPF with all digits equal'],
    ['3664187687', 'a document is a CPF (11 digits) or a CNPJ (14 characters), got 10'],
    ['123456789012', 'got 12'],
    ['366.418.768-7A', 'CPF may only have digits'],
    ['', 'empty'],
  ])('refuses %j (%s)', (input, reason) => {
    const result = normalizeDocument(input);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(sayValidation(result.error, 'en')).toContain(reason);
  });
});

describe('maskedDocumentMatches', () => {
  const cpf = '36641876870';
  const cnpj = '45723174000110';
  const alpha = '12ABC34501DE35';

  it.each([
    [cpf, '***.418.768-**'],
    [cpf, '366.***.***-70'],
    [cpf, '***418768**'],
    [cpf, '366.418.768-70'],
    [cpf, '36641876870'],
    [cpf, '•••.418.768-••'],
    [cpf, 'XXX.418.768-XX'],
    [cpf, 'xxx418768xx'],
    [cpf, ' ***.418.768-** '],
    [cnpj, '45.723.***/****-**'],
    [cnpj, '**.***.174/0001-**'],
    [cnpj, '45723174000110'],
    [cnpj, '45.723.174/0001-10'],
    [alpha, '12.ABC.***/****-35'],
    [alpha, '12.abc.345/01de-35'],
    [alpha, '**.ABC.345/01DE-**'],
    ['366.418.768-70', '***.418.768-**'], // a masked expected value is tolerated
  ])('%s matches %j', (expected, shown) => {
    expect(maskedDocumentMatches(expected, shown)).toBe(true);
  });

  it.each([
    [cpf, '***.418.769-**', 'a shown digit differs'],
    [cpf, '***.***.***-**', 'nothing is shown'],
    [cpf, '***********', 'nothing is shown'],
    [cpf, '', 'nothing is shown'],
    [cpf, '***.418.768-*', 'too short'],
    [cpf, '**.418.768-**', 'too short'],
    [cpf, '****418768**', 'too long'],
    [cpf, '418.768', 'a part only: positions cannot line up'],
    [cpf, '***-418.768.**', 'separators in the wrong places'],
    [cpf, '45.723.***/****-**', 'a CNPJ mask for a CPF'],
    [cnpj, '***.418.768-**', 'a CPF mask for a CNPJ'],
    [cnpj, '45.723.***/****-11', 'a shown check digit differs'],
    [alpha, '12.ABD.***/****-35', 'a shown letter differs'],
    [alpha, 'XX.XXX.345/01DE-35', 'X hides digits only, and "X" is not the letter A, B or C'],
    ['3664187687', '***.418.768-**', 'the expected value is not a document'],
  ])('%s does not match %j (%s)', (expected, shown) => {
    expect(maskedDocumentMatches(expected, shown)).toBe(false);
  });
});

const DIGITS = '0123456789'.split('');
const ALPHANUMERIC = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ'.split('');
const base = (alphabet: string[], length: number) =>
  fc.string({ unit: fc.constantFrom(...alphabet), minLength: length, maxLength: length }).filter((b) => !/^(.)\1+$/.test(b));
const documents = fc.oneof(
  base(DIGITS, 9).map((b) => ({ type: 'cpf' as const, value: b + cpfCheckDigits(b), masked: formatCpf(b + cpfCheckDigits(b)) })),
  base(ALPHANUMERIC, 12).map((b) => ({ type: 'cnpj' as const, value: b + cnpjCheckDigits(b), masked: formatCnpj(b + cnpjCheckDigits(b)) })),
);

/** Hides the characters of `text` at the positions where `hide` is true (separators stay). */
const hideAt = (text: string, hide: boolean[]) =>
  [...text].map((c, i) => (hide[i % hide.length] && /[0-9A-Z]/.test(c) ? '*' : c)).join('');

describe('document properties', () => {
  it('normalizeDocument accepts every generated CPF and CNPJ, masked or not, and is idempotent', () => {
    fc.assert(fc.property(documents, ({ type, value, masked }) => {
      expect(normalizeDocument(masked)).toEqual({ ok: true, value: { type, value } });
      expect(normalizeDocument(value)).toEqual({ ok: true, value: { type, value } });
    }));
  });

  it('any partial mask of a document matches it, with or without separators, as long as one character shows', () => {
    fc.assert(fc.property(documents, fc.array(fc.boolean(), { minLength: 18, maxLength: 18 }), ({ value, masked }, hide) => {
      const shown = hideAt(masked, hide);
      fc.pre(/[0-9A-Z]/.test(shown));
      expect(maskedDocumentMatches(value, shown)).toBe(true);
      expect(maskedDocumentMatches(value, shown.replace(/[./-]/g, ''))).toBe(true);
    }));
  });

  it('changing one shown character to another character (not the "X" mask) makes it fail', () => {
    fc.assert(fc.property(documents, fc.array(fc.boolean(), { minLength: 18, maxLength: 18 }), fc.nat(), fc.constantFrom(...ALPHANUMERIC), ({ value, masked }, hide, pick, by) => {
      const shown = hideAt(masked, hide);
      const visible = [...shown].flatMap((c, i) => (/[0-9A-Z]/.test(c) ? [i] : []));
      fc.pre(visible.length > 0);
      const at = visible[pick % visible.length] as number;
      fc.pre(shown[at] !== by && by !== 'X');
      const changed = shown.slice(0, at) + by + shown.slice(at + 1);
      expect(maskedDocumentMatches(value, changed)).toBe(false);
    }));
  });
});

describe('shownDocument', () => {
  it.each([
    // A CPF: the middle six digits only, whether the sheet held it normalized or with its mask.
    ['36641876870', '***.418.768-**'],
    ['366.418.768-70', '***.418.768-**'],
    // As a key lookup answers it: already hidden, in either shape.
    ['***.418.768-**', '***.418.768-**'],
    ['***418768**', '***.418.768-**'],
    // A CNPJ: in full, formatted; numeric or alphanumeric; what a provider hid stays hidden.
    ['45723174000110', '45.723.174/0001-10'],
    ['45.723.174/0001-10', '45.723.174/0001-10'],
    ['12abc34501de35', '12.ABC.345/01DE-35'],
    ['**.723.174/0001-**', '**.723.174/0001-**'],
    // Neither shape: its last four characters at most.
    ['1234567890', '***7890'],
    ['12345', '***'],
  ])('%j → %j', (input, shown) => {
    expect(shownDocument(input)).toBe(shown);
  });

  it('is null without a document', () => {
    expect(shownDocument(null)).toBeNull();
    expect(shownDocument('  ')).toBeNull();
  });
});

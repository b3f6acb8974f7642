import { describe, expect, it } from 'vitest';
import { mod10, mod11, mod11Bank, mod11Remainder } from '../../src/domain/check-digits.js';

// Sources:
// - FEBRABAN "Layout Padrão de Arrecadação/Recebimento com Utilização do Código de Barras" worked examples, as
//   quoted in https://github.com/WilliamSampaio/febraban_barcode (febraban_barcode/modulo11.py docstring,
//   tests/test_modulo_10.py, tests/test_modulo_11.py): DAC mod 10 of 01230067896 is 3, DAC mod 11 is 0;
//   "Quando o resto da divisão for igual a 0 ou 1, atribui-se ao DV o dígito 0, e quando for 10, o dígito 1".
// - Real collection lines whose block or general remainder is 0, 1 or 10 (the cases where the variants of
//   the mod-11 rule disagree): see boleto.test.ts for where each line comes from.
// - Real bank barcodes whose general remainder is 0 or 10 (DV 1): fernandosavio/boleto-utils
//   boleto-utils/tests/lib_test.rs and imobanco/bb-wrapper tests/utils.py.

describe('mod10 (FEBRABAN, weights 2,1 from the right)', () => {
  it.each([
    ['01230067896', 3], // FEBRABAN arrecadação layout example
    ['00000000000', 0],
    ['1111111111111111111111', 7], // febraban_barcode: digito_verificador_modulo10('11111111111', '11111111111')
    ['001905009', 5], // field 1 of BB line 00190.50095 …
    ['4014481606', 9], // field 2 of the same line
    ['0680935031', 4], // field 3 of the same line
    ['237933812', 8], // field 1 of Bradesco 23793.38128 …
  ])('mod10(%s) = %i', (digits, expected) => {
    expect(mod10(digits)).toBe(expected);
  });

  it('gives 0, not 10, when the weighted sum is a multiple of 10', () => {
    // 9·2 = 18 → 1+8 = 9, plus 1·1 = 10
    expect(mod10('19')).toBe(0);
  });
});

describe('mod11 (arrecadação, CPF, CNPJ: remainder 0 or 1 → 0, remainder 10 → 1)', () => {
  it.each([
    ['01230067896', 0, 0], // FEBRABAN example: sum 176, remainder 0
    ['01201611227', 3, 8], // febraban_barcode tests/test_modulo_11.py
    ['2222222222222222222222', 1, 10], // febraban_barcode: digito_verificador_modulo11('22222222222', '22222222222')
    // Real blocks: block 4 of 85890000460-9 52460179160-5 60759305086-5 83148300001-0 (remainder 1 → 0)
    ['83148300001', 0, 1],
    // block 3 of 858900000018 097802702000 323858108001 011520190292 (remainder 10 → 1)
    ['32385810800', 1, 10],
    // block 2 of 858200000082 833201802101 816624203813 055409800012 (remainder 10 → 1)
    ['83320180210', 1, 10],
    // blocks 3 and 4 of 838000000009 570100310209 014044403070 000081903200 (remainder 0 → 0)
    ['01404440307', 0, 0],
    ['00008190320', 0, 0],
  ])('mod11(%s) = %i (remainder %i)', (digits, expected, remainder) => {
    expect(mod11Remainder(digits)).toBe(remainder);
    expect(mod11(digits)).toBe(expected);
  });
});

describe('mod11Bank (remainder 0, 1 or 10 → 1)', () => {
  // 43 digits of a barcode without its check digit (position 5).
  const without = (barcode: string): string => barcode.slice(0, 4) + barcode.slice(5);

  it.each([
    ['34191873400000614011092306628112938349558000', 1, 0], // Itaú (bb-wrapper tests/utils.py "amil")
    ['23791672000003249052028269705944177105205220', 1, 0], // Bradesco (fernandosavio lib_test.rs)
    ['75691872100000215251419401015749004599691001', 1, 10], // Sicoob (bb-wrapper "bancoob")
    ['00191667900002434790000002656973019362470618', 1, 10], // BB (fernandosavio lib_test.rs)
    ['10499898100000214032006561000100040099726390', 9, 2], // Caixa (mrmgomes/boleto-utils test/test.js)
    ['00195586200000773520000002464206011816073018', 5, 6], // BB (fernandosavio lib_test.rs)
  ])('general check digit of %s is %i (remainder %i)', (barcode, expected, remainder) => {
    expect(mod11Remainder(without(barcode))).toBe(remainder);
    expect(mod11Bank(without(barcode))).toBe(expected);
    expect(barcode.charAt(4)).toBe(String(expected));
  });

  it('never yields 0', () => {
    for (let n = 0; n < 2000; n++) expect(mod11Bank(String(n * 7919).padStart(43, '0'))).not.toBe(0);
  });
});

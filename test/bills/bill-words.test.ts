import { describe, expect, it } from 'vitest';
import { BILL_WARNING_WORDS, REFUSAL_WORDS, refusalSentence } from '../../src/cli/messages/bill-refusals.js';
import { decodeBoleto } from '../../src/domain/boleto.js';
import { checkDecode } from '../../src/engine/bills/bill-plan.js';
import { LOCALES } from '../../src/words/locale.js';
import { BOLETO_PROBLEM_WORDS, BOLETO_WARNING_WORDS, boletoProblemsText, boletoWarningText } from '../../src/words/bills.js';

// The netcore line 03399.12347 56700.000005 00045.601010 9 69340000271716, every digit right.
const today = '2016-09-15';

describe('the words of a refused boleto code', () => {
  it('has every problem and warning code in every language', () => {
    const problems = [
      'stray_character', 'wrong_length', 'short_collection_line', 'not_reais', 'general_check_digit', 'field_check_digit',
      'block_check_digit', 'not_collection_product', 'unknown_segment', 'unknown_value_identifier',
    ];
    for (const locale of LOCALES) {
      expect(Object.keys(BOLETO_PROBLEM_WORDS[locale]).sort()).toEqual([...problems].sort());
      expect(Object.keys(BOLETO_WARNING_WORDS[locale])).toEqual(['due_date_unplaced']);
    }
  });

  it('a wrong field check digit: its code, the digit typed and the one expected, in English and in Portuguese', () => {
    // Field 1 is 033991234 and its mod-10 digit is 7 (sum of the weighted digits 43); 6 was typed.
    const d = decodeBoleto('03399.12346 56700.000005 00045.601010 9 69340000271716', today);
    expect(d.problems).toEqual([{ code: 'field_check_digit', field: 1, actual: 6, expected: 7 }]);
    expect(boletoProblemsText(d.problems, 'en')).toBe('field 1 check digit is 6, should be 7');
    expect(boletoProblemsText(d.problems, 'pt-BR')).toBe('o dígito verificador do campo 1 é 6, deveria ser 7');
  });

  it('every wrong field at once, joined', () => {
    const d = decodeBoleto('03399.12346 56700.000003 00045.601010 9 69340000271716', today);
    expect(boletoProblemsText(d.problems, 'pt-BR')).toBe(
      'o dígito verificador do campo 1 é 6, deveria ser 7; o dígito verificador do campo 2 é 3, deveria ser 5',
    );
  });

  it('the general check digit and the currency, in Portuguese', () => {
    expect(boletoProblemsText(decodeBoleto('03399.12347 56700.000005 00045.601010 4 69340000271716', today).problems, 'pt-BR')).toBe(
      'o dígito verificador geral é 4, deveria ser 9',
    );
    expect(boletoProblemsText(decodeBoleto('03389.12347 56700.000005 00045.601010 9 69340000271716', today).problems, 'pt-BR')).toBe(
      'o código da moeda é 8, deveria ser 9 (real); só são aceitos boletos em reais',
    );
  });

  it('a due date no factor cycle places, with São Paulo days in Portuguese', () => {
    const [warning] = decodeBoleto('11199100055555555556666666666666666666666666', '2010-01-01').warnings;
    expect(boletoWarningText(warning!, 'pt-BR')).toBe(
      'o fator de vencimento 1000 não indica nenhuma data entre 15/10/2001 e 22/01/2025 (3000 dias antes e 5500 dias depois de 01/01/2010); o vencimento é desconhecido',
    );
  });
});

describe('the words of a refused bill', () => {
  it('has every refusal and warning code in every language', () => {
    const refusals = [
      'no_code', 'invalid_code', 'invalid_amount', 'description_too_long', 'same_bill_twice', 'already_paid_in_ledger',
      'unknown_outcome_in_ledger', 'unfinished_payment_in_ledger', 'unknown_to_provider', 'code_refused_by_provider',
      'another_bill', 'amount_mismatch', 'fixed_amount', 'amount_not_choosable', 'below_minimum', 'above_maximum',
      'reference_value', 'amount_needed', 'no_amount',
    ];
    const warnings = ['due_date_differs', 'past_due', 'discount', 'settle_date_differs', 'paid_amount_differs', 'receipt_not_written', 'scheduled_unexpectedly'];
    for (const locale of LOCALES) {
      expect(Object.keys(REFUSAL_WORDS[locale]).sort()).toEqual([...refusals].sort());
      expect(Object.keys(BILL_WARNING_WORDS[locale]).sort()).toEqual([...warnings].sort());
    }
  });

  it('refuses a code with a wrong check digit in Portuguese, naming the digit it should have', () => {
    const checked = checkDecode(decodeBoleto('03399.12347 56700.000003 00045.601010 9 69340000271716', today));
    expect(checked).toEqual({ ok: false, refusal: { code: 'invalid_code', problems: [{ code: 'field_check_digit', field: 2, actual: 3, expected: 5 }] } });
    if (checked.ok) return;
    expect(refusalSentence(checked.refusal, 'option', 'pt-BR')).toBe('o dígito verificador do campo 2 é 3, deveria ser 5');
    expect(refusalSentence(checked.refusal, 'option', 'en')).toBe('field 2 check digit is 3, should be 5');
  });

  it('names the way to give an amount in the language: the option, or the amount column of a file', () => {
    const r = { code: 'reference_value' } as const;
    expect(refusalSentence(r, 'column', 'en')).toBe('the code holds a reference value, not the amount due: give the amount to pay (the amount column)');
    expect(refusalSentence(r, 'column', 'pt-BR')).toBe('o código traz um valor de referência, não o valor devido: informe o valor a pagar (a coluna de valor)');
    expect(refusalSentence(r, 'option', 'pt-BR')).toBe('o código traz um valor de referência, não o valor devido: informe o valor a pagar (--amount)');
  });

  it('a ledger attempt in Portuguese: its status word and São Paulo time', () => {
    const r = { code: 'already_paid_in_ledger', billId: 4, status: 'paid', createdAt: '2025-03-07T13:00:00.000Z', transactionId: 'tx-4' } as const;
    expect(refusalSentence(r, 'option', 'pt-BR')).toBe('já pago em 07/03/2025 10:00 (horário de São Paulo) (conta #4, transação tx-4); use --force para pagá-la de novo');
    expect(refusalSentence(r, 'option', 'en')).toBe('already paid on 2025-03-07 13:00 UTC (bill #4, transaction tx-4); pass --force to pay it again');
  });
});

import { describe, expect, it } from 'vitest';
import { normalizeCpf } from '../../src/domain/cpf.js';
import { checkPixKey } from '../../src/domain/pix-key.js';
import type { ValidationReason } from '../../src/domain/validation-reason.js';
import { LOCALES } from '../../src/words/locale.js';
import { SHEET_SENTENCES, saySheet } from '../../src/words/sheet.js';
import { KEY_TYPE_WORDS, sayValidation, VALIDATION_SENTENCES } from '../../src/words/validation.js';

describe('the catalogs of reasons', () => {
  it('have a sentence for every code in every language, the same codes in each', () => {
    const codes = Object.keys(VALIDATION_SENTENCES.en).sort();
    const sheetCodes = Object.keys(SHEET_SENTENCES.en).sort();
    expect(codes.length).toBeGreaterThan(40);
    for (const locale of LOCALES) {
      expect(Object.keys(VALIDATION_SENTENCES[locale]).sort(), locale).toEqual(codes);
      expect(Object.keys(SHEET_SENTENCES[locale]).sort(), locale).toEqual(sheetCodes);
      for (const code of [...codes, ...sheetCodes]) expect(codes.includes(code) && sheetCodes.includes(code), code).toBe(false);
    }
  });

  it('say a CPF reason in English and in Portuguese', () => {
    const reason: ValidationReason = { code: 'cpf_check_digits', expected: '09' };
    expect(sayValidation(reason, 'en')).toBe('CPF check digits do not match (expected 09)');
    expect(sayValidation(reason, 'pt-BR')).toBe('os dígitos verificadores do CPF não conferem (esperado 09)');
    const short = normalizeCpf('1234567890');
    expect(!short.ok && sayValidation(short.error, 'en')).toBe('CPF must have 11 digits, got 10; a spreadsheet may have dropped leading zeros');
    expect(!short.ok && sayValidation(short.error, 'pt-BR')).toBe('o CPF deve ter 11 dígitos, tem 10; a planilha pode ter tirado os zeros à esquerda');
  });

  it('say a key refused as its type with the type and the nested reason, in either language', () => {
    const check = checkPixKey('12345678900');
    expect(sayValidation(check.reason!, 'en')).toBe('neither a CPF (CPF check digits do not match (expected 09)) nor a mobile number (mobile numbers start with 9 after the area code)');
    expect(sayValidation(check.reason!, 'pt-BR')).toBe('nem CPF (os dígitos verificadores do CPF não conferem (esperado 09)) nem celular (celulares começam com 9 depois do DDD)');
    expect(sayValidation({ code: 'key_invalid_as', type: 'phone', reason: { code: 'phone_area_code', areaCode: '20' } }, 'pt-BR')).toBe('celular inválido: o DDD 20 não existe');
  });

  it('say an amount refusal with the text as given', () => {
    const reason: ValidationReason = { code: 'amount_ambiguous_mark', text: '1,234', mark: ',', whole: '1', fraction: '234' };
    expect(sayValidation(reason, 'en')).toBe('amount "1,234": ambiguous: is "," a thousands separator or the decimal mark? write 1234,00 or use two decimals');
    expect(sayValidation(reason, 'pt-BR')).toBe('valor "1,234": ambíguo: "," separa milhares ou decimais? escreva 1234,00 ou use duas casas decimais');
  });

  it('say the sheet reasons, passing a validator reason through', () => {
    expect(saySheet({ code: 'amount_above_item_limit', amountCents: 7_500_000, limitCents: 5_000_000 }, 'pt-BR')).toBe(
      'R$ 75.000,00 passa do limite por item de R$ 50.000,00 (maxItemAmount)',
    );
    expect(saySheet({ code: 'document_not_key', document: '390.533.447-05', keyType: 'cpf', key: '52998224725' }, 'en')).toBe(
      "390.533.447-05 does not match the CPF key 52998224725: a CPF key is the payee's own CPF",
    );
    expect(saySheet({ code: 'amount_zero' }, 'en')).toBe('amount must be greater than zero');
  });

  it('name the kinds of key (and a payment to account data) for people in Portuguese, and keep the type words in English', () => {
    expect(KEY_TYPE_WORDS['pt-BR']).toEqual({ cpf: 'CPF', cnpj: 'CNPJ', phone: 'celular', email: 'e-mail', evp: 'chave aleatória', account: 'dados bancários' });
    expect(KEY_TYPE_WORDS.en).toEqual({ cpf: 'cpf', cnpj: 'cnpj', phone: 'phone', email: 'email', evp: 'evp', account: 'account data' });
  });
});

import { describe, expect, it } from 'vitest';
import { normalizeCnpj } from '../../src/domain/cnpj.js';
import { normalizeCpf } from '../../src/domain/cpf.js';
import { normalizeDocument } from '../../src/domain/document.js';
import { normalizeEmail } from '../../src/domain/email.js';
import { parseAmount } from '../../src/domain/money.js';
import { normalizePhone } from '../../src/domain/phone.js';
import { checkPixKey } from '../../src/domain/pix-key.js';

// Check digits worked by hand. CPF 123.456.789-xx: weights 10..2 over 1..9 give 210, 210 mod 11 = 1 → 0; then
// weights 11..2 over 1..9,0 give 255, 255 mod 11 = 2 → 11 - 2 = 9: "09".
// CNPJ 11.222.333/0001-xx: weights 5,4,3,2,9,8,7,6,5,4,3,2 give 102, 102 mod 11 = 3 → 8; with the 8, weights
// 6,5,4,3,2,9,8,7,6,5,4,3,2 give 120, 120 mod 11 = 10 → 1: "81".
describe('the validators give reasons: a code and its data, no words', () => {
  it('names the CPF check digits expected', () => {
    expect(normalizeCpf('123.456.789-00')).toEqual({ ok: false, error: { code: 'cpf_check_digits', expected: '09' } });
  });

  it('tells a CPF that lost its leading zeros from one too long', () => {
    expect(normalizeCpf('1234567890')).toEqual({ ok: false, error: { code: 'cpf_length', length: 10, zerosLost: true } });
    expect(normalizeCpf('123456789012')).toEqual({ ok: false, error: { code: 'cpf_length', length: 12, zerosLost: false } });
    expect(normalizeCpf('111.111.111-11')).toEqual({ ok: false, error: { code: 'cpf_all_equal' } });
    expect(normalizeCpf(' ')).toEqual({ ok: false, error: { code: 'cpf_empty' } });
  });

  it('names the CNPJ check digits expected, and a short numeric CNPJ as zeros lost', () => {
    expect(normalizeCnpj('11.222.333/0001-00')).toEqual({ ok: false, error: { code: 'cnpj_check_digits', expected: '81' } });
    expect(normalizeCnpj('1222333000181')).toEqual({ ok: false, error: { code: 'cnpj_length', length: 13, zerosLost: true } });
    expect(normalizeCnpj('1222333A00181')).toEqual({ ok: false, error: { code: 'cnpj_length', length: 13, zerosLost: false } });
  });

  it('gives a document the reason of the type its length means', () => {
    expect(normalizeDocument('123.456.789-00')).toEqual({ ok: false, error: { code: 'cpf_check_digits', expected: '09' } });
    expect(normalizeDocument('12345')).toEqual({ ok: false, error: { code: 'document_length', length: 5 } });
  });

  it('names the area code, the character and the amount text in the data', () => {
    expect(normalizePhone('(20) 98765-4321')).toEqual({ ok: false, error: { code: 'phone_area_code', areaCode: '20' } });
    expect(normalizeEmail('ana%bia@example.com')).toEqual({ ok: false, error: { code: 'email_local_character', character: '%' } });
    expect(parseAmount('1,234')).toEqual({ ok: false, error: { code: 'amount_ambiguous_mark', text: '1,234', mark: ',', whole: '1', fraction: '234' } });
    expect(parseAmount('-10')).toEqual({ ok: false, error: { code: 'amount_negative', text: '-10' } });
    expect(parseAmount('0,00')).toEqual({ ok: false, error: { code: 'amount_zero' } });
  });

  it('nests the reason of the type a key was tried as', () => {
    expect(checkPixKey('123.456.789-00').reason).toEqual({ code: 'key_invalid_as', type: 'cpf', reason: { code: 'cpf_check_digits', expected: '09' } });
    // 12345678900: CPF digits "09" expected; as a phone, area code 12 and subscriber 345678900, which does not start with 9.
    expect(checkPixKey('12345678900').reason).toEqual({
      code: 'key_neither', cpf: { code: 'cpf_check_digits', expected: '09' }, phone: { code: 'phone_not_mobile' },
    });
    expect(checkPixKey('hello').reason).toEqual({ code: 'key_unknown' });
    expect(checkPixKey('ana@example.com').reason).toBeNull();
  });
});

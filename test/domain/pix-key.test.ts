import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sayValidation } from '../../src/words/validation.js';
import { cnpjCheckDigits, formatCnpj } from '../../src/domain/cnpj.js';
import { cpfCheckDigits, formatCpf } from '../../src/domain/cpf.js';
import { normalizeEmail } from '../../src/domain/email.js';
import { normalizePhone } from '../../src/domain/phone.js';
import { checkPixKey, parsePixKeyType, PIX_KEY_TYPES, type PixKeyType } from '../../src/domain/pix-key.js';

// Sources of the vectors (public code, read through the search index):
// - [anatel]  the 67 area codes of ANATEL Resolução nº 263/2001 as listed by jlozovei/validate-ddd-br src/dddList.js
//             and rsabilio/teste codigos_telefone.php; datasets-br/city-codes README: "São 67 macro-regiões do DDD"
// - [bv]      VitorLuizC/brazilian-values test/validators.test.ts (isPhone, isDDD)
// - [vbr]     klawdyo/validation-br src/pix-key.spec.ts
// - [rfb]     Receita Federal alphanumeric CNPJ example 12.ABC.345/01DE-35
// - [rfc4122] the UUID example of RFC 4122 / 9562: 123e4567-e89b-12d3-a456-426614174000 (version 1)
// - [dict]    Banco Central DICT key formats: e-mail at most 77 characters; phone +55 E.164; EVP a UUID
// - [dict-2.6.0] DICT API changelog 2.6.0 (2025-09-27): "Removido '&' do conjunto de caracteres permitidos para chaves
//             do tipo EMAIL" (https://www.bcb.gov.br/content/estabilidadefinanceira/pix/changelog.html), as quoted by
//             the brazilian-utils project

const AREA_CODES = [
  11, 12, 13, 14, 15, 16, 17, 18, 19, 21, 22, 24, 27, 28, 31, 32, 33, 34, 35, 37, 38,
  41, 42, 43, 44, 45, 46, 47, 48, 49, 51, 53, 54, 55, 61, 62, 63, 64, 65, 66, 67, 68, 69,
  71, 73, 74, 75, 77, 79, 81, 82, 83, 84, 85, 86, 87, 88, 89, 91, 92, 93, 94, 95, 96, 97, 98, 99,
].map(String);

describe('normalizePhone', () => {
  it.each([
    ['+55 11 98765-4321', '+5511987654321'],
    ['(11) 98765-4321', '+5511987654321'],
    ['5511987654321', '+5511987654321'],
    ['005511987654321', '+5511987654321'],
    ['11987654321', '+5511987654321'],
    ['011 98765-4321', '+5511987654321'],
    ['+55 (11) 9 8273-1182', '+5511982731182'], // [bv]
    ['11 9 8273 1182', '+5511982731182'], // [bv]
    ['+5584987654321', '+5584987654321'], // [vbr]
    ['55 55 99123-4567', '+5555991234567'], // area code 55 (Santa Maria) after country code 55
    ['55991234567', '+5555991234567'],
    ['+55.61.99999.0000', '+5561999990000'],
  ])('accepts %j as %s', (input, e164) => {
    expect(normalizePhone(input)).toEqual({ ok: true, value: e164 });
  });

  it.each([
    ['1139723768', 'landline numbers are not Pix keys'], // [bv] counts it as a phone; it is a São Paulo landline
    ['(11) 3333-4444', 'landline numbers are not Pix keys'],
    ['+55 21 2555-1234', 'landline numbers are not Pix keys'],
    ['(23) 3972-3768', 'area code 23 does not exist'], // [bv]
    ['(20) 98765-4321', 'area code 20 does not exist'],
    ['10987654321', 'area code 10 does not exist'], // [bv] isDDD('10') is false
    ['(13) 6 5093-2093', 'start with 9'], // [bv]
    ['11 8765-4321', 'add the leading 9'],
    ['+55849876', 'got 6 digits'], // [vbr]
    ['(81) 555 178', 'got 8 digits'], // [bv]
    ['+1 415 555 0100', 'only Brazilian'],
    ['0044 20 7946 0958', 'only Brazilian'],
    ['11 98765-432a', 'may only have digits'],
    ['', 'empty'],
  ])('refuses %j (%s)', (input, reason) => {
    const result = normalizePhone(input);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(sayValidation(result.error, 'en')).toContain(reason);
  });

  it('accepts exactly the 67 ANATEL area codes [anatel]', () => {
    const accepted: string[] = [];
    for (let code = 10; code <= 99; code++) {
      if (normalizePhone(`${code}987654321`).ok) accepted.push(String(code));
    }
    expect(accepted).toEqual(AREA_CODES);
    expect(accepted).toHaveLength(67);
  });
});

describe('normalizeEmail', () => {
  it.each([
    ['klawdyo@gmail.com', 'klawdyo@gmail.com'], // [vbr]
    ['  Fulano.Silva@Exemplo.COM.br ', 'fulano.silva@exemplo.com.br'],
    ['ana+pix@mail.example.com', 'ana+pix@mail.example.com'],
    ["o'neil@example.com", "o'neil@example.com"],
    ['a@b.co', 'a@b.co'],
    // Every symbol the DICT pattern lists; "&" left it in DICT API 2.6.0 (2025-09-27) [dict-2.6.0], so it is refused below.
    ["!#$'*+/=?^_`{|}~-.@example.com", "!#$'*+/=?^_`{|}~-.@example.com"],
    ['a@localhost', 'a@localhost'], // the DICT pattern needs no dot in the domain
    ['Pix@BCB', 'pix@bcb'],
    ['a@1.2.3.4', 'a@1.2.3.4'],
    ['x@my-host.example.com', 'x@my-host.example.com'],
    [`${'a'.repeat(65)}@example.com`, `${'a'.repeat(65)}@example.com`], // 77 characters [dict]
    [`a@${'b'.repeat(63)}.com`, `a@${'b'.repeat(63)}.com`],
  ])('accepts %j', (input, email) => {
    expect(normalizeEmail(input)).toEqual({ ok: true, value: email });
  });

  it.each([
    [`${'a'.repeat(66)}@example.com`, 'more than 77'], // 78 characters [dict]
    ['100%@example.com', 'e-mail has a character not accepted before the @: "%"'], // "%" was never in the pattern [dict]
    ['ana%bia@example.com', 'e-mail has a character not accepted before the @: "%"'],
    ['ana&bia@example.com', 'e-mail has a character not accepted before the @: "&"'], // [dict-2.6.0]
    ['a&b@example.com', 'e-mail has a character not accepted before the @: "&"'], // the key of issue 21 [dict-2.6.0]
    ['&@example.com', 'e-mail has a character not accepted before the @: "&"'],
    ['"ana bia"@example.com', 'quoted'],
    ['fulano@exa_mple.com', 'e-mail domain part "exa_mple" has characters other than a-z, 0-9 and "-"'],
    ['x@my_host.example.com', 'characters other than'],
    ['ana@-example.com', 'starts or ends with "-"'],
    ['ana@example-.com', 'starts or ends with "-"'],
    ['ana@_example.com', 'characters other than'],
    ['ana@example.com_', 'characters other than'],
    ['ana@example.com.', 'empty part'],
    ['ana(x)@example.com', 'character not accepted before the @: "("'],
    ['ana@example..com', 'empty part'],
    ['ana@.example.com', 'empty part'],
    [`a@${'b'.repeat(64)}.com`, 'longer than 63'],
    ['ana@exémplo.com', 'characters other than'],
    ['ana@bia@example.com', 'more than one @'],
    ['ana.example.com', 'needs an @'],
    ['@example.com', 'nothing before the @'],
    ['ana@', 'no domain'],
    ['ana maria@example.com', 'character not accepted'],
    ['', 'empty'],
  ])('refuses %j (%s)', (input, reason) => {
    const result = normalizeEmail(input);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(sayValidation(result.error, 'en')).toContain(reason);
  });
});

// 119876543 + its CPF check digits "74": a valid CPF that is also a valid São Paulo mobile number.
const CPF_AND_MOBILE = '11987654374';

describe('checkPixKey without a type (detection)', () => {
  it.each<[string, PixKeyType, string, PixKeyType[]]>([
    ['004.129.620-63', 'cpf', '00412962063', []], // [vbr]
    ['39053344705', 'cpf', '39053344705', []],
    [CPF_AND_MOBILE, 'cpf', CPF_AND_MOBILE, ['phone']],
    ['41356581000186', 'cnpj', '41356581000186', []], // [vbr]
    ['11.222.333/0001-81', 'cnpj', '11222333000181', []],
    ['12.ABC.345/01DE-35', 'cnpj', '12ABC34501DE35', []], // [rfb]
    ['12abc34501de35', 'cnpj', '12ABC34501DE35', []],
    ['00.000.000/0001-91', 'cnpj', '00000000000191', []], // "00" prefix, but a valid CNPJ (Banco do Brasil)
    ['00412962063', 'cpf', '00412962063', []], // "00" prefix, but a valid CPF
    ['+5584987654321', 'phone', '+5584987654321', []], // [vbr]
    ['+55 11 98765-4321', 'phone', '+5511987654321', []],
    ['(11) 98765-4321', 'phone', '+5511987654321', []],
    ['005511987654321', 'phone', '+5511987654321', []],
    ['5511987654321', 'phone', '+5511987654321', []],
    ['11987654321', 'phone', '+5511987654321', []], // fails the CPF check digits (expected 74)
    ['klawdyo@gmail.com', 'email', 'klawdyo@gmail.com', []], // [vbr]
    [' Ana@Example.com ', 'email', 'ana@example.com', []],
    ['01234567-0123-4567-8901-234567890123', 'evp', '01234567-0123-4567-8901-234567890123', []], // [vbr]
    ['123E4567-E89B-12D3-A456-426614174000', 'evp', '123e4567-e89b-12d3-a456-426614174000', []], // [rfc4122]
  ])('%j is a valid %s → %s', (input, type, normalized, ambiguousWith) => {
    expect(checkPixKey(input)).toEqual({ input, valid: true, type, normalized, ambiguousWith, reason: null });
  });

  it.each<[string, PixKeyType | null, string]>([
    ['', null, 'empty'],
    ['   ', null, 'empty'],
    ['+55849876', 'phone', 'got 6 digits'], // [vbr]
    ['(11) 3333-4444', 'phone', 'landline numbers are not Pix keys'],
    ['1133334444', 'phone', 'landline numbers are not Pix keys'],
    ['+55 20 98765-4321', 'phone', 'area code 20 does not exist'],
    ['231.002.999-00', 'cpf', 'CPF check digits do not match (expected 81)'],
    ['23100299900', null, 'neither a CPF (CPF check digits do not match (expected 81)) nor a mobile number (area code 23 does not exist)'],
    ['11111111111', null, 'neither a CPF'],
    ['12ABC34501DE99', 'cnpj', 'CNPJ check digits do not match (expected 35)'],
    ['11.222.333/0001-82', 'cnpj', 'CNPJ check digits do not match (expected 81)'],
    ['ana%bia@example.com', 'email', 'character not accepted before the @: "%"'],
    ['a&b@example.com', 'email', 'character not accepted before the @: "&"'], // [dict-2.6.0]
    ['123e4567-e89b-12d3-a456-42661417400', null, 'not a Pix key'],
    ['hello', null, 'not a Pix key'],
    ['12345', null, 'not a Pix key'],
  ])('%j is invalid (tried as %s: %s)', (input, tried, reason) => {
    const check = checkPixKey(input);
    // keys check's JSON contract: type and normalized are null when invalid; the error names the type tried.
    expect(check).toMatchObject({ input, valid: false, type: null, normalized: null, ambiguousWith: [] });
    expect(sayValidation(check.reason!, 'en')).toContain(reason);
    if (tried) expect(sayValidation(check.reason!, 'en')).toContain(`not a valid ${LABEL[tried]}`);
  });
});

const LABEL: Record<PixKeyType, string> = { cpf: 'CPF', cnpj: 'CNPJ', phone: 'mobile number', email: 'e-mail', evp: 'random key' };

describe('checkPixKey with a type', () => {
  it.each<[string, PixKeyType, string]>([
    [CPF_AND_MOBILE, 'cpf', CPF_AND_MOBILE],
    [CPF_AND_MOBILE, 'phone', `+55${CPF_AND_MOBILE}`],
    ['11987654321', 'phone', '+5511987654321'],
    ['12.ABC.345/01DE-35', 'cnpj', '12ABC34501DE35'],
    ['ANA@EXAMPLE.COM', 'email', 'ana@example.com'],
    [' 123E4567-E89B-12D3-A456-426614174000 ', 'evp', '123e4567-e89b-12d3-a456-426614174000'],
  ])('%j as %s → %s, not ambiguous', (input, type, normalized) => {
    expect(checkPixKey(input, type)).toEqual({ input, valid: true, type, normalized, ambiguousWith: [], reason: null });
  });

  it.each<[string, PixKeyType, string]>([
    ['11987654321', 'cpf', 'CPF check digits do not match (expected 74)'],
    ['39053344705', 'phone', 'area code 39 does not exist'],
    ['41356581000186', 'cpf', 'got 14'],
    ['39053344705', 'cnpj', 'got 11'],
    ['ana@example.com', 'phone', 'may only have digits'],
    ['123e4567e89b12d3a456426614174000', 'evp', 'random keys are UUIDs'],
    ['', 'evp', 'empty'],
  ])('%j as %s is invalid (%s)', (input, type, reason) => {
    const check = checkPixKey(input, type);
    expect(check).toMatchObject({ valid: false, type: null, normalized: null });
    expect(sayValidation(check.reason!, 'en')).toContain(reason);
  });
});

describe('parsePixKeyType and PIX_KEY_TYPES', () => {
  it.each<[string, PixKeyType | null]>([
    ['cpf', 'cpf'],
    [' CPF ', 'cpf'],
    ['CNPJ', 'cnpj'],
    ['telefone', 'phone'],
    ['Celular', 'phone'],
    ['phone', 'phone'],
    ['fone', 'phone'],
    ['email', 'email'],
    ['E-mail', 'email'],
    ['E-MAIL', 'email'],
    ['aleatoria', 'evp'],
    ['aleatória', 'evp'],
    ['Aleatória', 'evp'],
    ['chave aleatória', 'evp'],
    ['Chave  Aleatoria', 'evp'],
    ['chave_aleatoria', 'evp'],
    ['evp', 'evp'],
    ['EVP', 'evp'],
    ['random', 'evp'],
    ['', null],
    ['pix', null],
    ['chave', null],
    ['cpf/cnpj', null],
  ])('%j → %s', (word, type) => {
    expect(parsePixKeyType(word)).toBe(type);
  });

  it('lists the five types, every one of them parseable by its own name', () => {
    expect(PIX_KEY_TYPES).toEqual(['cpf', 'cnpj', 'phone', 'email', 'evp']);
    expect(Object.isFrozen(PIX_KEY_TYPES)).toBe(true);
    for (const type of PIX_KEY_TYPES) expect(parsePixKeyType(type)).toBe(type);
  });
});

const digits = (length: number) => fc.string({ unit: fc.constantFrom(...'0123456789'.split('')), minLength: length, maxLength: length });
const mobile = fc.tuple(fc.constantFrom(...AREA_CODES), digits(8)).map(([ddd, rest]) => `${ddd}9${rest}`);

describe('Pix key properties', () => {
  it('every way of writing a mobile number normalizes to the same key, and normalizing is idempotent', () => {
    fc.assert(fc.property(mobile, (national) => {
      const key = `+55${national}`;
      const ddd = national.slice(0, 2);
      const [a, b] = [national.slice(2, 7), national.slice(7)];
      for (const written of [national, `55${national}`, `0055${national}`, `+55 ${ddd} ${a}-${b}`, `(${ddd}) ${a}-${b}`, `0${national}`]) {
        expect(normalizePhone(written)).toEqual({ ok: true, value: key });
      }
      expect(normalizePhone(key)).toEqual({ ok: true, value: key });
      expect(checkPixKey(key)).toMatchObject({ valid: true, type: 'phone', normalized: key });
    }));
  });

  it('an 11-digit mobile number is a phone unless it passes the CPF check, and then it is flagged ambiguous', () => {
    fc.assert(fc.property(mobile, (national) => {
      const check = checkPixKey(national);
      const isCpf = cpfCheckDigits(national.slice(0, 9)) === national.slice(9) && !/^(\d)\1+$/.test(national);
      expect(check).toMatchObject(isCpf
        ? { valid: true, type: 'cpf', normalized: national, ambiguousWith: ['phone'] }
        : { valid: true, type: 'phone', normalized: `+55${national}`, ambiguousWith: [] });
    }));
  });

  it('a generated CPF or CNPJ is detected as such, masked or not, and its normalized form checks to itself', () => {
    const cpf = digits(9).filter((b) => !/^(\d)\1+$/.test(b)).map((b) => ({ type: 'cpf' as const, value: b + cpfCheckDigits(b), masked: formatCpf(b + cpfCheckDigits(b)) }));
    const cnpjBase = fc.string({ unit: fc.constantFrom(...'0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ'.split('')), minLength: 12, maxLength: 12 }).filter((b) => !/^(.)\1+$/.test(b));
    const cnpj = cnpjBase.map((b) => ({ type: 'cnpj' as const, value: b + cnpjCheckDigits(b), masked: formatCnpj(b + cnpjCheckDigits(b)) }));
    fc.assert(fc.property(fc.oneof(cpf, cnpj), ({ type, value, masked }) => {
      for (const written of [value, masked]) {
        expect(checkPixKey(written)).toMatchObject({ valid: true, type, normalized: value });
      }
      expect(checkPixKey(value, type)).toMatchObject({ valid: true, type, normalized: value });
    }));
  });

  it('e-mail and random keys are idempotent under normalization', () => {
    fc.assert(fc.property(fc.emailAddress(), (email) => {
      const first = normalizeEmail(email);
      // fast-check writes RFC 5322 dot-atom addresses; the DICT pattern adds the length limit and leaves out "%" and
      // (since DICT API 2.6.0) "&".
      expect(first.ok).toBe(email.length <= 77 && !email.includes('%') && !email.includes('&'));
      if (first.ok) expect(normalizeEmail(first.value)).toEqual(first);
      if (first.ok) expect(normalizeEmail(` ${email.toUpperCase()} `)).toEqual(first);
    }));
    fc.assert(fc.property(fc.uuid(), fc.boolean(), (uuid, upper) => {
      const check = checkPixKey(upper ? uuid.toUpperCase() : uuid);
      expect(check).toMatchObject({ valid: true, type: 'evp', normalized: uuid.toLowerCase() });
      expect(checkPixKey(check.normalized ?? '', 'evp').normalized).toBe(check.normalized);
    }));
  });

  it('never throws, and a valid check always carries a type and a normalized key', () => {
    fc.assert(fc.property(fc.string(), fc.option(fc.constantFrom(...PIX_KEY_TYPES), { nil: undefined }), (input, type) => {
      const check = checkPixKey(input, type);
      expect(check.input).toBe(input);
      if (check.valid) {
        expect(check.type).not.toBeNull();
        expect(check.normalized).not.toBeNull();
        expect(check.reason).toBeNull();
      } else {
        expect(check.normalized).toBeNull();
        expect(check.reason).toBeTruthy();
      }
    }));
  });
});

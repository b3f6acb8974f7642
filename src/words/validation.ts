import type { DestinationType } from '../domain/account-destination.js';
import type { PixKeyType } from '../domain/pix-key.js';
import type { ValidationCode, ValidationReason } from '../domain/validation-reason.js';
import type { Locale } from './locale.js';

/** One sentence per reason code, from the reason's data: a code without its sentence is a type error. */
type Sentences = { readonly [C in ValidationCode]: (r: Extract<ValidationReason, { code: C }>) => string };

const zerosLostEn = (lost: boolean) => (lost ? '; a spreadsheet may have dropped leading zeros' : '');
const zerosLostPt = (lost: boolean) => (lost ? '; a planilha pode ter tirado os zeros à esquerda' : '');

/** Why a document, key or amount is refused, in English (the words of `--json`). */
const en: Sentences = {
  amount_empty: () => 'amount is empty',
  amount_negative: (r) => `negative amounts are not accepted: "${r.text}"`,
  amount_no_digits: () => 'amount has no digits',
  amount_characters: (r) => `amount "${r.text}" has characters other than digits, "." and ","`,
  amount_space: (r) => `amount "${r.text}" has a misplaced space`,
  amount_mark_twice: (r) => `amount "${r.text}": "${r.mark}" appears more than once`,
  amount_misplaced_group: (r) => `amount "${r.text}": misplaced "${r.mark}" thousands separator`,
  amount_digit_before_mark: (r) => `amount "${r.text}": a digit is needed before "${r.mark}" (write 0${r.mark}${r.fraction})`,
  amount_ambiguous_mark: (r) =>
    `amount "${r.text}": ambiguous: is "${r.mark}" a thousands separator or the decimal mark? write ${r.whole}${r.fraction},00 or use two decimals`,
  amount_no_decimals: (r) => `amount "${r.text}": no digits after the decimal mark`,
  amount_too_many_decimals: (r) => `amount "${r.text}": more than two decimal places`,
  amount_zero: () => 'amount must be greater than zero',
  amount_too_large: (r) => `amount "${r.text}" is too large`,

  cpf_empty: () => 'CPF is empty',
  cpf_characters: () => 'CPF may only have digits, dots and a dash',
  cpf_length: (r) => `CPF must have 11 digits, got ${r.length}${zerosLostEn(r.zerosLost)}`,
  cpf_all_equal: () => 'CPF with all digits equal is not valid',
  cpf_check_digits: (r) => `CPF check digits do not match (expected ${r.expected})`,
  cnpj_empty: () => 'CNPJ is empty',
  cnpj_characters: () => 'CNPJ may only have digits, letters A-Z, dots, a slash and a dash',
  cnpj_length: (r) => `CNPJ must have 14 characters, got ${r.length}${zerosLostEn(r.zerosLost)}`,
  cnpj_digits_at_end: () => 'CNPJ check digits (the last two) must be digits',
  cnpj_all_equal: () => 'CNPJ with all digits equal is not valid',
  cnpj_check_digits: (r) => `CNPJ check digits do not match (expected ${r.expected})`,
  document_empty: () => 'document is empty',
  document_length: (r) => `a document is a CPF (11 digits) or a CNPJ (14 characters), got ${r.length} characters`,

  phone_empty: () => 'phone number is empty',
  phone_characters: () => 'phone number may only have digits, +, spaces, dashes and parentheses',
  phone_foreign: () => 'only Brazilian (+55) phone numbers are accepted',
  phone_length: (r) => `phone number must have an area code and 9 digits, got ${r.digits} digits`,
  phone_area_code: (r) => `area code ${r.areaCode} does not exist`,
  phone_landline: () => 'landline numbers are not Pix keys',
  phone_eight_digits: () => 'mobile numbers have 9 digits after the area code (add the leading 9)',
  phone_not_mobile: () => 'mobile numbers start with 9 after the area code',

  email_empty: () => 'e-mail is empty',
  email_length: (r) => `e-mail has ${r.length} characters, more than ${r.max}`,
  email_no_at: () => 'e-mail needs an @',
  email_two_ats: () => 'e-mail has more than one @',
  email_no_local: () => 'e-mail has nothing before the @',
  email_quoted: () => 'quoted e-mail addresses are not Pix keys',
  email_local_character: (r) => `e-mail has a character not accepted before the @: "${r.character}"`,
  email_no_domain: () => 'e-mail has no domain after the @',
  email_empty_label: (r) => `e-mail domain "${r.domain}" has an empty part`,
  email_long_label: (r) => `e-mail domain part "${r.start}…" is longer than 63 characters`,
  email_label_hyphen: (r) => `e-mail domain part "${r.label}" starts or ends with "-"`,
  email_label_characters: (r) => `e-mail domain part "${r.label}" has characters other than a-z, 0-9 and "-"`,

  evp_shape: () => 'random keys are UUIDs like 123e4567-e89b-12d3-a456-426614174000',
  key_empty: () => 'Pix key is empty',
  key_unknown: () => 'not a Pix key: expected a CPF, CNPJ, mobile number, e-mail or random key',
  key_neither: (r) => `neither a CPF (${en[r.cpf.code](r.cpf as never)}) nor a mobile number (${en[r.phone.code](r.phone as never)})`,
  key_invalid_as: (r) =>
    `${{ cpf: 'not a valid CPF', cnpj: 'not a valid CNPJ', phone: 'not a valid mobile number', email: 'not a valid e-mail', evp: 'not a valid random key' }[r.type]}: ${en[r.reason.code](r.reason as never)}`,
};

const ptBR: Sentences = {
  amount_empty: () => 'o valor está vazio',
  amount_negative: (r) => `valores negativos não são aceitos: "${r.text}"`,
  amount_no_digits: () => 'o valor não tem dígitos',
  amount_characters: (r) => `o valor "${r.text}" tem caracteres além de dígitos, "." e ","`,
  amount_space: (r) => `o valor "${r.text}" tem um espaço fora do lugar`,
  amount_mark_twice: (r) => `valor "${r.text}": "${r.mark}" aparece mais de uma vez`,
  amount_misplaced_group: (r) => `valor "${r.text}": separador de milhar "${r.mark}" fora do lugar`,
  amount_digit_before_mark: (r) => `valor "${r.text}": falta um dígito antes de "${r.mark}" (escreva 0${r.mark}${r.fraction})`,
  amount_ambiguous_mark: (r) =>
    `valor "${r.text}": ambíguo: "${r.mark}" separa milhares ou decimais? escreva ${r.whole}${r.fraction},00 ou use duas casas decimais`,
  amount_no_decimals: (r) => `valor "${r.text}": nenhum dígito depois da marca decimal`,
  amount_too_many_decimals: (r) => `valor "${r.text}": mais de duas casas decimais`,
  amount_zero: () => 'o valor deve ser maior que zero',
  amount_too_large: (r) => `o valor "${r.text}" é grande demais`,

  cpf_empty: () => 'o CPF está vazio',
  cpf_characters: () => 'o CPF só pode ter dígitos, pontos e um hífen',
  cpf_length: (r) => `o CPF deve ter 11 dígitos, tem ${r.length}${zerosLostPt(r.zerosLost)}`,
  cpf_all_equal: () => 'CPF com todos os dígitos iguais não é válido',
  cpf_check_digits: (r) => `os dígitos verificadores do CPF não conferem (esperado ${r.expected})`,
  cnpj_empty: () => 'o CNPJ está vazio',
  cnpj_characters: () => 'o CNPJ só pode ter dígitos, letras A-Z, pontos, uma barra e um hífen',
  cnpj_length: (r) => `o CNPJ deve ter 14 caracteres, tem ${r.length}${zerosLostPt(r.zerosLost)}`,
  cnpj_digits_at_end: () => 'os dígitos verificadores do CNPJ (os dois últimos) devem ser dígitos',
  cnpj_all_equal: () => 'CNPJ com todos os dígitos iguais não é válido',
  cnpj_check_digits: (r) => `os dígitos verificadores do CNPJ não conferem (esperado ${r.expected})`,
  document_empty: () => 'o documento está vazio',
  document_length: (r) => `um documento é um CPF (11 dígitos) ou um CNPJ (14 caracteres), tem ${r.length} caracteres`,

  phone_empty: () => 'o celular está vazio',
  phone_characters: () => 'o celular só pode ter dígitos, +, espaços, hífens e parênteses',
  phone_foreign: () => 'só celulares do Brasil (+55) são aceitos',
  phone_length: (r) => `o celular deve ter DDD e 9 dígitos, tem ${r.digits} dígitos`,
  phone_area_code: (r) => `o DDD ${r.areaCode} não existe`,
  phone_landline: () => 'telefone fixo não é chave Pix',
  phone_eight_digits: () => 'celulares têm 9 dígitos depois do DDD (acrescente o 9 inicial)',
  phone_not_mobile: () => 'celulares começam com 9 depois do DDD',

  email_empty: () => 'o e-mail está vazio',
  email_length: (r) => `o e-mail tem ${r.length} caracteres, mais de ${r.max}`,
  email_no_at: () => 'o e-mail precisa de um @',
  email_two_ats: () => 'o e-mail tem mais de um @',
  email_no_local: () => 'o e-mail não tem nada antes do @',
  email_quoted: () => 'e-mails entre aspas não são chaves Pix',
  email_local_character: (r) => `o e-mail tem um caractere não aceito antes do @: "${r.character}"`,
  email_no_domain: () => 'o e-mail não tem domínio depois do @',
  email_empty_label: (r) => `o domínio "${r.domain}" do e-mail tem uma parte vazia`,
  email_long_label: (r) => `a parte "${r.start}…" do domínio do e-mail tem mais de 63 caracteres`,
  email_label_hyphen: (r) => `a parte "${r.label}" do domínio do e-mail começa ou termina com "-"`,
  email_label_characters: (r) => `a parte "${r.label}" do domínio do e-mail tem caracteres além de a-z, 0-9 e "-"`,

  evp_shape: () => 'chaves aleatórias são UUIDs como 123e4567-e89b-12d3-a456-426614174000',
  key_empty: () => 'a chave Pix está vazia',
  key_unknown: () => 'não é uma chave Pix: esperado CPF, CNPJ, celular, e-mail ou chave aleatória',
  key_neither: (r) => `nem CPF (${ptBR[r.cpf.code](r.cpf as never)}) nem celular (${ptBR[r.phone.code](r.phone as never)})`,
  key_invalid_as: (r) =>
    `${{ cpf: 'CPF inválido', cnpj: 'CNPJ inválido', phone: 'celular inválido', email: 'e-mail inválido', evp: 'chave aleatória inválida' }[r.type]}: ${ptBR[r.reason.code](r.reason as never)}`,
};

/** The sentences of the validators' reasons per language. */
export const VALIDATION_SENTENCES: Readonly<Record<Locale, Sentences>> = { en, 'pt-BR': ptBR };

/** A validator's reason as a sentence in `locale` (English for `--json`). */
export function sayValidation(reason: ValidationReason, locale: Locale): string {
  return VALIDATION_SENTENCES[locale][reason.code](reason as never);
}

/** The kinds of Pix key for people (summaries, tables); English keeps the type's own word, as `--json` has it. */
export const KEY_TYPE_WORDS: Readonly<Record<Locale, Readonly<Record<DestinationType, string>>>> = {
  en: { cpf: 'cpf', cnpj: 'cnpj', phone: 'phone', email: 'email', evp: 'evp', account: 'account data' },
  'pt-BR': { cpf: 'CPF', cnpj: 'CNPJ', phone: 'celular', email: 'e-mail', evp: 'chave aleatória', account: 'dados bancários' },
};

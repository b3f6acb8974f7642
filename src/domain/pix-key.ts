import { normalizeCnpj } from './cnpj.js';
import { normalizeCpf } from './cpf.js';
import { normalizeEmail } from './email.js';
import { isUuid } from './uuid.js';
import { normalizePhone } from './phone.js';
import type { Locale } from '../words/locale.js';
import { fail, ok, type Result } from './result.js';
import { VALIDATION_WORDS, type ValidationWords } from './validation-words.js';

/** The five kinds of Pix key in the DICT; `evp` is the random key (a UUID). */
export type PixKeyType = 'cpf' | 'cnpj' | 'phone' | 'email' | 'evp';

export const PIX_KEY_TYPES: readonly PixKeyType[] = Object.freeze(['cpf', 'cnpj', 'phone', 'email', 'evp'] as const);

/** What paybatch can tell about a Pix key offline, before any lookup. */
export interface PixKeyCheck {
  /** The text as given. */
  input: string;
  valid: boolean;
  /** The type given, or the type detected; null when the text does not look like any key. */
  type: PixKeyType | null;
  /** The key in the DICT's canonical form when valid: digits, "+55…", lower-case e-mail or UUID. */
  normalized: string | null;
  /** Other types the same text is also valid as (an 11-digit CPF that is also a mobile number). */
  ambiguousWith: PixKeyType[];
  /** A short human reason when not valid. */
  error: string | null;
}

const NORMALIZERS: Record<PixKeyType, (input: string, locale: Locale) => Result<string>> = {
  cpf: normalizeCpf,
  cnpj: normalizeCnpj,
  phone: normalizePhone,
  email: normalizeEmail,
  evp: normalizeEvp,
};

/**
 * Checks a Pix key offline. With `type`, validates it as that type only. Without, detects the type:
 * "@" → e-mail; UUID 8-4-4-4-12 hex → evp; "+", "00" or "(" prefix → phone (a "00"-prefixed text that is a valid
 * CPF or CNPJ stays one); 11 digits → CPF when the check digits pass (ambiguousWith ["phone"] when they are also a
 * mobile number), otherwise phone; 14 characters once ". / -" are removed → CNPJ; 10, 12 or 13 digits → phone.
 * The error is in `locale`. Never throws.
 */
export function checkPixKey(input: string, type?: PixKeyType, locale: Locale = 'en'): PixKeyCheck {
  const w = VALIDATION_WORDS[locale];
  const text = input.trim();
  if (text === '') return invalid(input, w.keyEmpty);
  if (type !== undefined) return fromResult(input, type, NORMALIZERS[type](text, locale), w);

  if (text.includes('@')) return fromResult(input, 'email', normalizeEmail(text, locale), w);
  if (isUuid(text)) return fromResult(input, 'evp', normalizeEvp(text, locale), w);

  const compact = text.replace(/[\s\u00a0.\/\-()]/g, '');
  if (text.startsWith('+') || text.startsWith('(')) return fromResult(input, 'phone', normalizePhone(text, locale), w);
  if (text.startsWith('00')) {
    // "00" is also how many CPFs and CNPJs begin; only a valid document escapes the international prefix.
    const cpf = compact.length === 11 ? normalizeCpf(compact, locale) : null;
    if (cpf?.ok) return fromResult(input, 'cpf', cpf, w);
    const cnpj = compact.length === 14 ? normalizeCnpj(compact, locale) : null;
    if (cnpj?.ok) return fromResult(input, 'cnpj', cnpj, w);
    return fromResult(input, 'phone', normalizePhone(text, locale), w);
  }

  if (/^\d{11}$/.test(compact)) return checkElevenDigits(input, text, compact, locale);
  if (/^[0-9A-Za-z]{14}$/.test(compact)) return fromResult(input, 'cnpj', normalizeCnpj(compact, locale), w);
  if (/^\d{10}$|^\d{12,13}$/.test(compact)) return fromResult(input, 'phone', normalizePhone(text, locale), w);
  return invalid(input, w.keyUnknown);
}

function checkElevenDigits(input: string, text: string, digits: string, locale: Locale): PixKeyCheck {
  const w = VALIDATION_WORDS[locale];
  const cpf = normalizeCpf(digits, locale);
  const phone = normalizePhone(digits, locale);
  if (cpf.ok) return { ...fromResult(input, 'cpf', cpf, w), ambiguousWith: phone.ok ? ['phone'] : [] };
  if (phone.ok) return fromResult(input, 'phone', phone, w);
  // A CPF mask (dots) says what was meant; bare digits could have been either.
  if (text.includes('.')) return fromResult(input, 'cpf', cpf, w);
  return invalid(input, w.keyNeither(cpf.error, phone.error));
}

/**
 * Reads a key type word from a sheet or a flag, ignoring case, accents, spaces, dashes and underscores:
 * cpf; cnpj; telefone, celular, phone, fone → phone; email, e-mail → email; aleatória, chave aleatória, evp,
 * random → evp. Returns null for anything else.
 */
export function parsePixKeyType(word: string): PixKeyType | null {
  const key = word
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[\s\u00a0_-]/g, '');
  return TYPE_WORDS[key] ?? null;
}

const TYPE_WORDS: Readonly<Record<string, PixKeyType>> = {
  cpf: 'cpf',
  cnpj: 'cnpj',
  telefone: 'phone',
  celular: 'phone',
  phone: 'phone',
  fone: 'phone',
  email: 'email',
  aleatoria: 'evp',
  chavealeatoria: 'evp',
  evp: 'evp',
  random: 'evp',
};

function normalizeEvp(input: string, locale: Locale): Result<string> {
  const text = input.trim();
  if (!isUuid(text)) return fail(VALIDATION_WORDS[locale].evpShape);
  return ok(text.toLowerCase());
}

function fromResult(input: string, type: PixKeyType, result: Result<string>, w: ValidationWords): PixKeyCheck {
  return result.ok
    ? { input, valid: true, type, normalized: result.value, ambiguousWith: [], error: null }
    : invalid(input, `${w.keyInvalidAs[type]}: ${result.error}`);
}

// The JSON contract of `keys check`: type and normalized are null when the key is invalid; the error names what was tried.
function invalid(input: string, error: string): PixKeyCheck {
  return { input, valid: false, type: null, normalized: null, ambiguousWith: [], error };
}

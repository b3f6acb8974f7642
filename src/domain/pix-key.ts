import { normalizeCnpj } from './cnpj.js';
import { normalizeCpf } from './cpf.js';
import { normalizeEmail } from './email.js';
import { isUuid } from './uuid.js';
import { normalizePhone } from './phone.js';
import { fail, ok, type Result } from './result.js';
import type { EvpReason, KeyReason, KeyTypeReason } from './validation-reason.js';

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
  /** Why not, when not valid (put into words at the edge: src/words/validation.ts). */
  reason: KeyReason | null;
}

const NORMALIZERS: Record<PixKeyType, (input: string) => Result<string, KeyTypeReason>> = {
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
 * Never throws.
 */
export function checkPixKey(input: string, type?: PixKeyType): PixKeyCheck {
  const text = input.trim();
  if (text === '') return invalid(input, { code: 'key_empty' });
  if (type !== undefined) return fromResult(input, type, NORMALIZERS[type](text));

  if (text.includes('@')) return fromResult(input, 'email', normalizeEmail(text));
  if (isUuid(text)) return fromResult(input, 'evp', normalizeEvp(text));

  const compact = text.replace(/[\s\u00a0.\/\-()]/g, '');
  if (text.startsWith('+') || text.startsWith('(')) return fromResult(input, 'phone', normalizePhone(text));
  if (text.startsWith('00')) {
    // "00" is also how many CPFs and CNPJs begin; only a valid document escapes the international prefix.
    const cpf = compact.length === 11 ? normalizeCpf(compact) : null;
    if (cpf?.ok) return fromResult(input, 'cpf', cpf);
    const cnpj = compact.length === 14 ? normalizeCnpj(compact) : null;
    if (cnpj?.ok) return fromResult(input, 'cnpj', cnpj);
    return fromResult(input, 'phone', normalizePhone(text));
  }

  if (/^\d{11}$/.test(compact)) return checkElevenDigits(input, text, compact);
  if (/^[0-9A-Za-z]{14}$/.test(compact)) return fromResult(input, 'cnpj', normalizeCnpj(compact));
  if (/^\d{10}$|^\d{12,13}$/.test(compact)) return fromResult(input, 'phone', normalizePhone(text));
  return invalid(input, { code: 'key_unknown' });
}

function checkElevenDigits(input: string, text: string, digits: string): PixKeyCheck {
  const cpf = normalizeCpf(digits);
  const phone = normalizePhone(digits);
  if (cpf.ok) return { ...fromResult(input, 'cpf', cpf), ambiguousWith: phone.ok ? ['phone'] : [] };
  if (phone.ok) return fromResult(input, 'phone', phone);
  // A CPF mask (dots) says what was meant; bare digits could have been either.
  if (text.includes('.')) return fromResult(input, 'cpf', cpf);
  return invalid(input, { code: 'key_neither', cpf: cpf.error, phone: phone.error });
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

function normalizeEvp(input: string): Result<string, EvpReason> {
  const text = input.trim();
  if (!isUuid(text)) return fail({ code: 'evp_shape' });
  return ok(text.toLowerCase());
}

function fromResult(input: string, type: PixKeyType, result: Result<string, KeyTypeReason>): PixKeyCheck {
  return result.ok
    ? { input, valid: true, type, normalized: result.value, ambiguousWith: [], reason: null }
    : invalid(input, { code: 'key_invalid_as', type, reason: result.error });
}

// The JSON contract of `keys check`: type and normalized are null when the key is invalid; the reason names what was tried.
function invalid(input: string, reason: KeyReason): PixKeyCheck {
  return { input, valid: false, type: null, normalized: null, ambiguousWith: [], reason };
}

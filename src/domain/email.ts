import { fail, ok, type Result } from './result.js';
import type { EmailReason } from './validation-reason.js';

/**
 * The DICT rule for e-mail keys (the Central Bank's DICT API, key type EMAIL): at most 77 characters, lower case,
 * matching ^[a-z0-9.!#$'*+\/=?^_`{|}~-]+@[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$
 * Neither "&" nor "%" is in it: DICT API changelog 2.6.0 (2025-09-27) removed "&" from the e-mail key's characters
 * (https://www.bcb.gov.br/content/estabilidadefinanceira/pix/changelog.html, as quoted by brazilian-utils), and
 * "%" never was one. The checks below are that pattern taken apart, so an error can say which part is wrong.
 */
const MAX_LENGTH = 77;
const LOCAL_PART = /^[a-z0-9.!#$'*+/=?^_`{|}~-]+$/;
const DOMAIN_LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/**
 * Normalizes an e-mail Pix key: trimmed and lower-cased, then checked against the DICT rule — at most 77 characters,
 * one "@", a local part of a-z, 0-9 and . ! # $ ' * + / = ? ^ _ ` { | } ~ - (no "&", no "%"), and a domain of one
 * or more labels (a dot is not required: `a@localhost` is a key) of 1–63 characters from a-z, 0-9 and "-", not
 * starting or ending with "-".
 */
export function normalizeEmail(input: string): Result<string, EmailReason> {
  const email = input.trim().toLowerCase();
  if (email === '') return fail({ code: 'email_empty' });
  if (email.length > MAX_LENGTH) return fail({ code: 'email_length', length: email.length, max: MAX_LENGTH });
  const at = email.indexOf('@');
  if (at < 0) return fail({ code: 'email_no_at' });
  if (email.indexOf('@', at + 1) >= 0) return fail({ code: 'email_two_ats' });
  const local = email.slice(0, at);
  const domain = email.slice(at + 1);

  if (local === '') return fail({ code: 'email_no_local' });
  if (local.includes('"')) return fail({ code: 'email_quoted' });
  if (!LOCAL_PART.test(local)) {
    const bad = [...local].find((c) => !LOCAL_PART.test(c));
    return fail({ code: 'email_local_character', character: bad ?? '' });
  }

  if (domain === '') return fail({ code: 'email_no_domain' });
  for (const label of domain.split('.')) {
    if (label.length === 0) return fail({ code: 'email_empty_label', domain });
    if (label.length > 63) return fail({ code: 'email_long_label', start: label.slice(0, 10) });
    if (!DOMAIN_LABEL.test(label)) {
      return /^[a-z0-9-]+$/.test(label)
        ? fail({ code: 'email_label_hyphen', label })
        : fail({ code: 'email_label_characters', label });
    }
  }
  return ok(email);
}

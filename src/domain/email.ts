import { fail, ok, type Result } from './result.js';

/**
 * The DICT rule for e-mail keys (the Central Bank's DICT API, key type EMAIL): at most 77 characters, lower case,
 * matching ^[a-z0-9.!#$&'*+\/=?^_`{|}~-]+@[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$
 * The checks below are that pattern taken apart, so an error can say which part is wrong.
 */
const MAX_LENGTH = 77;
const LOCAL_PART = /^[a-z0-9.!#$&'*+/=?^_`{|}~-]+$/;
const DOMAIN_LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/**
 * Normalizes an e-mail Pix key: trimmed and lower-cased, then checked against the DICT rule — at most 77 characters,
 * one "@", a local part of a-z, 0-9 and . ! # $ & ' * + / = ? ^ _ ` { | } ~ -, and a domain of one or more labels
 * (a dot is not required: `a@localhost` is a key) of 1–63 characters from a-z, 0-9 and "-", not starting or
 * ending with "-".
 */
export function normalizeEmail(input: string): Result<string> {
  const email = input.trim().toLowerCase();
  if (email === '') return fail('e-mail is empty');
  if (email.length > MAX_LENGTH) return fail(`e-mail has ${email.length} characters, more than ${MAX_LENGTH}`);
  const at = email.indexOf('@');
  if (at < 0) return fail('e-mail needs an @');
  if (email.indexOf('@', at + 1) >= 0) return fail('e-mail has more than one @');
  const local = email.slice(0, at);
  const domain = email.slice(at + 1);

  if (local === '') return fail('e-mail has nothing before the @');
  if (local.includes('"')) return fail('quoted e-mail addresses are not Pix keys');
  if (!LOCAL_PART.test(local)) {
    const bad = [...local].find((c) => !LOCAL_PART.test(c));
    return fail(`e-mail has a character not accepted before the @: "${bad}"`);
  }

  if (domain === '') return fail('e-mail has no domain after the @');
  for (const label of domain.split('.')) {
    if (label.length === 0) return fail(`e-mail domain "${domain}" has an empty part`);
    if (label.length > 63) return fail(`e-mail domain part "${label.slice(0, 10)}…" is longer than 63 characters`);
    if (!DOMAIN_LABEL.test(label)) {
      return /^[a-z0-9-]+$/.test(label)
        ? fail(`e-mail domain part "${label}" starts or ends with "-"`)
        : fail(`e-mail domain part "${label}" has characters other than a-z, 0-9 and "-"`);
    }
  }
  return ok(email);
}

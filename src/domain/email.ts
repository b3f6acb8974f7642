import { fail, ok, type Result } from './result.js';

const MAX_LENGTH = 77;
// The local-part characters of the DICT e-mail key pattern; it has no "&", no "%", no quotes and no spaces.
const LOCAL_PART = /^[a-z0-9.!#$'*+/=?^_`{|}~-]+$/;
const DOMAIN_LABEL = /^[a-z0-9](?:[a-z0-9_-]{0,61}[a-z0-9])?$/;

/**
 * Normalizes an e-mail Pix key: trimmed and lower-cased, then checked against the DICT rules — at most 77
 * characters, one "@", a local part without "&", "%", quotes or spaces, and an ASCII domain with at least one dot
 * whose labels have 1–63 characters and do not start or end with "-" or "_".
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
  if (/[&%]/.test(local)) return fail('"&" and "%" are not accepted in Pix e-mail keys');
  if (!LOCAL_PART.test(local)) return fail(`e-mail has a character not accepted before the @`);

  if (domain === '') return fail('e-mail has no domain after the @');
  const labels = domain.split('.');
  if (labels.length < 2) return fail(`e-mail domain "${domain}" needs at least one dot`);
  for (const label of labels) {
    if (label.length === 0) return fail(`e-mail domain "${domain}" has an empty part`);
    if (label.length > 63) return fail(`e-mail domain part "${label.slice(0, 10)}…" is longer than 63 characters`);
    if (!DOMAIN_LABEL.test(label)) {
      return /^[a-z0-9_-]+$/.test(label)
        ? fail(`e-mail domain part "${label}" starts or ends with "-" or "_"`)
        : fail(`e-mail domain part "${label}" has characters other than a-z, 0-9, "-" and "_"`);
    }
  }
  return ok(email);
}

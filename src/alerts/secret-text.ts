/** Shorter fragments are not treated as secrets: they would garble every message they happen to occur in. */
const MIN_SECRET_LENGTH = 6;
const MASK = '[redacted]';

/**
 * The fragments of a credential-bearing URL (a Slack or Teams webhook, an SMTP URL with user:pass) that must never
 * appear in a message: the URL as given and as normalised, user and password (raw and percent-decoded), the path,
 * its segments that hold digits, the query and its values, and the base64 forms an SMTP AUTH exchange puts on the wire.
 */
export function urlSecrets(raw: string): string[] {
  const out = [raw];
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return out;
  }
  out.push(url.href, url.pathname + url.search, url.pathname, url.search);
  // Tokens in paths (Slack's T…/B…/secret, a Teams flow's GUID) carry digits; words such as "services" do not.
  for (const segment of url.pathname.split('/')) if (/\d/.test(segment)) out.push(segment, safeDecode(segment));
  for (const [, value] of url.searchParams) out.push(value, encodeURIComponent(value));
  const user = safeDecode(url.username);
  const pass = safeDecode(url.password);
  out.push(url.username, url.password, user, pass);
  if (pass) {
    const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');
    out.push(b64(pass), b64(`\u0000${user}\u0000${pass}`), b64(`${user}\u0000${user}\u0000${pass}`));
    if (user) out.push(b64(user));
  }
  return out;
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** `text` with every secret (longest first, so a secret containing another goes whole) replaced by "[redacted]". */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  const usable = [...new Set(secrets)].filter((s) => s.length >= MIN_SECRET_LENGTH).sort((a, b) => b.length - a.length);
  let out = text;
  for (const s of usable) if (out.includes(s)) out = out.split(s).join(MASK);
  return out;
}

/** A short one-line excerpt of a server's or program's words, for an error message. */
export function excerpt(text: string, max: number): string {
  const one = text.replace(/\s+/g, ' ').trim();
  return one.length <= max ? one : `${one.slice(0, max)}…`;
}

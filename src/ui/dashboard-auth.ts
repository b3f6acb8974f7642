import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * The dashboard's keys, as Jupyter does it: a random token printed at start is shown once in a URL; its first use
 * sets a session cookie (HttpOnly, SameSite=Strict), signed with a key that never leaves the process. Each session
 * has a CSRF token (an HMAC of its id) that the page sends back with every POST. Nothing is stored: a restart
 * forgets every session, as it makes a new token.
 */
export interface DashboardKeys {
  /** Whether `given` is the token printed at start (constant time). */
  tokenMatches(given: string): boolean;
  /** A new session: the cookie value to set. */
  newSession(): string;
  /** The session id of a cookie value, when the cookie is one this process signed; null otherwise. */
  sessionOf(cookie: string | undefined): string | null;
  /** The CSRF token of a session. */
  csrfOf(session: string): string;
  /** Whether `given` is the CSRF token of `session` (constant time). */
  csrfMatches(session: string, given: string | undefined): boolean;
}

export function newDashboardToken(): string {
  return randomBytes(32).toString('base64url');
}

export function dashboardKeys(token: string): DashboardKeys {
  const key = randomBytes(32);
  const mac = (text: string) => createHmac('sha256', key).update(text).digest('base64url');
  const tokenDigest = sha256(token);
  return {
    tokenMatches: (given) => timingSafeEqual(sha256(given), tokenDigest),
    newSession: () => {
      const id = randomBytes(18).toString('base64url');
      return `${id}.${mac(`session:${id}`)}`;
    },
    sessionOf: (cookie) => {
      const [id, signature, extra] = (cookie ?? '').split('.');
      if (!id || !signature || extra !== undefined) return null;
      return sameText(signature, mac(`session:${id}`)) ? id : null;
    },
    csrfOf: (session) => mac(`csrf:${session}`),
    csrfMatches: (session, given) => given !== undefined && sameText(given, mac(`csrf:${session}`)),
  };
}

/** Compares digests, so that neither the length nor the content of `given` shows in the time taken. */
function sameText(given: string, expected: string): boolean {
  return timingSafeEqual(sha256(given), sha256(expected));
}

const sha256 = (text: string) => createHash('sha256').update(text).digest();

/** The value of one cookie in a Cookie header. */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

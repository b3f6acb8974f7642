/** Shortest text treated as a secret; shorter values would garble every message they happen to occur in. */
const MIN_SECRET_LENGTH = 4;
/** Access tokens remembered after they are replaced: a late error body may still echo an old one. */
const MAX_REMEMBERED = 16;
const MASK = '[redacted]';

/**
 * Removes known secrets (API key, client secret, access tokens, webhook secrets, and the encodings of them that go in
 * headers) from text and from JSON-like values before they reach an error or an event. A defence in depth: the
 * client never puts a secret in a message on purpose, but a provider or gateway may echo a header in its error body.
 */
export class Redactor {
  #fixed: string[] = [];
  #tokens: string[] = [];
  /** All secrets, longest first, so a secret that contains another is masked whole. */
  #all: string[] = [];

  /** Registers a long-lived secret (API key, client secret, webhook secret); values under 4 characters are ignored. */
  add(secret: string): void {
    if (secret.length < MIN_SECRET_LENGTH || this.#fixed.includes(secret)) return;
    this.#fixed.push(secret);
    this.#rebuild();
  }

  /** Registers an access token; the last 16 are remembered. */
  addToken(token: string): void {
    if (token.length < MIN_SECRET_LENGTH || this.#tokens.includes(token)) return;
    this.#tokens.push(token);
    if (this.#tokens.length > MAX_REMEMBERED) this.#tokens.shift();
    this.#rebuild();
  }

  #rebuild(): void {
    this.#all = [...this.#fixed, ...this.#tokens].sort((a, b) => b.length - a.length);
  }

  /** The text with every registered secret replaced by `[redacted]`. */
  text(s: string): string {
    let out = s;
    for (const secret of this.#all) if (out.includes(secret)) out = out.split(secret).join(MASK);
    return out;
  }

  /** A deep copy of a JSON-like value with secrets masked in every string (keys included). */
  value(v: unknown, depth = 0): unknown {
    if (typeof v === 'string') return this.text(v);
    if (v === null || typeof v !== 'object' || depth > 32) return v;
    if (Array.isArray(v)) return v.map((x) => this.value(x, depth + 1));
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) out[this.text(k)] = this.value(x, depth + 1);
    return out;
  }
}

// Apart from identifier.ts, which derives identifiers with node:crypto: checking a key's shape loads no crypto.

/** True for any 8-4-4-4-12 hexadecimal UUID, in either case. */
export function isUuid(s: string): boolean {
  if (s.length !== 36) return false;
  // Character by character: a case-insensitive regular expression cost a microsecond a key.
  for (let i = 0; i < 36; i++) {
    const c = s.charCodeAt(i);
    if (i === 8 || i === 13 || i === 18 || i === 23) {
      if (c !== 0x2d) return false;
    } else if (!((c >= 0x30 && c <= 0x39) || ((c | 0x20) >= 0x61 && (c | 0x20) <= 0x66))) {
      return false;
    }
  }
  return true;
}

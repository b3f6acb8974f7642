/** Folds a person's or company's name for comparison: no accents, lower case, words only. */
function words(name: string): string[] {
  return name
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 1 && !['da', 'de', 'do', 'das', 'dos', 'e', 'ltda', 'me', 'sa', 'eireli'].includes(w));
}

/**
 * Whether the name a sheet gives and the name the provider shows plausibly belong to the same payee: same first
 * word and every other word of the shorter one present in the longer (providers abbreviate and truncate names).
 */
export function namesLikelyMatch(sheetName: string, providerName: string): boolean {
  const a = words(sheetName);
  const b = words(providerName);
  if (a.length === 0 || b.length === 0) return true;
  if (a[0] !== b[0]) return false;
  const [shorter, longer] = a.length <= b.length ? [a, b] : [b, a];
  return shorter.every((w) => longer.some((l) => l === w || (w.length <= 2 ? l.startsWith(w) : false)));
}

import { fail, ok, type Result } from './result.js';

const UNIT_SECONDS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86_400 };

/** Parses "90s", "30m", "2h", "3d" or a bare number of seconds into whole seconds. */
export function parseDuration(text: string): Result<number> {
  const m = /^\s*(\d+)\s*([smhd]?)\s*$/i.exec(text);
  if (!m) return fail(`"${text}" is not a duration (use e.g. 90s, 30m, 2h, 3d)`);
  const seconds = Number(m[1]) * UNIT_SECONDS[(m[2] || 's').toLowerCase()]!;
  return seconds > 0 ? ok(seconds) : fail('a duration must be more than zero');
}

/** 5400 -> "1h30m"; the inverse of parseDuration for display. */
export function formatDuration(seconds: number): string {
  const parts: string[] = [];
  let rest = seconds;
  for (const [unit, size] of [['d', 86_400], ['h', 3600], ['m', 60], ['s', 1]] as const) {
    if (rest >= size) {
      parts.push(`${Math.floor(rest / size)}${unit}`);
      rest %= size;
    }
  }
  return parts.join('') || '0s';
}

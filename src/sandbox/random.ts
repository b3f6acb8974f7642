import { createHash } from 'node:crypto';

/**
 * Seeded, keyed randomness: every draw is a hash of the seed and of what it is for ("outcome", the account,
 * the identifier…), so the same seed gives the same answers whatever order the work happens in.
 */
export class Random {
  constructor(readonly seed: number) {}

  /** A number in [0, 1) for these parts. */
  unit(...parts: readonly (string | number)[]): number {
    return this.digest(parts).readUIntBE(0, 6) / 2 ** 48;
  }

  /** True with probability `rate` for these parts. */
  chance(rate: number, ...parts: readonly (string | number)[]): boolean {
    return rate > 0 && this.unit(...parts) < rate;
  }

  /** An integer in [min, max] for these parts. */
  int(min: number, max: number, ...parts: readonly (string | number)[]): number {
    return min + Math.floor(this.unit(...parts) * (max - min + 1));
  }

  /** One element of a non-empty list for these parts. */
  pick<T>(list: readonly T[], ...parts: readonly (string | number)[]): T {
    const value = list[Math.floor(this.unit(...parts) * list.length)];
    if (value === undefined) throw new RangeError('pick from an empty list');
    return value;
  }

  /** A version-4-shaped UUID for these parts. */
  uuid(...parts: readonly (string | number)[]): string {
    return uuidShaped(this.digest(parts).toString('hex'));
  }

  private digest(parts: readonly (string | number)[]): Buffer {
    return createHash('sha256').update(`${this.seed}\u0000${parts.join('\u0000')}`).digest();
  }
}

/** Deterministic data about a value that does not depend on any seed (the key directory, the bill registry). */
export function hashDigits(text: string, length: number): string {
  return digitsOf(createHash('sha256').update(text).digest(), length);
}

/** A version-4-shaped UUID from a text, independent of any seed: another id tied to an id that is already unique. */
export function hashUuid(text: string): string {
  return uuidShaped(createHash('sha256').update(text).digest('hex'));
}

/** A number in [0, 1) from a text, independent of any seed. */
export function hashUnit(text: string): number {
  return createHash('sha256').update(text).digest().readUIntBE(0, 6) / 2 ** 48;
}

function uuidShaped(hex: string): string {
  const variant = ((parseInt(hex.charAt(16), 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

function digitsOf(bytes: Buffer, length: number): string {
  if (length > bytes.length) throw new RangeError(`at most ${bytes.length} digits`);
  let out = '';
  for (let i = 0; i < length; i++) out += String((bytes[i] ?? 0) % 10);
  return out;
}

/** A random seed for a run that was given none (printed, so the run can be replayed). */
export function freshSeed(): number {
  return Math.floor(Math.random() * 2 ** 31);
}

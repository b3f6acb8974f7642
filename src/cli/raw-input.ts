import { UsageError } from '../errors.js';
import type { RawInput } from './command.js';

/** A switch (`--yes`): true only when given. */
export function flag(raw: RawInput, name: string): boolean {
  return raw.flags[name] === true;
}

/** A flag's text, or undefined when it was not given. */
export function optionalText(raw: RawInput, name: string): string | undefined {
  const v = raw.flags[name];
  if (v === undefined) return undefined;
  if (typeof v !== 'string') throw new UsageError(`--${kebab(name)} takes a value.`);
  return v;
}

/** A flag that has a default (commander fills it in), so always a text. */
export function text(raw: RawInput, name: string, fallback: string): string {
  return optionalText(raw, name) ?? fallback;
}

/** A number commander already checked (argParser), or undefined. */
export function optionalNumber(raw: RawInput, name: string): number | undefined {
  const v = raw.flags[name];
  if (v === undefined) return undefined;
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : Number.NaN;
  if (!Number.isFinite(n)) throw new UsageError(`--${kebab(name)} must be a number.`);
  return n;
}

/** A text that must be one of `choices` (commander's `.choices()` checks it first for the help). */
export function optionalChoice<T extends string>(raw: RawInput, name: string, choices: readonly T[]): T | undefined {
  const v = optionalText(raw, name);
  if (v !== undefined && !(choices as readonly string[]).includes(v)) throw new UsageError(`--${kebab(name)} must be one of ${choices.join(', ')}.`);
  return v as T | undefined;
}

/** A required positional argument (commander has already refused a missing one). */
export function arg(raw: RawInput, index: number, name: string): string {
  const v = raw.args[index];
  if (v === undefined) throw new UsageError(`missing required argument '${name}'`);
  return v;
}

/** The flag's spelling on the command line: `publicUrl` → `public-url`. */
export function kebab(name: string): string {
  return name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}

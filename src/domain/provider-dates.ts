/**
 * Dates and date-times as providers write them (SPEC.md shows none of their formats; PROVIDERS.md, "Amounts and
 * dates"), read as São Paulo calendar dates and as instants. A value without a zone is São Paulo wall-clock time.
 */
import { saoPauloDate, saoPauloInstant } from './bank-calendar.js';

/** A value read: a calendar date, a São Paulo wall-clock date-time, or an instant (zone or Unix time given). */
type Reading =
  | { readonly kind: 'date'; readonly date: string }
  | { readonly kind: 'wall'; readonly date: string; readonly hour: number; readonly minute: number; readonly ms: number }
  | { readonly kind: 'instant'; readonly instant: Date };

// Years from 1000, so that every date is four digits and Date.UTC never reads a year as 19xx.
const YEAR = '(?<year>[1-9]\\d{3})';
const TIME = '(?<hour>\\d{2}):(?<minute>\\d{2})(?::(?<second>\\d{2})(?:[.,](?<fraction>\\d+))?)?';
const ISO = new RegExp(`^${YEAR}-(?<month>\\d{2})-(?<day>\\d{2})(?:[T ]${TIME}\\s*(?<zone>Z|[+-]\\d{2}(?::?\\d{2})?)?)?$`, 'i');
const BRAZILIAN = new RegExp(`^(?<day>\\d{2})/(?<month>\\d{2})/${YEAR}(?:\\s+${TIME})?$`);

/**
 * The calendar date (`YYYY-MM-DD`) a provider's value means, or null when it is none of the forms below or names a
 * day or time that does not exist (2026-02-30, 24:00). Forms: `YYYY-MM-DD`; ISO 8601 date-times with `T` or a space,
 * optional seconds and fraction, and an optional zone (`Z`, `±hh:mm`, `±hhmm`, `±hh`); `DD/MM/YYYY` with an optional
 * `HH:mm[:ss]`; Unix seconds (a whole number, or a string of 9–11 digits) and Unix milliseconds (13 digits).
 * A value without a zone gives the date as written (São Paulo is implied); one with a zone or a Unix time gives
 * the São Paulo date of that instant.
 */
export function providerDate(value: unknown): string | null {
  const reading = read(value);
  if (reading === null) return null;
  if (reading.kind !== 'instant') return reading.date;
  const date = saoPauloDate(reading.instant);
  return /^\d{4}-\d{2}-\d{2}$/.test(date) ? date : null;
}

/**
 * The instant a provider's date-time means, or null for a date alone or for anything `providerDate` refuses.
 * A date-time without a zone is São Paulo wall-clock time (with the zone database, so historic summer time counts);
 * fractions of a second beyond milliseconds are dropped.
 */
export function providerInstant(value: unknown): Date | null {
  const reading = read(value);
  if (reading === null || reading.kind === 'date') return null;
  if (reading.kind === 'instant') return reading.instant;
  return new Date(saoPauloInstant(reading.date, reading.hour, reading.minute).getTime() + reading.ms);
}

function read(value: unknown): Reading | null {
  if (typeof value === 'number') return Number.isSafeInteger(value) && value >= 0 ? unixTime(String(value)) : null;
  if (typeof value !== 'string') return null;
  const text = value.trim();
  if (/^\d+$/.test(text)) return unixTime(text);
  const groups = (ISO.exec(text) ?? BRAZILIAN.exec(text))?.groups;
  return groups === undefined ? null : fromParts(groups);
}

/** Unix seconds (9–11 digits: 1973 to 5138) or milliseconds (13 digits); other lengths are ambiguous. */
function unixTime(digits: string): Reading | null {
  const n = Number(digits);
  if (digits.length >= 9 && digits.length <= 11) return { kind: 'instant', instant: new Date(n * 1000) };
  if (digits.length === 13) return { kind: 'instant', instant: new Date(n) };
  return null;
}

/** The reading of the named groups of ISO or BRAZILIAN, or null when the day or the time does not exist. */
function fromParts({ year, month, day, hour, minute, second, fraction, zone }: Record<string, string | undefined>): Reading | null {
  const [y, mo, d] = [Number(year), Number(month), Number(day)];
  const probe = new Date(Date.UTC(y, mo - 1, d));
  if (probe.getUTCFullYear() !== y || probe.getUTCMonth() !== mo - 1 || probe.getUTCDate() !== d) return null;
  const date = `${year}-${month}-${day}`;
  if (hour === undefined) return { kind: 'date', date };
  const [h, mi, s] = [Number(hour), Number(minute), Number(second ?? '0')];
  if (h > 23 || mi > 59 || s > 59) return null;
  const ms = s * 1000 + Number((fraction ?? '').slice(0, 3).padEnd(3, '0'));
  if (zone === undefined) return { kind: 'wall', date, hour: h, minute: mi, ms };
  const offset = offsetMinutes(zone);
  if (offset === null) return null;
  return { kind: 'instant', instant: new Date(Date.UTC(y, mo - 1, d, h, mi) + ms - offset * 60_000) };
}

/** `Z` → 0; `-03:00`, `-0300`, `-03` → -180; null for hours above 23 or minutes above 59. */
function offsetMinutes(zone: string): number | null {
  if (zone.toUpperCase() === 'Z') return 0;
  const digits = zone.slice(1).replace(':', '');
  const [h, m] = [Number(digits.slice(0, 2)), Number(digits.slice(2) || '0')];
  if (h > 23 || m > 59) return null;
  return (zone.startsWith('-') ? -1 : 1) * (h * 60 + m);
}

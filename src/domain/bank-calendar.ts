/**
 * Brazilian national bank holidays, business days and the bill payment window.
 *
 * Dates are calendar days written `YYYY-MM-DD` (no time zone: a day in Brazil). Instants are `Date`s and are
 * converted through `America/Sao_Paulo` with the time zone database, never with a fixed offset: until 2019 Sao Paulo
 * had daylight saving time (UTC-2 in summer), and a decree may bring it back. The system's copy of the database is
 * read first (see sao-paulo-zone.ts); Intl answers what it cannot.
 *
 * The calendar is the one of CMN Resolution 4.880/2020 as published by FEBRABAN: weekends and national holidays
 * are not business days. Days with reduced hours at the branches (Ash Wednesday opens at noon; 31 December has
 * no service to the public) are business days here, as they are for compensation and digital channels.
 */

import { saoPauloZone } from './sao-paulo-zone.js';
import { tzifOffset } from './tzif.js';

const TIME_ZONE = 'America/Sao_Paulo';
const DAY_MS = 86_400_000;
/** Anonymous Gregorian computus is defined from the Gregorian reform on; Date handles years up to 9999 as text. */
const MIN_YEAR = 1583;
const MAX_YEAR = 9999;

export interface Holiday {
  /** `YYYY-MM-DD` */
  readonly date: string;
  readonly name: string;
}

// ---------------------------------------------------------------------------------------------------------------
// Calendar days as integers (days since 1970-01-01), so arithmetic never meets a time zone.

interface YearMonthDay {
  readonly year: number;
  readonly month: number;
  readonly day: number;
}

const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

function parseDate(date: string): YearMonthDay {
  const match = DATE_PATTERN.exec(date);
  if (match === null) throw new RangeError(`not a date (YYYY-MM-DD): ${JSON.stringify(date)}`);
  const year = Number(match[1]);
  const month = Number(match[2]);
  const day = Number(match[3]);
  const probe = new Date(Date.UTC(year, month - 1, day));
  // Date.UTC silently rolls 2025-02-30 over to March; a round trip catches it.
  if (probe.getUTCFullYear() !== year || probe.getUTCMonth() !== month - 1 || probe.getUTCDate() !== day) {
    throw new RangeError(`no such date: ${date}`);
  }
  return { year, month, day };
}

function dayNumber({ year, month, day }: YearMonthDay): number {
  const utc = new Date(0);
  // setUTCFullYear, because Date.UTC maps years 0–99 to 1900–1999.
  utc.setUTCFullYear(year, month - 1, day);
  return Math.floor(utc.getTime() / DAY_MS);
}

function fromDayNumber(n: number): string {
  const d = new Date(n * DAY_MS);
  return formatYmd(d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate());
}

function formatYmd(year: number, month: number, day: number): string {
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/** 0 = Sunday … 6 = Saturday. 1970-01-01 was a Thursday. */
function weekday(n: number): number {
  return (((n + 4) % 7) + 7) % 7;
}

function checkYear(year: number): void {
  if (!Number.isInteger(year) || year < MIN_YEAR || year > MAX_YEAR) {
    throw new RangeError(`year must be an integer from ${MIN_YEAR} to ${MAX_YEAR}: ${year}`);
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Holidays

/** Easter Sunday of a Gregorian year (anonymous Gregorian algorithm, Meeus/Jones/Butcher), as `YYYY-MM-DD`. */
export function easterSunday(year: number): string {
  checkYear(year);
  const a = year % 19;
  const b = Math.floor(year / 100);
  const c = year % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  const day = ((h + l - 7 * m + 114) % 31) + 1;
  return formatYmd(year, month, day);
}

/** Consciência Negra became a national holiday by Law 14.759 of 21 December 2023, first observed in 2024. */
const CONSCIENCIA_NEGRA_FROM = 2024;

const holidayCache = new Map<number, readonly Holiday[]>();
const holidaySetCache = new Map<number, ReadonlySet<string>>();

/**
 * The national bank holidays of a year, sorted by date, one entry per date (two holidays on one date share it,
 * names joined by " / "). Holidays on weekends are included.
 */
export function bankHolidays(year: number): Holiday[] {
  checkYear(year);
  let holidays = holidayCache.get(year);
  if (holidays === undefined) {
    holidays = computeHolidays(year);
    holidayCache.set(year, holidays);
  }
  return holidays.map((h) => ({ ...h }));
}

function computeHolidays(year: number): readonly Holiday[] {
  const easter = dayNumber(parseDate(easterSunday(year)));
  const fixed = (month: number, day: number, name: string): Holiday => ({ date: formatYmd(year, month, day), name });
  const fromEaster = (offset: number, name: string): Holiday => ({ date: fromDayNumber(easter + offset), name });
  const list: Holiday[] = [
    fixed(1, 1, 'Confraternização Universal'),
    fromEaster(-48, 'Carnaval (segunda-feira)'),
    fromEaster(-47, 'Carnaval (terça-feira)'),
    fromEaster(-2, 'Sexta-feira da Paixão'),
    fixed(4, 21, 'Tiradentes'),
    fixed(5, 1, 'Dia do Trabalho'),
    fromEaster(60, 'Corpus Christi'),
    fixed(9, 7, 'Independência do Brasil'),
    fixed(10, 12, 'Nossa Senhora Aparecida'),
    fixed(11, 2, 'Finados'),
    fixed(11, 15, 'Proclamação da República'),
    ...(year >= CONSCIENCIA_NEGRA_FROM ? [fixed(11, 20, 'Dia Nacional de Zumbi e da Consciência Negra')] : []),
    fixed(12, 25, 'Natal'),
  ];
  // Good Friday falls on Tiradentes when Easter is 23 April (2000, 2079, …): one entry per date, both names.
  const byDate = new Map<string, string>();
  for (const h of list) {
    const other = byDate.get(h.date);
    byDate.set(h.date, other === undefined ? h.name : `${other} / ${h.name}`);
  }
  return [...byDate]
    .map(([date, name]) => ({ date, name }))
    .sort((x, y) => (x.date < y.date ? -1 : x.date > y.date ? 1 : 0));
}

function holidaySet(year: number): ReadonlySet<string> {
  let set = holidaySetCache.get(year);
  if (set === undefined) {
    set = new Set(bankHolidays(year).map((h) => h.date));
    holidaySetCache.set(year, set);
  }
  return set;
}

function isBusinessDayNumber(n: number): boolean {
  const wd = weekday(n);
  if (wd === 0 || wd === 6) return false;
  const date = fromDayNumber(n);
  return !holidaySet(Number(date.slice(0, 4))).has(date);
}

// ---------------------------------------------------------------------------------------------------------------
// Business days

/** True for a weekday (Monday–Friday) that is not a national bank holiday. `date` is `YYYY-MM-DD`. */
export function isBusinessDay(date: string): boolean {
  const ymd = parseDate(date);
  checkYear(ymd.year);
  return isBusinessDayNumber(dayNumber(ymd));
}

/** The first business day strictly after `date` (`YYYY-MM-DD`). */
export function nextBusinessDay(date: string): string {
  const ymd = parseDate(date);
  checkYear(ymd.year);
  let n = dayNumber(ymd) + 1;
  while (!isBusinessDayNumber(n)) n += 1;
  return fromDayNumber(n);
}

/**
 * The `n`-th business day after `date` (`YYYY-MM-DD`), `n` a non-negative integer: Friday + 1 is Monday, and
 * Saturday + 1 is Monday too. `n = 0` gives `date` itself when it is a business day, else the next business day.
 */
export function addBusinessDays(date: string, n: number): string {
  if (!Number.isInteger(n) || n < 0) throw new RangeError(`n must be a non-negative integer: ${n}`);
  const ymd = parseDate(date);
  checkYear(ymd.year);
  let day = dayNumber(ymd);
  if (n === 0) {
    while (!isBusinessDayNumber(day)) day += 1;
    return fromDayNumber(day);
  }
  for (let remaining = n; remaining > 0; ) {
    day += 1;
    if (isBusinessDayNumber(day)) remaining -= 1;
  }
  return fromDayNumber(day);
}

// ---------------------------------------------------------------------------------------------------------------
// Sao Paulo wall clock

/** Made on first use, and only where the system's tz database cannot answer: the first Intl formatter of a process costs more than Node's own start. */
let wallClockFormat: Intl.DateTimeFormat | undefined;
const wallClockFormatter = (): Intl.DateTimeFormat =>
  (wallClockFormat ??= new Intl.DateTimeFormat('en-US', {
    timeZone: TIME_ZONE,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  }));

interface WallClock extends YearMonthDay {
  readonly hour: number;
  readonly minute: number;
  readonly second: number;
}

function wallClock(instant: Date): WallClock {
  const ms = instant.getTime();
  if (Number.isNaN(ms)) throw new RangeError('invalid Date');
  const zone = saoPauloZone();
  const offset = zone === undefined ? undefined : tzifOffset(zone, ms);
  if (offset !== undefined) {
    const local = new Date(ms + offset);
    return { year: local.getUTCFullYear(), month: local.getUTCMonth() + 1, day: local.getUTCDate(), hour: local.getUTCHours(), minute: local.getUTCMinutes(), second: local.getUTCSeconds() };
  }
  const parts: Record<string, number> = {};
  for (const part of wallClockFormatter().formatToParts(ms)) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  const get = (key: string): number => {
    const value = parts[key];
    if (value === undefined || Number.isNaN(value)) throw new Error(`Intl gave no ${key} for ${instant.toISOString()}`);
    return value;
  };
  return { year: get('year'), month: get('month'), day: get('day'), hour: get('hour'), minute: get('minute'), second: get('second') };
}

/** The calendar day (`YYYY-MM-DD`) an instant falls on in Sao Paulo. */
export function saoPauloDate(instant: Date): string {
  const w = wallClock(instant);
  return formatYmd(w.year, w.month, w.day);
}

/** An instant as Sao Paulo wall-clock time, `YYYY-MM-DD HH:mm`, for display. */
export function saoPauloDateTime(instant: Date): string {
  const w = wallClock(instant);
  return `${formatYmd(w.year, w.month, w.day)} ${String(w.hour).padStart(2, '0')}:${String(w.minute).padStart(2, '0')}`;
}

/** Offset of Sao Paulo from UTC at an instant, in milliseconds (-3 h, or -2 h in historic summers). */
function offsetAt(ms: number): number {
  const w = wallClock(new Date(ms));
  const asUtc = new Date(0);
  asUtc.setUTCFullYear(w.year, w.month - 1, w.day);
  asUtc.setUTCHours(w.hour, w.minute, w.second, 0);
  return asUtc.getTime() - (ms - (((ms % 1000) + 1000) % 1000));
}

/**
 * The instant at which Sao Paulo clocks read `date` (`YYYY-MM-DD`) at `hour`:`minute` (0–23, 0–59).
 * Historic daylight-saving transitions are resolved like Temporal's `compatible`: a time repeated when clocks went
 * back gives the earlier instant; a time skipped when clocks went forward is read with the offset in force before
 * the jump (00:30 on a spring-forward day becomes 01:30 daylight time).
 */
export function saoPauloInstant(date: string, hour: number, minute = 0): Date {
  if (!Number.isInteger(hour) || hour < 0 || hour > 23) throw new RangeError(`hour must be 0–23: ${hour}`);
  if (!Number.isInteger(minute) || minute < 0 || minute > 59) throw new RangeError(`minute must be 0–59: ${minute}`);
  const ymd = parseDate(date);
  const local = dayNumber(ymd) * DAY_MS + hour * 3_600_000 + minute * 60_000;
  // Sao Paulo's offset changed at most once a day, so the offsets a day either side bracket any transition.
  const before = local - offsetAt(local - DAY_MS);
  const after = local - offsetAt(local + DAY_MS);
  const reads = (ms: number): boolean => ms + offsetAt(ms) === local;
  const candidates = [before, after].filter(reads).sort((x, y) => x - y);
  return new Date(candidates[0] ?? before);
}

// ---------------------------------------------------------------------------------------------------------------
// Bill payment window

const BILL_OPEN_HOUR = 8;

export interface BillWindow {
  /** Whether a bill paid at the instant asked about is processed at once. */
  readonly open: boolean;
  /** If open, the current window; if closed, the next one. */
  readonly opensAt: Date;
  readonly closesAt: Date;
}

/**
 * Bill payments happen on business days 08:00 to closeHour (20, or 22 for utilities and government collections),
 * Sao Paulo time. The window is half-open: 08:00:00.000 is open, closeHour:00:00.000 is closed. Outside it, the
 * provider schedules the payment for the returned (next) window.
 */
export function billWindow(instant: Date, closeHour: 20 | 22): BillWindow {
  if (closeHour !== 20 && closeHour !== 22) throw new RangeError(`closeHour must be 20 or 22: ${String(closeHour)}`);
  const now = instant.getTime();
  const today = saoPauloDate(instant);
  const windowOf = (date: string): { opensAt: Date; closesAt: Date } => ({
    opensAt: saoPauloInstant(date, BILL_OPEN_HOUR),
    closesAt: saoPauloInstant(date, closeHour),
  });
  if (isBusinessDay(today)) {
    const w = windowOf(today);
    if (now < w.opensAt.getTime()) return { open: false, ...w };
    if (now < w.closesAt.getTime()) return { open: true, ...w };
  }
  return { open: false, ...windowOf(nextBusinessDay(today)) };
}

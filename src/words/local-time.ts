import type { Locale } from './locale.js';
import { saoPauloDate, saoPauloDateTime } from '../domain/bank-calendar.js';

/**
 * Dates and times for people: always São Paulo wall-clock time (the bank day paybatch pays on), written the way the
 * locale writes it — 23/11/2026 in pt-BR, 2026-11-23 in English. `--json` keeps ISO instants instead.
 */
export function localDate(instant: Date, locale: Locale): string {
  const ymd = saoPauloDate(instant);
  return locale === 'pt-BR' ? brazilianDate(ymd) : ymd;
}

/** `23/11/2026 14:05` or `2026-11-23 14:05`, São Paulo time (see `zoneLabel` for the label that goes with it). */
export function localDateTime(instant: Date, locale: Locale): string {
  const [ymd, hm] = saoPauloDateTime(instant).split(' ') as [string, string];
  return locale === 'pt-BR' ? `${brazilianDate(ymd)} ${hm}` : `${ymd} ${hm}`;
}

/** What a table header or a line says once, so that unlabelled times are never read as UTC or local time. */
export function zoneLabel(locale: Locale): string {
  return locale === 'pt-BR' ? 'horário de São Paulo' : 'São Paulo time';
}

/** A calendar day (`YYYY-MM-DD`, e.g. a due date) as the locale writes it. */
export function localDay(ymd: string, locale: Locale): string {
  return locale === 'pt-BR' ? brazilianDate(ymd) : ymd;
}

function brazilianDate(ymd: string): string {
  const [y, m, d] = ymd.split('-');
  return `${d}/${m}/${y}`;
}

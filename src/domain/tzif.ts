/**
 * A time zone's offsets from its compiled tz database file (TZif, RFC 8536), the file the system keeps under
 * /usr/share/zoneinfo. Reading one costs microseconds; the first Intl date formatter of a process costs more than
 * starting Node itself (V8 first builds its table of every language and region ICU has data for).
 *
 * Only what the file says for certain is answered: an instant before the first transition, or after the last one
 * when the zone's rule for later years has daylight saving time, gets undefined, and the caller asks Intl.
 */

export interface TzifZone {
  /** Transition instants (ms since the epoch), ascending. */
  readonly at: readonly number[];
  /** The UTC offset (ms) in force from each transition on. */
  readonly offset: readonly number[];
  /** Whether the rule after the last transition is one fixed offset (no daylight saving time). */
  readonly fixedAfterLast: boolean;
}

const HEADER = 44;

/** The zone a TZif file (version 2 or later) describes, or undefined if the bytes are not one. */
export function readTzif(bytes: Uint8Array): TzifZone | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const counts = (at: number): number[] | undefined => {
    if (at + HEADER > bytes.byteLength || view.getUint32(at) !== 0x545a6966 /* TZif */) return undefined;
    if (bytes[at + 4] === 0) return undefined; // version 1 has no 64-bit data and no rule for later years
    return [0, 1, 2, 3, 4, 5].map((i) => view.getUint32(at + 20 + 4 * i));
  };
  const v1 = counts(0);
  if (!v1) return undefined;
  const [isut1, isstd1, leap1, time1, type1, char1] = v1 as [number, number, number, number, number, number];
  const second = HEADER + time1 * 5 + type1 * 6 + char1 + leap1 * 8 + isstd1 + isut1;
  const v2 = counts(second);
  if (!v2) return undefined;
  const [isut, isstd, leap, timecnt, typecnt, charcnt] = v2 as [number, number, number, number, number, number];
  const times = second + HEADER;
  const indices = times + timecnt * 8;
  const types = indices + timecnt;
  const footer = types + typecnt * 6 + charcnt + leap * 12 + isstd + isut;
  if (typecnt === 0 || footer > bytes.byteLength) return undefined;
  const utoff = (type: number): number | undefined => (type < typecnt ? view.getInt32(types + type * 6) * 1000 : undefined);
  const at: number[] = [];
  const offset: number[] = [];
  for (let i = 0; i < timecnt; i++) {
    const off = utoff(bytes[indices + i] as number);
    if (off === undefined) return undefined;
    at.push(Number(view.getBigInt64(times + i * 8)) * 1000);
    offset.push(off);
  }
  // The footer is a POSIX TZ string between newlines: "<-03>3" is a fixed offset; a daylight rule follows it with
  // a second name and dates ("<-03>3<-02>,M11.1.0,M2.3.0").
  const rule = new TextDecoder('latin1').decode(bytes.subarray(footer)).split('\n')[1] ?? '';
  return { at, offset, fixedAfterLast: /^(<[^>]*>|[A-Za-z]+)[+-]?\d{1,2}(:\d{2}){0,2}$/.test(rule) };
}

/** The zone's UTC offset (ms) at an instant, or undefined where the file alone cannot say (see above). */
export function tzifOffset(zone: TzifZone, ms: number): number | undefined {
  const { at, offset } = zone;
  if (at.length === 0 || ms < (at[0] as number)) return undefined;
  const last = at.length - 1;
  if (ms >= (at[last] as number)) return zone.fixedAfterLast ? offset[last] : undefined;
  let lo = 0;
  let hi = last;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((at[mid] as number) <= ms) lo = mid;
    else hi = mid - 1;
  }
  return offset[lo];
}

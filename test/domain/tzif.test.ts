import { existsSync, readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readTzif, tzifOffset } from '../../src/domain/tzif.js';

/** A TZif v2 file built by hand (RFC 8536): an empty v1 block, then the 64-bit data and the footer's rule. */
function tzif(transitions: readonly [seconds: number, type: number][], offsets: readonly number[], rule: string, version = '2'): Uint8Array {
  const header = (timecnt: number, typecnt: number, charcnt: number): Buffer => {
    const b = Buffer.alloc(44);
    b.write('TZif', 0, 'latin1');
    b.write(version, 4, 'latin1');
    [0, 0, 0, timecnt, typecnt, charcnt].forEach((n, i) => b.writeUInt32BE(n, 20 + 4 * i));
    return b;
  };
  const v1 = Buffer.concat([header(0, 1, 1), Buffer.from([0, 0, 0, 0, 0, 0]), Buffer.from([0])]);
  const times = Buffer.alloc(transitions.length * 8);
  transitions.forEach(([t], i) => times.writeBigInt64BE(BigInt(t), i * 8));
  const types = Buffer.alloc(offsets.length * 6);
  offsets.forEach((o, i) => types.writeInt32BE(o, i * 6));
  const v2 = Buffer.concat([header(transitions.length, offsets.length, 1), times, Buffer.from(transitions.map(([, type]) => type)), types, Buffer.from([0])]);
  return new Uint8Array(Buffer.concat([v1, v2, Buffer.from(`\n${rule}\n`, 'latin1')]));
}

const HOUR = 3_600_000;
// Sao Paulo's last two transitions: daylight time from 2018-11-04 03:00 UTC, standard time from 2019-02-17 02:00 UTC.
const SUMMER_2018 = Date.UTC(2018, 10, 4, 3);
const END_2019 = Date.UTC(2019, 1, 17, 2);

describe('readTzif', () => {
  const zone = readTzif(tzif([[SUMMER_2018 / 1000, 1], [END_2019 / 1000, 0]], [-3 * 3600, -2 * 3600], '<-03>3'));

  it('gives the offset in force at an instant, transitions included', () => {
    expect(zone).toBeDefined();
    if (!zone) return;
    expect(tzifOffset(zone, SUMMER_2018 - 1)).toBeUndefined(); // before the first transition the file alone cannot say
    expect(tzifOffset(zone, SUMMER_2018)).toBe(-2 * HOUR);
    expect(tzifOffset(zone, END_2019 - 1)).toBe(-2 * HOUR);
    expect(tzifOffset(zone, END_2019)).toBe(-3 * HOUR);
    expect(tzifOffset(zone, Date.UTC(2031, 0, 1))).toBe(-3 * HOUR); // a fixed rule for later years
  });

  it('leaves to Intl the years after the last transition when the rule for them has daylight saving time', () => {
    const summers = readTzif(tzif([[SUMMER_2018 / 1000, 1], [END_2019 / 1000, 0]], [-3 * 3600, -2 * 3600], '<-03>3<-02>,M11.1.0,M2.3.0'));
    expect(summers && tzifOffset(summers, END_2019 - 1)).toBe(-2 * HOUR);
    expect(summers && tzifOffset(summers, Date.UTC(2030, 0, 1))).toBeUndefined();
  });

  it('refuses what is not a version 2 TZif file', () => {
    expect(readTzif(new Uint8Array(0))).toBeUndefined();
    expect(readTzif(new TextEncoder().encode('<html>not found</html>'.padEnd(100)))).toBeUndefined();
    expect(readTzif(tzif([[0, 0]], [0], 'UTC0', '\0'))).toBeUndefined(); // version 1: no 64-bit data, no rule
    const cut = tzif([[SUMMER_2018 / 1000, 1]], [-3 * 3600, -2 * 3600], '<-03>3');
    expect(readTzif(cut.subarray(0, cut.length - 20))).toBeUndefined();
    expect(readTzif(tzif([[SUMMER_2018 / 1000, 5]], [-3 * 3600], '<-03>3'))).toBeUndefined(); // a type that is not there
  });
});

describe("the system's Sao Paulo file", () => {
  const file = '/usr/share/zoneinfo/America/Sao_Paulo';
  // Intl reads ICU's copy of the same database through other code: the two must agree instant by instant.
  const intl = new Intl.DateTimeFormat('en-US', { timeZone: 'America/Sao_Paulo', timeZoneName: 'longOffset' });
  const intlOffset = (ms: number): number => {
    const name = intl.formatToParts(ms).find((p) => p.type === 'timeZoneName')?.value ?? '';
    const m = /GMT([+-])(\d{2}):(\d{2})/.exec(name);
    return m ? (m[1] === '-' ? -1 : 1) * (Number(m[2]) * HOUR + Number(m[3]) * 60_000) : 0;
  };

  it('is on this machine (Debian installs tzdata as required)', () => {
    expect(existsSync(file)).toBe(true);
  });

  it('agrees with Intl from 1985 to 2060, around every transition too', () => {
    const zone = readTzif(readFileSync(file));
    expect(zone).toBeDefined();
    if (!zone) return;
    expect(tzifOffset(zone, Date.UTC(2026, 10, 27))).toBe(-3 * HOUR);
    expect(tzifOffset(zone, Date.UTC(2018, 11, 25, 12))).toBe(-2 * HOUR); // Christmas 2018: the last summer time
    for (const t of zone.at.filter((t) => t >= Date.UTC(1985, 0, 1))) {
      for (const ms of [t - 1, t, t + 1]) expect(tzifOffset(zone, ms)).toBe(intlOffset(ms));
    }
    fc.assert(
      fc.property(fc.integer({ min: Date.UTC(1985, 0, 1), max: Date.UTC(2060, 0, 1) }), (ms) => {
        expect(tzifOffset(zone, ms)).toBe(intlOffset(ms));
      }),
      { numRuns: 2000 },
    );
  });
});

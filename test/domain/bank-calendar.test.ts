import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  addBusinessDays,
  bankHolidays,
  billWindow,
  easterSunday,
  isBusinessDay,
  nextBusinessDay,
  saoPauloDate,
  saoPauloDateTime,
  saoPauloInstant,
} from '../../src/domain/bank-calendar.js';

const DAY_MS = 86_400_000;
const at = (iso: string): Date => new Date(iso);

describe('easterSunday', () => {
  // Gregorian Easter dates from Wikipedia, "List of dates for Easter" (Gregorian column), which reproduces the
  // U.S. Naval Observatory's table; 1818 and 2285 are the earliest possible date (22 March), 1886, 1943 and 2038
  // the latest (25 April).
  it.each([
    [1818, '1818-03-22'], [1886, '1886-04-25'], [1900, '1900-04-15'], [1943, '1943-04-25'], [1954, '1954-04-18'],
    [1961, '1961-04-02'], [1970, '1970-03-29'], [1981, '1981-04-19'], [1990, '1990-04-15'], [1999, '1999-04-04'],
    [2000, '2000-04-23'], [2001, '2001-04-15'], [2002, '2002-03-31'], [2003, '2003-04-20'], [2004, '2004-04-11'],
    [2005, '2005-03-27'], [2006, '2006-04-16'], [2007, '2007-04-08'], [2008, '2008-03-23'], [2009, '2009-04-12'],
    [2010, '2010-04-04'], [2011, '2011-04-24'], [2012, '2012-04-08'], [2013, '2013-03-31'], [2014, '2014-04-20'],
    [2015, '2015-04-05'], [2016, '2016-03-27'], [2017, '2017-04-16'], [2018, '2018-04-01'], [2019, '2019-04-21'],
    [2020, '2020-04-12'], [2021, '2021-04-04'], [2022, '2022-04-17'], [2023, '2023-04-09'], [2024, '2024-03-31'],
    [2025, '2025-04-20'], [2026, '2026-04-05'], [2027, '2027-03-28'], [2028, '2028-04-16'], [2029, '2029-04-01'],
    [2030, '2030-04-21'], [2031, '2031-04-13'], [2032, '2032-03-28'], [2033, '2033-04-17'], [2034, '2034-04-09'],
    [2035, '2035-03-25'], [2036, '2036-04-13'], [2037, '2037-04-05'], [2038, '2038-04-25'], [2039, '2039-04-10'],
    [2040, '2040-04-01'], [2285, '2285-03-22'],
  ])('%i -> %s', (year, expected) => {
    expect(easterSunday(year)).toBe(expected);
  });

  it('always falls on a Sunday between 22 March and 25 April', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1583, max: 9999 }), (year) => {
        const easter = easterSunday(year);
        expect(new Date(`${easter}T00:00:00Z`).getUTCDay()).toBe(0);
        expect(easter.slice(5) >= '03-22' && easter.slice(5) <= '04-25').toBe(true);
      }),
    );
  });

  it('refuses years outside the Gregorian calendar it is defined for', () => {
    expect(() => easterSunday(1582)).toThrow(RangeError);
    expect(() => easterSunday(2025.5)).toThrow(RangeError);
  });
});

describe('bankHolidays', () => {
  const dates = (year: number): string[] => bankHolidays(year).map((h) => h.date);

  // FEBRABAN's national bank holiday calendars (CMN Resolution 4.880/2020), weekend holidays included.
  it('2024, the first year with Consciência Negra', () => {
    expect(dates(2024)).toEqual([
      '2024-01-01', '2024-02-12', '2024-02-13', '2024-03-29', '2024-04-21', '2024-05-01', '2024-05-30',
      '2024-09-07', '2024-10-12', '2024-11-02', '2024-11-15', '2024-11-20', '2024-12-25',
    ]);
  });

  it('2025', () => {
    expect(dates(2025)).toEqual([
      '2025-01-01', '2025-03-03', '2025-03-04', '2025-04-18', '2025-04-21', '2025-05-01', '2025-06-19',
      '2025-09-07', '2025-10-12', '2025-11-02', '2025-11-15', '2025-11-20', '2025-12-25',
    ]);
  });

  it('2026: 13 holidays', () => {
    expect(dates(2026)).toEqual([
      '2026-01-01', '2026-02-16', '2026-02-17', '2026-04-03', '2026-04-21', '2026-05-01', '2026-06-04',
      '2026-09-07', '2026-10-12', '2026-11-02', '2026-11-15', '2026-11-20', '2026-12-25',
    ]);
  });

  it('2023: no Consciência Negra yet', () => {
    expect(dates(2023)).toEqual([
      '2023-01-01', '2023-02-20', '2023-02-21', '2023-04-07', '2023-04-21', '2023-05-01', '2023-06-08',
      '2023-09-07', '2023-10-12', '2023-11-02', '2023-11-15', '2023-12-25',
    ]);
  });

  it('names each holiday', () => {
    const byDate = new Map(bankHolidays(2025).map((h) => [h.date, h.name]));
    expect(byDate.get('2025-03-03')).toMatch(/Carnaval/);
    expect(byDate.get('2025-04-18')).toBe('Sexta-feira da Paixão');
    expect(byDate.get('2025-06-19')).toBe('Corpus Christi');
    expect(byDate.get('2025-04-21')).toBe('Tiradentes');
    expect(byDate.get('2025-11-20')).toMatch(/Consciência Negra/);
  });

  it('is sorted, without duplicates, for any year', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1583, max: 9999 }), (year) => {
        const list = dates(year);
        expect([...list].sort()).toEqual(list);
        expect(new Set(list).size).toBe(list.length);
        expect(list.every((d) => d.startsWith(String(year)))).toBe(true);
      }),
    );
  });

  it('gives one entry to two holidays on the same date (Good Friday on Tiradentes, 2000)', () => {
    const april21 = bankHolidays(2000).filter((h) => h.date === '2000-04-21');
    expect(april21).toEqual([{ date: '2000-04-21', name: 'Sexta-feira da Paixão / Tiradentes' }]);
    expect(bankHolidays(2000)).toHaveLength(11);
  });

  it('hands out copies, so a caller cannot change the calendar', () => {
    const first = bankHolidays(2025);
    first.pop();
    (first[0] as { date: string }).date = '2025-01-02';
    expect(dates(2025)).toHaveLength(13);
    expect(isBusinessDay('2025-01-01')).toBe(false);
    expect(isBusinessDay('2025-01-02')).toBe(true);
  });
});

describe('isBusinessDay', () => {
  it.each([
    ['2025-03-03', false, 'Carnival Monday'],
    ['2025-03-04', false, 'Carnival Tuesday'],
    ['2025-03-05', true, 'Ash Wednesday (branches open at noon; still a business day)'],
    ['2025-04-18', false, 'Good Friday'],
    ['2025-04-21', false, 'Tiradentes on a Monday'],
    ['2025-06-19', false, 'Corpus Christi'],
    ['2026-02-16', false, 'Carnival Monday 2026'],
    ['2026-02-17', false, 'Carnival Tuesday 2026'],
    ['2026-04-03', false, 'Good Friday 2026'],
    ['2026-06-04', false, 'Corpus Christi 2026'],
    ['2023-11-20', true, '20 November 2023, a Monday, not yet a national holiday'],
    ['2024-11-20', false, '20 November 2024, a Wednesday, a national holiday'],
    ['2025-12-24', true, 'Christmas Eve'],
    ['2025-12-25', false, 'Christmas'],
    ['2025-12-31', true, 'New Year Eve (no branch service, but a business day)'],
    ['2025-06-07', false, 'a Saturday'],
    ['2025-06-08', false, 'a Sunday'],
    ['2025-06-09', true, 'an ordinary Monday'],
  ])('%s -> %s (%s)', (date, expected) => {
    expect(isBusinessDay(date)).toBe(expected);
  });

  it.each(['2025-02-29', '2025-13-01', '2025-6-9', '2025-06-09T00:00', '', '09/06/2025'])('refuses %j', (bad) => {
    expect(() => isBusinessDay(bad)).toThrow(RangeError);
  });
});

describe('nextBusinessDay and addBusinessDays', () => {
  it.each([
    ['2025-06-06', '2025-06-09', 'Friday -> Monday'],
    ['2025-06-07', '2025-06-09', 'Saturday -> Monday'],
    ['2025-04-17', '2025-04-22', 'Thursday before Good Friday, over Tiradentes Monday'],
    ['2025-02-28', '2025-03-05', 'Friday before Carnival -> Ash Wednesday'],
    ['2025-12-24', '2025-12-26', 'over Christmas'],
    ['2025-12-31', '2026-01-02', 'over New Year'],
    ['2024-11-19', '2024-11-21', 'over Consciência Negra 2024'],
    ['2023-11-17', '2023-11-20', 'Friday -> Monday 20 November 2023'],
  ])('nextBusinessDay(%s) = %s (%s)', (date, expected) => {
    expect(nextBusinessDay(date)).toBe(expected);
  });

  it.each([
    ['2025-06-09', 0, '2025-06-09', 'a business day itself'],
    ['2025-06-07', 0, '2025-06-09', 'Saturday rolls forward'],
    ['2025-03-03', 0, '2025-03-05', 'Carnival rolls forward'],
    ['2025-06-06', 1, '2025-06-09', 'Friday + 1'],
    ['2025-06-07', 1, '2025-06-09', 'Saturday + 1'],
    ['2025-06-09', 5, '2025-06-16', 'a week'],
    ['2025-04-15', 5, '2025-04-24', 'five business days over Good Friday and Tiradentes'],
    ['2026-02-12', 5, '2026-02-23', 'five business days over Carnival 2026'],
    ['2025-12-22', 10, '2026-01-07', 'over Christmas and New Year'],
  ])('addBusinessDays(%s, %i) = %s (%s)', (date, n, expected) => {
    expect(addBusinessDays(date, n)).toBe(expected);
  });

  it('refuses a negative or fractional count', () => {
    expect(() => addBusinessDays('2025-06-09', -1)).toThrow(RangeError);
    expect(() => addBusinessDays('2025-06-09', 1.5)).toThrow(RangeError);
    expect(() => addBusinessDays('2025-06-09', Number.NaN)).toThrow(RangeError);
  });

  const anyDate = fc
    .integer({ min: Date.UTC(1990, 0, 1) / DAY_MS, max: Date.UTC(2060, 11, 31) / DAY_MS })
    .map((n) => new Date(n * DAY_MS).toISOString().slice(0, 10));
  const anyCount = fc.integer({ min: 0, max: 400 });

  it('addBusinessDays always lands on a business day', () => {
    fc.assert(fc.property(anyDate, anyCount, (date, n) => isBusinessDay(addBusinessDays(date, n))));
  });

  it('addBusinessDays is monotonic in the date', () => {
    fc.assert(
      fc.property(anyDate, anyDate, anyCount, (a, b, n) => {
        const [early, late] = a <= b ? [a, b] : [b, a];
        expect(addBusinessDays(early, n) <= addBusinessDays(late, n)).toBe(true);
      }),
    );
  });

  it('addBusinessDays is monotonic in the count, strictly from 1 on', () => {
    fc.assert(
      fc.property(anyDate, anyCount, (date, n) => {
        expect(addBusinessDays(date, n) <= addBusinessDays(date, n + 1)).toBe(true);
        if (n >= 1) expect(addBusinessDays(date, n) < addBusinessDays(date, n + 1)).toBe(true);
      }),
    );
  });

  it('addBusinessDays(d, n) is n steps of nextBusinessDay', () => {
    fc.assert(
      fc.property(anyDate, fc.integer({ min: 1, max: 30 }), (date, n) => {
        let stepped = date;
        for (let i = 0; i < n; i += 1) stepped = nextBusinessDay(stepped);
        expect(addBusinessDays(date, n)).toBe(stepped);
      }),
    );
  });

  it('nextBusinessDay is strictly later, a business day, and skips no business day', () => {
    fc.assert(
      fc.property(anyDate, (date) => {
        const next = nextBusinessDay(date);
        expect(next > date).toBe(true);
        expect(isBusinessDay(next)).toBe(true);
        for (let d = new Date(`${date}T00:00:00Z`).getTime() + DAY_MS; ; d += DAY_MS) {
          const between = new Date(d).toISOString().slice(0, 10);
          if (between === next) break;
          expect(isBusinessDay(between)).toBe(false);
        }
      }),
    );
  });
});

describe('Sao Paulo wall clock', () => {
  it.each([
    ['2025-01-15T11:00:00Z', '2025-01-15', '2025-01-15 08:00', 'an ordinary morning'],
    ['2025-06-07T02:59:00Z', '2025-06-06', '2025-06-06 23:59', 'UTC is already Saturday'],
    ['2025-01-01T03:00:00Z', '2025-01-01', '2025-01-01 00:00', 'midnight'],
    ['2018-01-15T14:00:00Z', '2018-01-15', '2018-01-15 12:00', 'summer time 2018, UTC-2'],
    ['2018-11-04T02:59:00Z', '2018-11-03', '2018-11-03 23:59', 'last minute before summer time began'],
    ['2018-11-04T03:00:00Z', '2018-11-04', '2018-11-04 01:00', 'clocks jumped from 00:00 to 01:00'],
  ])('%s is %s, %s (%s)', (iso, date, dateTime) => {
    expect(saoPauloDate(at(iso))).toBe(date);
    expect(saoPauloDateTime(at(iso))).toBe(dateTime);
  });

  it.each([
    ['2025-01-15', 8, 0, '2025-01-15T11:00:00.000Z'],
    ['2025-06-06', 20, 0, '2025-06-06T23:00:00.000Z'],
    ['2025-06-06', 23, 59, '2025-06-07T02:59:00.000Z'],
    ['2018-01-15', 12, 0, '2018-01-15T14:00:00.000Z'],
    ['2018-12-14', 8, 0, '2018-12-14T10:00:00.000Z'],
    // 00:30 on 2018-11-04 never happened (00:00 jumped to 01:00): read with the offset before the jump.
    ['2018-11-04', 0, 30, '2018-11-04T03:30:00.000Z'],
    // 23:30 on 2019-02-16 happened twice (summer time ended at midnight): the earlier one.
    ['2019-02-16', 23, 30, '2019-02-17T01:30:00.000Z'],
  ])('saoPauloInstant(%s, %i, %i) = %s', (date, hour, minute, iso) => {
    expect(saoPauloInstant(date, hour, minute).toISOString()).toBe(iso);
  });

  it('minute defaults to 0', () => {
    expect(saoPauloInstant('2025-01-15', 8).toISOString()).toBe('2025-01-15T11:00:00.000Z');
  });

  it('refuses an impossible time or date', () => {
    expect(() => saoPauloInstant('2025-01-15', 24)).toThrow(RangeError);
    expect(() => saoPauloInstant('2025-01-15', 8, 60)).toThrow(RangeError);
    expect(() => saoPauloInstant('2025-01-15', 8.5)).toThrow(RangeError);
    expect(() => saoPauloInstant('2025-02-30', 8)).toThrow(RangeError);
    expect(() => saoPauloDate(new Date(Number.NaN))).toThrow(RangeError);
  });

  it('wall clock -> instant -> wall clock is the identity since summer time ended (2019)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: Date.UTC(2019, 3, 1) / DAY_MS, max: Date.UTC(2099, 11, 31) / DAY_MS }),
        fc.integer({ min: 0, max: 23 }),
        fc.integer({ min: 0, max: 59 }),
        (day, hour, minute) => {
          const date = new Date(day * DAY_MS).toISOString().slice(0, 10);
          const wall = `${date} ${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}`;
          expect(saoPauloDateTime(saoPauloInstant(date, hour, minute))).toBe(wall);
        },
      ),
    );
  });

  it('instant -> wall clock -> instant gives back the instant, or the earlier of a repeated hour, in any year', () => {
    fc.assert(
      fc.property(fc.integer({ min: Date.UTC(1985, 0, 1) / 60_000, max: Date.UTC(2040, 0, 1) / 60_000 }), (minutes) => {
        const instant = new Date(minutes * 60_000);
        const [date = '', time = ''] = saoPauloDateTime(instant).split(' ');
        const [hour, minute] = time.split(':').map(Number);
        const back = saoPauloInstant(date, hour ?? -1, minute ?? -1);
        expect(saoPauloDateTime(back)).toBe(saoPauloDateTime(instant));
        expect(back.getTime() === instant.getTime() || back.getTime() === instant.getTime() - 3_600_000).toBe(true);
      }),
    );
  });
});

describe('billWindow', () => {
  const iso = (d: Date): string => d.toISOString();
  const window = (instant: string, closeHour: 20 | 22) => {
    const w = billWindow(at(instant), closeHour);
    return { open: w.open, opensAt: iso(w.opensAt), closesAt: iso(w.closesAt) };
  };

  it.each([
    ['Monday 08:00 exactly is open', '2025-06-09T11:00:00.000Z', 20, true, '2025-06-09T11:00:00.000Z', '2025-06-09T23:00:00.000Z'],
    ['Monday 07:59:59.999 is closed, opening today', '2025-06-09T10:59:59.999Z', 20, false, '2025-06-09T11:00:00.000Z', '2025-06-09T23:00:00.000Z'],
    ['Friday 19:59 is open', '2025-06-06T22:59:00.000Z', 20, true, '2025-06-06T11:00:00.000Z', '2025-06-06T23:00:00.000Z'],
    ['Friday 19:59:59.999 is open', '2025-06-06T22:59:59.999Z', 20, true, '2025-06-06T11:00:00.000Z', '2025-06-06T23:00:00.000Z'],
    ['Friday 20:00 exactly is closed until Monday', '2025-06-06T23:00:00.000Z', 20, false, '2025-06-09T11:00:00.000Z', '2025-06-09T23:00:00.000Z'],
    ['Friday 20:00 is still open for utilities', '2025-06-06T23:00:00.000Z', 22, true, '2025-06-06T11:00:00.000Z', '2025-06-07T01:00:00.000Z'],
    ['Tuesday 21:30 is open until 22:00 for utilities', '2025-06-11T00:30:00.000Z', 22, true, '2025-06-10T11:00:00.000Z', '2025-06-11T01:00:00.000Z'],
    ['Tuesday 21:30 is closed for slips, until Wednesday', '2025-06-11T00:30:00.000Z', 20, false, '2025-06-11T11:00:00.000Z', '2025-06-11T23:00:00.000Z'],
    ['Tuesday 22:00 exactly is closed for utilities', '2025-06-11T01:00:00.000Z', 22, false, '2025-06-11T11:00:00.000Z', '2025-06-12T01:00:00.000Z'],
    ['Saturday night waits for Monday', '2025-06-08T02:00:00.000Z', 20, false, '2025-06-09T11:00:00.000Z', '2025-06-09T23:00:00.000Z'],
    ['Sunday 22:00 (Monday in UTC) waits for Monday 08:00', '2025-06-09T01:00:00.000Z', 22, false, '2025-06-09T11:00:00.000Z', '2025-06-10T01:00:00.000Z'],
    ['Friday 22:30 (Saturday in UTC) waits for Monday', '2025-06-07T01:30:00.000Z', 22, false, '2025-06-09T11:00:00.000Z', '2025-06-10T01:00:00.000Z'],
    ['eve of Good Friday 20:30 waits over Easter and Tiradentes', '2025-04-17T23:30:00.000Z', 20, false, '2025-04-22T11:00:00.000Z', '2025-04-22T23:00:00.000Z'],
    ['Christmas Eve 21:00 is open for utilities', '2025-12-25T00:00:00.000Z', 22, true, '2025-12-24T11:00:00.000Z', '2025-12-25T01:00:00.000Z'],
    ['Christmas Eve 21:00 waits for the 26th for slips', '2025-12-25T00:00:00.000Z', 20, false, '2025-12-26T11:00:00.000Z', '2025-12-26T23:00:00.000Z'],
    ['Christmas Day morning waits for the 26th', '2025-12-25T13:00:00.000Z', 20, false, '2025-12-26T11:00:00.000Z', '2025-12-26T23:00:00.000Z'],
    ['Friday before Carnival 2026 at 20:00 waits for Ash Wednesday', '2026-02-13T23:00:00.000Z', 20, false, '2026-02-18T11:00:00.000Z', '2026-02-18T23:00:00.000Z'],
    ['31 December 20:00 waits for 2 January', '2025-12-31T23:00:00.000Z', 20, false, '2026-01-02T11:00:00.000Z', '2026-01-02T23:00:00.000Z'],
    ['eve of Consciência Negra 2024', '2024-11-19T23:00:00.000Z', 20, false, '2024-11-21T11:00:00.000Z', '2024-11-21T23:00:00.000Z'],
    ['20 November 2023 was an ordinary Monday', '2023-11-20T15:00:00.000Z', 20, true, '2023-11-20T11:00:00.000Z', '2023-11-20T23:00:00.000Z'],
    ['summer time 2018: 08:00 was 10:00 UTC', '2018-12-14T10:00:00.000Z', 20, true, '2018-12-14T10:00:00.000Z', '2018-12-14T22:00:00.000Z'],
    ['summer time 2018: 07:30 (09:30 UTC) not yet open', '2018-12-14T09:30:00.000Z', 20, false, '2018-12-14T10:00:00.000Z', '2018-12-14T22:00:00.000Z'],
  ] as const)('%s', (_name, instant, closeHour, open, opensAt, closesAt) => {
    expect(window(instant, closeHour)).toEqual({ open, opensAt, closesAt });
  });

  it('refuses a close hour other than 20 or 22', () => {
    expect(() => billWindow(at('2025-06-09T12:00:00Z'), 21 as 20)).toThrow(RangeError);
  });

  it('is always a business-day 08:00–closeHour window that holds the instant or is the next one', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: Date.UTC(2000, 0, 1), max: Date.UTC(2050, 0, 1) }),
        fc.constantFrom<20 | 22>(20, 22),
        (ms, closeHour) => {
          const instant = new Date(ms);
          const w = billWindow(instant, closeHour);
          const day = saoPauloDate(w.opensAt);
          expect(isBusinessDay(day)).toBe(true);
          expect(saoPauloDateTime(w.opensAt)).toBe(`${day} 08:00`);
          expect(saoPauloDateTime(w.closesAt)).toBe(`${day} ${closeHour}:00`);
          if (w.open) {
            expect(w.opensAt.getTime() <= ms && ms < w.closesAt.getTime()).toBe(true);
          } else {
            expect(ms < w.opensAt.getTime()).toBe(true);
            const today = saoPauloDate(instant);
            expect([today, nextBusinessDay(today)]).toContain(day);
            // No window of its own is skipped: a day before the returned one is past or not a business day.
            if (day !== today) expect(!isBusinessDay(today) || ms >= saoPauloInstant(today, closeHour).getTime()).toBe(true);
          }
        },
      ),
    );
  });
});

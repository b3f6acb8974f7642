import { describe, expect, it } from 'vitest';
import { localDate, localDateTime, localDay } from '../../src/words/local-time.js';

describe('local time for people', () => {
  // 01:18 UTC on 23 November is still the 22nd, 22:18, in São Paulo (UTC−3).
  const lateEvening = new Date('2026-11-23T01:18:00Z');
  it('shows São Paulo wall-clock time, DD/MM/AAAA in pt-BR', () => {
    expect(localDate(lateEvening, 'pt-BR')).toBe('22/11/2026');
    expect(localDateTime(lateEvening, 'pt-BR')).toBe('22/11/2026 22:18');
  });
  it('shows ISO order in English, still São Paulo time', () => {
    expect(localDate(lateEvening, 'en')).toBe('2026-11-22');
    expect(localDateTime(lateEvening, 'en')).toBe('2026-11-22 22:18');
  });
  it('writes a calendar day the locale way', () => {
    expect(localDay('2026-12-05', 'pt-BR')).toBe('05/12/2026');
    expect(localDay('2026-12-05', 'en')).toBe('2026-12-05');
  });
});

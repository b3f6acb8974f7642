import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readTzif, type TzifZone } from './tzif.js';

let zone: TzifZone | null | undefined;

/**
 * Sao Paulo's zone from the system's tz database (TZDIR, or /usr/share/zoneinfo), read once; undefined where the
 * system has none or the file is not one, and the wall clock then asks Intl, which reads ICU's own copy.
 */
export function saoPauloZone(): TzifZone | undefined {
  if (zone === undefined) {
    try {
      zone = readTzif(readFileSync(join(process.env.TZDIR || '/usr/share/zoneinfo', 'America', 'Sao_Paulo'))) ?? null;
    } catch {
      zone = null;
    }
  }
  return zone ?? undefined;
}

import { readCsvTable } from './csv-table.js';
import type { Table } from './table.js';

/** Reads a table (table.ts) from a file's bytes (pure). CSV is the only format so far; another is one more adapter chosen here. */
export function readTable(bytes: Uint8Array): Table {
  return readCsvTable(bytes);
}

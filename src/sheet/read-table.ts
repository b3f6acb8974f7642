import { readCsvTable } from './csv-table.js';
import { streamCsvTable } from './csv-stream.js';
import { remittanceTable } from './cnab240/remittance-table.js';
import type { Table, TableStreamer } from './table.js';
import { streamXlsxTable } from './xlsx-table.js';

/**
 * Reads a whole table (table.ts) from a file's bytes (pure), for small files read at once (lists of bills): CSV only.
 * Payment sheets are streamed, in any format `tableStreamer` reads.
 */
export function readTable(bytes: Uint8Array): Table {
  return readCsvTable(bytes);
}

/** The formats a sheet file may be in, as streamed: `sheet` names the worksheet of a workbook (default: the first). */
export type SheetFormatChoice =
  | { readonly kind: 'csv' }
  | { readonly kind: 'xlsx'; readonly sheet?: string }
  /**
   * A CNAB 240 remittance; `layout` is the one the profile pins (`cnabLayout`), `today` refuses titles due before it,
   * `accountsAccepted` reads payments to account data as rows (`pixByAccount`).
   */
  | { readonly kind: 'cnab240'; readonly layout?: string; readonly today?: string; readonly accountsAccepted?: boolean };

/** The streaming reader of a format (csv-stream.ts, xlsx-table.ts, cnab240/remittance-table.ts). */
export function tableStreamer(choice: SheetFormatChoice): TableStreamer {
  if (choice.kind === 'csv') return streamCsvTable;
  if (choice.kind === 'cnab240') {
    return remittanceTable({
      ...(choice.layout === undefined ? {} : { pinned: choice.layout }),
      ...(choice.today === undefined ? {} : { today: choice.today }),
      accountsAccepted: choice.accountsAccepted === true,
    });
  }
  return (open, sinkFor) => streamXlsxTable(open, sinkFor, { sheet: choice.sheet });
}

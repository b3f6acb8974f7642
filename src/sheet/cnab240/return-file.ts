/**
 * Writing the bank's return file ("retorno") for titles read from a remittance: the remittance's own records, in its
 * layout, with what happened written in — the occurrence codes ERPs read, the date and amount actually paid, and for
 * a paid Pix its end-to-end id in a segment Z's authentication (the only field with room for its 32 characters) —
 * and trailers that add up. Pure: the engine gives each title's outcome (engine/reports/return-file.ts).
 */
import { cut, put, widthOf, type Cnab240Layout, type ReturnCodes } from './layout.js';

export type TitleOutcome = 'paid' | 'open' | 'failed' | 'returned';

/** One title of the return: its records as the remittance had them, and how it ended. */
export interface ReturnTitle {
  readonly lot: number;
  readonly lotHeader: string;
  /** The title's records as read (segment A first). */
  readonly records: readonly string[];
  readonly outcome: TitleOutcome;
  /** The Pix reason code of a failure or return (AB09, MD06…), when the provider gave one. */
  readonly reason: string | null;
  /** When it was paid (YYYY-MM-DD, São Paulo) and how much, for a paid (or later returned) title. */
  readonly paidOn: string | null;
  readonly paidCents: number | null;
  readonly endToEndId: string | null;
}

export interface ReturnFileInput {
  readonly layout: Cnab240Layout;
  /** The remittance's file header. */
  readonly fileHeader: string;
  /** When the return is written, São Paulo time: YYYY-MM-DD and HHMMSS. */
  readonly writtenOn: string;
  readonly writtenAt: string;
  /** The file's sequence number (NSA): each return file its own, so an ERP that refuses one it has read takes the next. */
  readonly sequence: number;
  /** In remittance order. */
  readonly titles: readonly ReturnTitle[];
}

/**
 * The occurrence codes of an outcome, as the layout's table writes them (up to five 2-character codes): a bill's
 * (`bill`, segment J) by how it ended, a Pix's by its reason where the table has a code for it.
 */
export function occurrencesOf(codes: ReturnCodes, t: Pick<ReturnTitle, 'outcome' | 'reason'>, bill = false): string {
  if (bill) return codes.bills[t.outcome];
  if (t.outcome === 'paid') return codes.paid;
  if (t.outcome === 'open') return codes.open;
  const byReason = t.reason === null ? undefined : codes.byReason[t.reason.toUpperCase()];
  return byReason ?? (t.outcome === 'returned' ? codes.returned : codes.failed);
}

/** The return file's text: CRLF line ends, as banks write them. */
export function returnFile(input: ReturnFileInput): string {
  const { layout } = input;
  const h = layout.fileHeader;
  let header = put(input.fileHeader, h.direction, '2');
  header = put(header, h.generatedOn, ddmmyyyy(input.writtenOn));
  header = put(header, h.generatedAt, input.writtenAt);
  header = put(header, h.sequence, String(input.sequence % 10 ** widthOf(h.sequence)));
  const lines = [header];
  const lots = groupByLot(input.titles);
  for (const [i, titles] of lots.entries()) {
    const lot = String(i + 1).padStart(4, '0');
    lines.push(put(titles[0]!.lotHeader, layout.lotHeader.lot, lot));
    let sequence = 0;
    let sum = 0;
    for (const t of titles) {
      const details = titleRecords(layout, t);
      for (const d of details) lines.push(put(put(d, layout.segmentA.lot, lot), layout.segmentA.sequence, String(++sequence)));
      // The trailer sums the details as written: a paid bill's J carries what was paid.
      sum += Number(cut(details[0]!, amountField(layout, details[0]!)));
    }
    let trailer = put(' '.repeat(240), layout.lotTrailer.bank, cut(header, h.bank));
    trailer = put(trailer, layout.lotTrailer.lot, lot);
    trailer = put(trailer, layout.lotTrailer.recordType, '5');
    trailer = put(trailer, layout.lotTrailer.recordCount, String(sequence + 2));
    trailer = put(trailer, layout.lotTrailer.amountSum, String(sum));
    lines.push(trailer);
  }
  let trailer = put(' '.repeat(240), layout.fileTrailer.bank, cut(header, h.bank));
  trailer = put(trailer, layout.fileTrailer.lot, '9999');
  trailer = put(trailer, layout.fileTrailer.recordType, '9');
  trailer = put(trailer, layout.fileTrailer.lotCount, String(lots.length));
  trailer = put(trailer, layout.fileTrailer.recordCount, String(lines.length + 1));
  lines.push(trailer);
  return `${lines.join('\r\n')}\r\n`;
}

/**
 * A title's records with its outcome written in: the first (A or J) gets the occurrences, and for a paid title the
 * real date and amount — an A's in its own "real" fields, a J's in its payment fields (the date and amount the ERP
 * asked are what the provider paid unless interest, a fine or a discount changed it). A paid Pix with an end-to-end id
 * gets a segment Z after its other records.
 */
function titleRecords(layout: Cnab240Layout, t: ReturnTitle): string[] {
  const [first, ...rest] = t.records;
  const isBill = cut(first!, layout.segmentA.segment) === 'J';
  const occurrences = occurrencesOf(layout.returnCodes, t, isBill);
  let head = put(first!, isBill ? layout.segmentJ.occurrences : layout.segmentA.occurrences, occurrences);
  const paid = t.outcome === 'paid' || t.outcome === 'returned';
  if (paid && t.paidOn !== null && t.paidCents !== null) {
    head = put(head, isBill ? layout.segmentJ.paymentDate : layout.segmentA.paidOn, ddmmyyyy(t.paidOn));
    head = put(head, isBill ? layout.segmentJ.amount : layout.segmentA.paidAmount, String(t.paidCents));
  }
  const records = [head, ...rest];
  if (!isBill && t.outcome === 'paid' && t.endToEndId !== null) records.push(segmentZ(layout, first!, t.endToEndId, occurrences));
  return records;
}

function segmentZ(layout: Cnab240Layout, segmentA: string, endToEndId: string, occurrences: string): string {
  const z = layout.segmentZ;
  let line = segmentA.slice(0, 8) + ' '.repeat(232);
  line = put(line, z.segment, 'Z');
  line = put(line, z.authentication, endToEndId);
  if (z.yourNumber) line = put(line, z.yourNumber, cut(segmentA, layout.segmentA.yourNumber));
  return put(line, z.occurrences, occurrences);
}

function amountField(layout: Cnab240Layout, first: string) {
  return cut(first, layout.segmentA.segment) === 'J' ? layout.segmentJ.amount : layout.segmentA.amount;
}

/** Titles grouped by their remittance lot, in order (a return holds only the lots of its titles, renumbered). */
function groupByLot(titles: readonly ReturnTitle[]): ReturnTitle[][] {
  const lots = new Map<number, ReturnTitle[]>();
  for (const t of titles) (lots.get(t.lot) ?? lots.set(t.lot, []).get(t.lot)!).push(t);
  return [...lots.values()];
}

const ddmmyyyy = (iso: string) => `${iso.slice(8, 10)}${iso.slice(5, 7)}${iso.slice(0, 4)}`;

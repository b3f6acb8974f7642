import type { Locale } from '../words/locale.js';
import { zoneLabel } from '../words/local-time.js';
import { centsToReais } from '../domain/money.js';
import type { PeriodStatement } from './period-statement.js';
import { CURRENCY_FORMAT, wallClockDate } from './report-xlsx.js';
import { billWords, payerLine, paymentWords, TOTAL_COLUMNS, totalsByKind } from './statement-cells.js';
import { STATEMENT_LABELS } from './statement-labels.js';

type Cell = string | number | Date | null;
interface Column {
  readonly heading: string;
  readonly width: number;
  readonly format?: string;
}

/** A calendar day (`YYYY-MM-DD`) as a spreadsheet date: midnight of that day, with a day-only format. */
const dayDate = (ymd: string) => new Date(`${ymd}T00:00:00Z`);

/**
 * A period statement as an XLSX workbook (exceljs, loaded on first use): a sheet of Pix payments, a sheet of bills,
 * then a sheet of totals headed by the period, the profile and the payer line. Cells are typed: amounts are numbers
 * in reais with a currency format (totals too), dates are dates (São Paulo wall clock, see `wallClockDate`), counts
 * and batch numbers are numbers.
 */
export async function statementXlsx(statement: PeriodStatement, locale: Locale): Promise<Buffer> {
  const { default: ExcelJS } = await import('exceljs');
  const labels = STATEMENT_LABELS[locale];
  const c = labels.columns;
  const zone = zoneLabel(locale);
  const dateTime = locale === 'pt-BR' ? 'dd/mm/yyyy hh:mm' : 'yyyy-mm-dd hh:mm';
  const day = locale === 'pt-BR' ? 'dd/mm/yyyy' : 'yyyy-mm-dd';
  const at = (iso: string | null) => (iso === null ? null : wallClockDate(iso));
  const reais = (cents: number | null) => (cents === null ? null : centsToReais(cents));
  const book = new ExcelJS.Workbook();
  book.creator = 'paybatch';

  const table = (name: string, columns: readonly Column[], rows: readonly (readonly Cell[])[]) => {
    const sheet = book.addWorksheet(name.slice(0, 31));
    sheet.addRow(columns.map((col) => col.heading)).font = { bold: true };
    for (const row of rows) sheet.addRow([...row]);
    columns.forEach((col, i) => {
      const column = sheet.getColumn(i + 1);
      column.width = col.width;
      if (col.format) column.numFmt = col.format;
    });
    sheet.views = [{ state: 'frozen', ySplit: 1 }];
  };

  table(labels.pixTitle, [
    { heading: c.batch, width: 8 }, { heading: c.line, width: 8 }, { heading: c.payee, width: 30 }, { heading: c.document, width: 20 },
    { heading: c.key, width: 30 }, { heading: c.amount, width: 14, format: CURRENCY_FORMAT }, { heading: c.outcome, width: 12 },
    { heading: c.status, width: 16 }, { heading: c.reason, width: 40 }, { heading: `${c.sent} (${zone})`, width: 18, format: dateTime },
    { heading: `${c.paid} (${zone})`, width: 18, format: dateTime }, { heading: `${c.returned} (${zone})`, width: 18, format: dateTime },
    { heading: `${c.failed} (${zone})`, width: 18, format: dateTime }, { heading: c.endToEndId, width: 34 }, { heading: c.lineage, width: 50 },
  ], statement.payments.map((p) => {
    const w = paymentWords(p, locale);
    return [
      p.batch.id, p.line, p.payee.name, w.document, p.payee.key, reais(p.amountCents), w.outcome, w.status, w.reason || null,
      at(p.sentAt), at(p.paidAt), at(p.returnedAt), at(p.failedAt), p.endToEndId, w.lineage,
    ];
  }));

  table(labels.billsTitle, [
    { heading: c.beneficiary, width: 30 }, { heading: c.document, width: 20 }, { heading: c.description, width: 24 },
    { heading: c.typeableLine, width: 54 }, { heading: c.due, width: 12, format: day }, { heading: c.original, width: 14, format: CURRENCY_FORMAT },
    { heading: c.discount, width: 12, format: CURRENCY_FORMAT }, { heading: c.interest, width: 12, format: CURRENCY_FORMAT },
    { heading: c.fine, width: 12, format: CURRENCY_FORMAT }, { heading: c.amount, width: 14, format: CURRENCY_FORMAT },
    { heading: c.paidAmount, width: 14, format: CURRENCY_FORMAT }, { heading: c.outcome, width: 12 }, { heading: c.status, width: 16 },
    { heading: c.reason, width: 40 }, { heading: `${c.sent} (${zone})`, width: 18, format: dateTime }, { heading: c.paid, width: 12, format: day },
    { heading: `${c.returned} (${zone})`, width: 18, format: dateTime }, { heading: c.transactionId, width: 34 },
  ], statement.bills.map((b) => {
    const w = billWords(b, locale);
    return [
      b.beneficiary, w.document, b.description, b.line, b.dueDate === null ? null : dayDate(b.dueDate), reais(b.originalCents), reais(b.discountCents),
      reais(b.interestCents), reais(b.fineCents), reais(b.amountCents), reais(b.paidCents), w.outcome, w.status, w.reason || null,
      at(b.sentAt), b.paidOn === null ? null : dayDate(b.paidOn), at(b.returnedAt), b.transactionId,
    ];
  }));

  const totals = book.addWorksheet(labels.totalsTitle.slice(0, 31));
  totals.addRow([labels.title, labels.period(statement.period.from, statement.period.to)]).font = { bold: true };
  totals.addRow([labels.profile, statement.profile]);
  totals.addRow([payerLine(statement.payer, locale)]);
  const generated = totals.addRow([`${labels.generated} (${zone})`, wallClockDate(statement.generatedAt)]);
  generated.getCell(2).numFmt = dateTime;
  totals.addRow([]);
  totals.addRow([`${labels.totalsTitle}: ${labels.identity}`]).font = { bold: true };
  totals.addRow([c.kind, null, ...TOTAL_COLUMNS.map((o) => labels.outcomes[o])]).font = { bold: true };
  for (const { kind, totals: t } of totalsByKind(statement, locale)) {
    totals.addRow([kind, labels.count, ...TOTAL_COLUMNS.map((o) => t[o].count)]);
    const amounts = totals.addRow([kind, c.amount, ...TOTAL_COLUMNS.map((o) => centsToReais(t[o].cents))]);
    TOTAL_COLUMNS.forEach((_, i) => (amounts.getCell(i + 3).numFmt = CURRENCY_FORMAT));
  }
  totals.columns.forEach((col, i) => (col.width = i === 0 ? 24 : 16));
  return Buffer.from(await book.xlsx.writeBuffer());
}

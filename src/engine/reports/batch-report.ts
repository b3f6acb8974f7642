import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import type { Destination } from '../../domain/destination.js';
import { isSettled } from '../../domain/item-state.js';
import { batchProgress, getBatch } from '../../ledger/batch-repository.js';
import { itemsOfBatch, type ItemRow } from '../../ledger/item-repository.js';
import type { Ledger } from '../../ledger/open-ledger.js';
import type { BatchReport, ReportLine, StatusTotal } from '../../reports/batch-report.js';
import { batchLineage } from '../batches/index.js';
import { zipBundle, type BundleEntry } from '../../reports/bundle-zip.js';
import { fileNamePart, writeFreeFile } from '../../reports/output-file.js';
import type { ReportRenderer } from '../../reports/report-renderer.js';

export type { ReportFormat } from '../../reports/report-renderer.js';

export interface ReportOptions {
  readonly batchId: number;
  /** The file's format and language, chosen at the edge. */
  readonly renderer: ReportRenderer;
  /** Folder the file is written to (created 0700 when missing). */
  readonly dir: string;
  /** The profile the ledger is of: local ids repeat across profiles, so it names the file too. */
  readonly profile: string;
  /** Replace a file of the same name; otherwise an existing file is kept and the next free name taken (`…-2.pdf`). */
  readonly force?: boolean;
  /** One zip holding the report and every receipt saved for the batch, instead of the report alone. */
  readonly zip: boolean;
  /** The company paying (the profile's companyName and companyDocument), for the report's payer line. */
  readonly payer?: BatchReport['payer'];
  readonly now: Date;
}

export interface ReportResult {
  /** The file written: the report, or the zip. */
  readonly file: string;
  readonly report: BatchReport;
  /** Receipts put in the zip (0 without --zip). */
  readonly receipts: number;
  /** Receipts the ledger records whose file is no longer on disk: listed, left out of the zip. */
  readonly missingReceipts: readonly string[];
}

/**
 * `paybatch report`: a batch's payments, one line each (sheet line, name, document, key, amount, status, dates,
 * end-to-end id, receipt file) with totals by status, written by the renderer (CSV, XLSX or a PDF statement in the run's words);
 * with `zip`, bundled with every receipt (under `receipts/`). Files are private: they name people and amounts.
 */
export async function writeBatchReport(ledger: Ledger, o: ReportOptions): Promise<ReportResult> {
  const batch = await getBatch(ledger, o.batchId);
  const items = await itemsOfBatch(ledger, batch.id);
  const receipts: BundleEntry[] = [];
  const missingReceipts: string[] = [];
  if (o.zip) {
    for (const it of items) {
      if (!it.receipt_path) continue;
      try {
        receipts.push({ name: `receipts/${basename(it.receipt_path)}`, data: await readFile(it.receipt_path) });
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
        missingReceipts.push(it.receipt_path);
      }
    }
  }
  const inBundle = new Set(receipts.map((r) => r.name));
  const receiptShown = (it: ItemRow) => {
    if (!it.receipt_path) return null;
    if (!o.zip) return it.receipt_path;
    const name = `receipts/${basename(it.receipt_path)}`;
    return inBundle.has(name) ? name : null;
  };
  const totals: StatusTotal[] = (await batchProgress(ledger, batch.id)).map((p) => ({ status: p.status, count: p.count, sumCents: p.sumCents }));
  const { storyOf } = await batchLineage(ledger, batch.id);
  const lineageOf = (itemId: number) => {
    const s = storyOf(itemId);
    return s === null ? {} : { lineage: s.lineage };
  };
  const report: BatchReport = {
    batch: { id: batch.id, kind: batch.kind, name: batch.name, remoteId: batch.remote_id },
    ...(o.payer === undefined ? {} : { payer: o.payer }),
    generatedAt: o.now.toISOString(),
    lines: items.map((it) => ({ ...reportLine(it, receiptShown(it)), ...lineageOf(it.id) })),
    totals,
    count: totals.reduce((n, t) => n + t.count, 0),
    sumCents: totals.reduce((n, t) => n + t.sumCents, 0),
  };
  const base = reportBaseName(o.profile, batch.id, batch.name);
  const name = `${base}.${o.renderer.format}`;
  const data = await o.renderer.render(report);
  const file = await writeFreeFile(o.dir, base, o.zip ? 'zip' : o.renderer.format, o.zip ? await zipBundle([{ name, data }, ...receipts], o.now) : data, { force: o.force });
  return { file, report, receipts: receipts.length, missingReceipts };
}

/** `<profile>-batch-<id>-<name>-report`: the profile and the batch's name (file-name safe) tell reports apart. */
function reportBaseName(profile: string, batchId: number, batchName: string): string {
  return [fileNamePart(profile), `batch-${batchId}`, fileNamePart(batchName), 'report'].filter(Boolean).join('-');
}

function reportLine(it: ItemRow, receipt: string | null): ReportLine {
  const destination = it.destination_json ? (JSON.parse(it.destination_json) as Destination) : null;
  return {
    line: it.line,
    name: it.sheet_name ?? it.recipient_name,
    document: it.sheet_document ?? (destination?.document || null),
    key: it.key,
    amountCents: it.amount_cents,
    status: it.status,
    reason: it.reason,
    createdAt: it.created_at,
    settledAt: isSettled(it.status) ? it.status_changed_at : null,
    endToEndId: it.end_to_end_id,
    receipt,
  };
}

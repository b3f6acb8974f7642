import { PaybatchError, ProviderError } from '../../errors.js';
import { claimReceiptsDue, receiptsDue, recordReceiptPaths, type ReceiptDue } from '../../ledger/item-repository.js';
import type { Ledger } from '../../ledger/open-ledger.js';
import type { ProviderClient } from '../../provider/client.js';
import type { Receipt } from '../../provider/types.js';
import { adoptPixId, otherPixIdClaims, setAsideUnconfirmedPixId } from '../../ledger/pix-id-claims.js';
import { looksLikePdf, writePixReceipt } from '../../receipts/receipt-file.js';
import { crashPoint } from '../crash-point.js';
import type { News } from './news.js';

const RECEIPT_CONCURRENCY = 4;
/** A daemon claims this many receipts at a time, for this long (it renews nothing: a claim outlives one fetch). */
const CLAIM = { items: 50, ms: 60_000 };
/** Receipt paths recorded per commit: a commit each cost ~2 ms with synchronous=FULL (21 s of a 10,000-item follow-up). */
const RECORD_CHUNK = 100;

/** Items may still be paid while `until` is pending (a pass reading pages, events applied): `news` tells when. */
export interface MorePaid {
  readonly news: News;
  readonly until: Promise<unknown>;
}

export interface ReceiptsResult {
  readonly saved: readonly string[];
  readonly failed: readonly { readonly identifier: string; readonly error: string }[];
}

/**
 * Saves the receipt PDF of every paid item that has none yet (or of one batch): fetched by its pix id, checked to
 * be a PDF, written atomically into the folder of its sheet's batch (a new attempt's too) under `receiptsDir` (the
 * profile's or the ledger's own folder), and its path recorded on the item — a chunk of paths per commit. A receipt
 * written but not recorded yet (a crash in between) is fetched again next time and written over the same file,
 * which is harmless: the same path, replaced atomically. With `claimAs` (the daemon), the items are claimed a page at
 * a time, so daemons sharing a ledger fetch different receipts. With `more` (a pass), it keeps taking the items paid
 * while `more.until` is pending, each as soon as `more.news` tells it may be due.
 */
export async function fetchReceipts(
  deps: { ledger: Ledger; provider: Pick<ProviderClient, 'receipt'>; receiptsDir: string; now: () => Date; receiptWait?: number },
  o: { batchId?: number; again?: boolean; claimAs?: string; more?: MorePaid } = {},
): Promise<ReceiptsResult> {
  const { ledger } = deps;
  const saved: string[] = [];
  // By item: a later try under a corrected Pix id replaces an earlier failure.
  const failed = new Map<number, { identifier: string; error: string }>();
  let written: { itemId: number; path: string }[] = [];
  const record = async (): Promise<void> => {
    const chunk = written;
    written = [];
    await recordReceiptPaths(ledger, chunk);
    for (const w of chunk) saved.push(w.path);
  };
  const fetchOne = async (it: ReceiptDue): Promise<void> => {
    try {
      const { receipt, endToEndId } = await receiptOf(deps, it);
      if (!looksLikePdf(receipt.pdf)) throw new PaybatchError('the receipt is not a complete PDF');
      const path = await writePixReceipt(deps.receiptsDir, {
        batchName: `${it.batchName} #${it.batchId}`,
        row: it.line ?? it.id,
        recipient: it.recipient,
        endToEndId,
        pdf: receipt.pdf,
      });
      crashPoint('receipt-write');
      failed.delete(it.id);
      done.add(it.id);
      written.push({ itemId: it.id, path });
      if (written.length >= RECORD_CHUNK) await record();
    } catch (e) {
      if (!(e instanceof PaybatchError)) throw e;
      failed.set(it.id, { identifier: it.identifier, error: e.message });
    }
  };
  // Items paid meanwhile (a daemon applies events and reads pages as this runs) are taken too: a worker that finds
  // the list done asks the ledger again; with `more`, it then waits for news of items paid until `more.until`
  // settles, so a receipt is fetched as soon as its payment is known. It stops when nothing new is due after that.
  // Each receipt is tried once per run under each Pix id (a page that corrects an event's id gives a new try), and
  // one saved is not fetched again while its path waits for its commit.
  const tried = new Set<string>();
  const key = (it: ReceiptDue) => `${it.id} ${it.pixId}`;
  const done = new Set<number>();
  let due: ReceiptDue[] = [];
  let next = 0;
  // One asking at a time: workers that find the list done meanwhile wait for the same answer.
  let asking: Promise<void> | null = null;
  // The news told before the last asking began, which that asking saw.
  let seen = 0;
  const isFresh = (it: ReceiptDue) => !tried.has(key(it)) && !done.has(it.id);
  // Claims go on in id order from the last one (`claimed`), so items this run already tried (claimed again: they
  // are its own) never hold the head of the queue; past the end they start again from the first, once per asking.
  let claimed = 0;
  const claimFresh = async (holder: string): Promise<ReceiptDue[]> => {
    for (let wrapped = false; ; ) {
      const asked = await claimReceiptsDue(ledger, { holder, now: deps.now(), claimMs: CLAIM.ms, limit: CLAIM.items, after: claimed });
      if (asked.length === 0) {
        if (claimed === 0 || wrapped) return [];
        claimed = 0;
        wrapped = true;
        continue;
      }
      claimed = Math.max(...asked.map((it) => it.id));
      const fresh = asked.filter(isFresh);
      if (fresh.length > 0) return fresh;
    }
  };
  const ask = async (): Promise<void> => {
    seen = o.more?.news.count ?? 0;
    const fresh = o.claimAs === undefined ? (await receiptsDue(ledger, o)).filter(isFresh) : await claimFresh(o.claimAs);
    for (const it of fresh) tried.add(key(it));
    due = fresh;
    next = 0;
  };
  const take = async (): Promise<ReceiptDue | undefined> => {
    for (;;) {
      if (next < due.length) return due[next++];
      await (asking ??= ask().finally(() => (asking = null)));
      if (next < due.length) return due[next++];
      // Nothing new: without `more`, or once it ended with no news since that asking, this worker stops.
      if (!o.more || !(await o.more.news.since(seen, o.more.until))) return undefined;
    }
  };
  // A few at a time: each is a round trip to the provider, and receipts are what a finished batch waits for.
  const worker = async () => {
    for (let it = await take(); it; it = await take()) await fetchOne(it);
  };
  // Every worker stops before the last record, also when one fails unexpectedly (the ledger busy, say): a worker
  // still running after it would write receipts that are never recorded.
  const ended = await Promise.allSettled(Array.from({ length: RECEIPT_CONCURRENCY }, worker));
  await record();
  const failure = ended.find((e) => e.status === 'rejected');
  if (failure) throw failure.reason;
  return { saved, failed: [...failed.values()] };
}

/**
 * The receipt of a paid item, by its Pix id. A Pix id an event gave is a claim: when the provider has no receipt
 * under it (404) and another event gave the payment another id, the receipt endpoint decides — the id it has a
 * receipt for becomes the payment's (with that event's end-to-end id); with none, an id still without a receipt
 * `receiptWait` after its event is set aside.
 */
async function receiptOf(deps: { ledger: Ledger; provider: Pick<ProviderClient, 'receipt'>; now: () => Date; receiptWait?: number }, it: ReceiptDue): Promise<{ receipt: Receipt; endToEndId: string | null }> {
  try {
    return { receipt: await deps.provider.receipt(it.pixId), endToEndId: it.endToEndId };
  } catch (e) {
    if (!(e instanceof ProviderError) || e.status !== 404) throw e;
    for (const other of await otherPixIdClaims(deps.ledger, it.id, it.pixId)) {
      let receipt: Receipt;
      try {
        receipt = await deps.provider.receipt(other.pixId);
      } catch (again) {
        if (again instanceof ProviderError && again.status === 404) continue;
        throw again;
      }
      await adoptPixId(deps.ledger, { itemId: it.id, pixId: other.pixId, endToEndId: other.endToEndId, at: deps.now() });
      return { receipt, endToEndId: other.endToEndId ?? it.endToEndId };
    }
    // Still no receipt `receiptWait` after an event gave the id: the claim is set aside (with `receiptWait`: the daemon).
    if (deps.receiptWait !== undefined) {
      const now = deps.now();
      const claimedBefore = new Date(now.getTime() - deps.receiptWait * 1000);
      if (await setAsideUnconfirmedPixId(deps.ledger, { itemId: it.id, pixId: it.pixId, claimedBefore, at: now })) {
        throw new PaybatchError(`the provider has no receipt under the Pix id ${it.pixId}, which only an event gave this payment: that id is set aside`);
      }
    }
    throw e;
  }
}

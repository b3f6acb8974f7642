import type { ReportRow } from './attention-store.js';
import type { Ledger } from './ledger.js';

/** Refusals in a row (no success between them) after which the daemon stops sending a batch again by itself. */
export const REFUSALS_BEFORE_GIVING_UP = 3;

/** A refusal: the provider answered no for a reason sending again will not change (not a rate limit, not a timeout). */
function refusal(detailJson: string): { status: number; message: string } | null {
  const d = JSON.parse(detailJson) as { status?: unknown; message?: unknown };
  if (typeof d.status !== 'number' || d.status < 400 || d.status >= 500 || [408, 425, 429].includes(d.status)) return null;
  return { status: d.status, message: typeof d.message === 'string' ? d.message : `HTTP ${d.status}` };
}

interface Refused {
  readonly id: number;
  readonly name: string;
  readonly remoteId: string | null;
  readonly alertedAt: string | null;
  readonly last: { status: number; message: string };
  readonly lastAt: string;
}

/**
 * Unfinished batches whose last REFUSALS_BEFORE_GIVING_UP answers to creating, filling or starting them were refusals,
 * with no success since (an outcome left unknown neither counts nor resets the count).
 */
async function refused(ledger: Ledger): Promise<Refused[]> {
  const batches = await ledger.all(
    ledger.db.selectFrom('batches').select(['id', 'name', 'remote_id', 'refusal_alerted_at']).where('status', 'in', ['draft', 'created', 'submitted']).orderBy('id'),
  );
  const found: Refused[] = [];
  for (const b of batches) {
    const outcomes = await ledger.all(
      ledger.db.selectFrom('provider_calls').select(['outcome', 'detail_json', 'created_at'])
        .where('subject', '=', `batch:${b.id}`).where('phase', '=', 'outcome')
        .where('operation', 'in', ['create_batch', 'add_items', 'start_batch']).where('outcome', 'in', ['ok', 'error'])
        .orderBy('id', 'desc').limit(REFUSALS_BEFORE_GIVING_UP),
    );
    const refusals = outcomes.map((o) => (o.outcome === 'error' ? refusal(o.detail_json ?? '{}') : null));
    if (refusals.length < REFUSALS_BEFORE_GIVING_UP || refusals.some((r) => r === null)) continue;
    found.push({ id: b.id, name: b.name, remoteId: b.remote_id, alertedAt: b.refusal_alerted_at, last: refusals[0]!, lastAt: outcomes[0]!.created_at });
  }
  return found;
}

/** Ids of the batches the provider keeps refusing: the daemon leaves them to a person. */
export async function batchesRefused(ledger: Ledger): Promise<Set<number>> {
  return new Set((await refused(ledger)).map((r) => r.id));
}

/** The batches the provider keeps refusing that no alert has named yet, with the provider's last answer. */
export async function refusedBatchesToReport(ledger: Ledger): Promise<ReportRow[]> {
  return (await refused(ledger))
    .filter((r) => r.alertedAt === null)
    .map((r) => ({
      ref: r.id,
      alertedAt: null,
      identifier: `batch #${r.id}`,
      batch: r.name,
      line: null,
      key: '',
      amountCents: 0,
      status: `refused ${REFUSALS_BEFORE_GIVING_UP} times in a row${r.remoteId ? ` (remote batch ${r.remoteId})` : ''}: ${r.last.message}`,
      lastUpdate: r.lastAt,
      recipient: null,
    }));
}

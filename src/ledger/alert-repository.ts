import type { Ledger } from './ledger.js';

/** An alert as `paybatch alerts list` shows it (its JSON fields are a stable contract). */
export interface StoredAlert {
  readonly id: number;
  readonly kind: string;
  readonly title: string;
  readonly summary: string;
  /** The AlertItems the alert listed when it was raised. */
  readonly items: unknown[];
  /** ISO 8601. */
  readonly createdAt: string;
  /** What each channel did with it (ChannelResult[]); empty before it was sent. */
  readonly channels: unknown[];
  /** ISO 8601, or null while nobody has acknowledged it. */
  readonly ackedAt: string | null;
}

/** Alerts, newest first: the open ones, or every one with `includeAcked`. */
export async function listAlerts(ledger: Ledger, o: { includeAcked: boolean }): Promise<StoredAlert[]> {
  let q = ledger.db.selectFrom('alerts').selectAll().orderBy('id', 'desc');
  if (!o.includeAcked) q = q.where('acked_at', 'is', null);
  return (await ledger.all(q)).map((a) => ({
    id: a.id,
    kind: a.kind,
    title: a.title,
    summary: a.summary,
    items: JSON.parse(a.items_json) as unknown[],
    createdAt: a.created_at,
    channels: a.channels_json ? (JSON.parse(a.channels_json) as unknown[]) : [],
    ackedAt: a.acked_at,
  }));
}

export type AcknowledgeResult = { readonly ok: true; readonly acknowledged: number } | { readonly ok: false; readonly unknownIds: number[] };

/**
 * Marks open alerts as acknowledged at `at` (ISO 8601): every open one, or those numbered `ids`. When an id names no
 * alert, nothing is changed and those ids are returned. Alerts already acknowledged are left as they are (not counted).
 */
export async function acknowledgeAlerts(ledger: Ledger, ids: readonly number[] | 'all', at: string): Promise<AcknowledgeResult> {
  return ledger.transaction(async (tx): Promise<AcknowledgeResult> => {
    let q = tx.db.updateTable('alerts').set({ acked_at: at }).where('acked_at', 'is', null);
    if (ids !== 'all') {
      const wanted = [...new Set(ids)];
      const known = new Set((await tx.all(tx.db.selectFrom('alerts').select('id').where('id', 'in', wanted))).map((r) => r.id));
      const unknownIds = wanted.filter((id) => !known.has(id));
      if (unknownIds.length) return { ok: false, unknownIds };
      q = q.where('id', 'in', wanted);
    }
    return { ok: true, acknowledged: (await tx.run(q)).changes };
  });
}

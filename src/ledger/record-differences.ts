import type { Ledger } from './ledger.js';
import type { RecordDifferencesTable } from './schema.js';

/** A way a batch's item pages differ from the ledger, as found. */
export interface FoundDifference {
  readonly identifier: string;
  readonly line: number | null;
  readonly field: RecordDifferencesTable['field'];
  /** As the ledger has it; null: the ledger does not hold the item (or the field). */
  readonly ledger: string | number | null;
  /** As the provider's item pages show it; null: the provider does not show the item (or the field). */
  readonly provider: string | number | null;
}

/** Keeps what the comparison of a batch with its item pages found, each to be alerted once. Call inside a transaction. */
export async function recordDifferences(ledger: Ledger, batchId: number, found: readonly FoundDifference[], at: Date): Promise<void> {
  for (const d of found) {
    await ledger.run(
      ledger.db.insertInto('record_differences').values({
        batch_id: batchId,
        identifier: d.identifier,
        line: d.line,
        field: d.field,
        ledger_value: d.ledger === null ? null : String(d.ledger),
        provider_value: d.provider === null ? null : String(d.provider),
        found_at: at.toISOString(),
      }),
    );
  }
}

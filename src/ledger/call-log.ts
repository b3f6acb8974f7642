import { ProviderError } from '../errors.js';
import type { Ledger } from './open-ledger.js';

/**
 * The append-only record of provider calls that move money: the intent is written (and committed) before the call
 * is sent, the outcome after. After a crash an intent without outcome says exactly what may have happened.
 */
export function logIntent(ledger: Ledger, operation: string, subject: string, detail: unknown, now: Date): number {
  return ledger.run(
    ledger.db.insertInto('provider_calls').values({
      phase: 'intent',
      intent_id: null,
      operation,
      subject,
      detail_json: JSON.stringify(detail),
      outcome: null,
      created_at: now.toISOString(),
    }),
  ).lastInsertRowid;
}

export function logOutcome(ledger: Ledger, intentId: number, outcome: 'ok' | 'error' | 'unknown', detail: unknown, now: Date): void {
  const intent = ledger.first(ledger.db.selectFrom('provider_calls').select(['operation', 'subject']).where('id', '=', intentId));
  if (!intent) throw new Error(`no intent ${intentId} in provider_calls`);
  ledger.run(
    ledger.db.insertInto('provider_calls').values({
      phase: 'outcome',
      intent_id: intentId,
      operation: intent.operation,
      subject: intent.subject,
      detail_json: JSON.stringify(detail),
      outcome,
      created_at: now.toISOString(),
    }),
  );
}

/** What a failed call's outcome row says: unknown when the provider may have applied it. */
export function failureOutcome(error: unknown): { outcome: 'error' | 'unknown'; detail: unknown } {
  if (error instanceof ProviderError) {
    return { outcome: error.outcomeUnknown ? 'unknown' : 'error', detail: { status: error.status, code: error.code, message: error.message } };
  }
  return { outcome: 'unknown', detail: { message: error instanceof Error ? error.message : String(error) } };
}

/** The calls about one subject (`batch:12`), oldest first: what `batch show` reports. */
export function callsOf(ledger: Ledger, subject: string) {
  return ledger.all(ledger.db.selectFrom('provider_calls').selectAll().where('subject', '=', subject).orderBy('id'));
}

import { ProviderError } from '../errors.js';
import type { Ledger } from './ledger.js';

/**
 * The append-only record of provider calls that move money: the intent is written (and committed) before the call
 * is sent, the outcome after. After a crash an intent without outcome says exactly what may have happened.
 */
/** Money-moving operations, one naming scheme (snake_case verbs on what they move). */
export type CallOperation = 'create_batch' | 'add_items' | 'start_batch' | 'delete_batch' | 'pay_bill';

export async function logIntent(ledger: Ledger, operation: CallOperation, subject: string, detail: unknown, now: Date): Promise<number> {
  const row = await ledger.first(
    ledger.db.insertInto('provider_calls').values({
      phase: 'intent',
      intent_id: null,
      operation,
      subject,
      detail_json: JSON.stringify(detail),
      outcome: null,
      created_at: now.toISOString(),
    }).returning('id'),
  );
  return row!.id;
}

export async function logOutcome(ledger: Ledger, intentId: number, outcome: 'ok' | 'error' | 'unknown', detail: unknown, now: Date): Promise<void> {
  const intent = await ledger.first(ledger.db.selectFrom('provider_calls').select(['operation', 'subject']).where('id', '=', intentId));
  if (!intent) throw new Error(`no intent ${intentId} in provider_calls`);
  await ledger.run(
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

/** Whether this intent has its outcome already (a provider event may learn it before the call answers). */
export async function hasOutcome(ledger: Ledger, intentId: number): Promise<boolean> {
  return (await ledger.first(ledger.db.selectFrom('provider_calls').select('id').where('intent_id', '=', intentId).where('phase', '=', 'outcome'))) !== undefined;
}

/**
 * Writes the outcome of the calls about `subject` whose intent has none: what was learnt another way than by the
 * call's answer (a provider event, or a person who checked the provider's statement).
 */
export async function closeOpenIntents(ledger: Ledger, operation: CallOperation, subject: string, outcome: 'ok' | 'error' | 'unknown', detail: unknown, now: Date): Promise<void> {
  const open = await ledger.all(
    ledger.db
      .selectFrom('provider_calls as i')
      .select('i.id')
      .where('i.phase', '=', 'intent')
      .where('i.operation', '=', operation)
      .where('i.subject', '=', subject)
      .where(({ not, exists, selectFrom }) => not(exists(selectFrom('provider_calls as o').select('o.id').whereRef('o.intent_id', '=', 'i.id')))),
  );
  for (const { id } of open) await logOutcome(ledger, id, outcome, detail, now);
}

/**
 * One money-moving call, recorded around its sending: the intent is committed before `send` runs; when it answers,
 * `record(answer, tx)` writes what the ledger learns (through `tx`) and says the outcome, in one transaction with the
 * outcome row; when it throws, the failure (unknown when the provider may have applied it) is recorded, `onFailure`
 * runs, and the error is rethrown. After a crash, an intent without an outcome says exactly what may have happened.
 */
export async function recordedCall<T>(
  ledger: Ledger,
  call: { operation: CallOperation; subject: string; detail: unknown; now: () => Date },
  send: () => Promise<T>,
  record: (answer: T, tx: Ledger) => { outcome?: 'ok' | 'error'; detail: unknown } | Promise<{ outcome?: 'ok' | 'error'; detail: unknown }>,
  onFailure?: (error: unknown) => void | Promise<void>,
): Promise<T> {
  const intent = await logIntent(ledger, call.operation, call.subject, call.detail, call.now());
  let answer: T;
  try {
    answer = await send();
  } catch (e) {
    const f = failureOutcome(e);
    await logOutcome(ledger, intent, f.outcome, f.detail, call.now());
    await onFailure?.(e);
    throw e;
  }
  await ledger.transaction(async (tx) => {
    const { outcome = 'ok', detail } = await record(answer, tx);
    await logOutcome(tx, intent, outcome, detail, call.now());
  });
  return answer;
}

/** What a failed call's outcome row says: unknown when the provider may have applied it. */
export function failureOutcome(error: unknown): { outcome: 'error' | 'unknown'; detail: unknown } {
  if (error instanceof ProviderError) {
    return { outcome: error.outcomeUnknown ? 'unknown' : 'error', detail: { status: error.status, code: error.code, message: error.message } };
  }
  return { outcome: 'unknown', detail: { message: error instanceof Error ? error.message : String(error) } };
}

/**
 * Whether a batch's start was sent and not refused: the provider may pay its items, and say so, before the start's
 * answer is recorded.
 */
export async function startSent(ledger: Ledger, batchId: number): Promise<boolean> {
  const subject = `batch:${batchId}`;
  const intents = await ledger.all(
    ledger.db.selectFrom('provider_calls as i').select('i.id').where('i.subject', '=', subject).where('i.phase', '=', 'intent').where('i.operation', '=', 'start_batch')
      .where(({ not, exists, selectFrom }) => not(exists(selectFrom('provider_calls as o').select('o.id').where('o.subject', '=', subject).whereRef('o.intent_id', '=', 'i.id').where('o.outcome', '=', 'error')))),
  );
  return intents.length > 0;
}

/** The calls about one subject (`batch:12`), oldest first: what `batch show` reports. */
export async function callsOf(ledger: Ledger, subject: string) {
  return ledger.all(ledger.db.selectFrom('provider_calls').selectAll().where('subject', '=', subject).orderBy('id'));
}

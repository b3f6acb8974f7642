import { setTimeout as sleep } from 'node:timers/promises';
import type { ChannelResult, Alert } from '../alerts/alert.js';
import type { Settings } from '../config/settings.js';
import type { CallbackHandler } from '../engine/webhooks/index.js';
import type { ApprovalGate } from '../engine/approvals/index.js';
import type { BillDocumentWriter } from '../engine/bills/index.js';
import { followUpPass, News, type PassProblem, type PassResult } from '../engine/follow-up/index.js';
import { writeOwedReturnFiles } from '../engine/reports/index.js';
import type { Ledger } from '../ledger/open-ledger.js';
import type { CertificateFacts } from '../network/certificate-facts.js';
import type { ProviderClient } from '../provider/client.js';
import { PaybatchError } from '../errors.js';
import { isLedgerUnavailable } from '../ledger/ledger-unavailable.js';
import { isEventStored } from '../ledger/event-repository.js';
import { acquireDaemonLock } from './lock.js';
import { passRecord } from './pass-record.js';
import type { AmountUnit } from '../domain/webhook-event.js';
import type { WebhookMethodSetting } from '../domain/webhook-proof.js';
import { skewed, type LedgerClock } from '../ledger/process-clock.js';
import { storeDeliveries, type DeliveryState, type DeliveryStore } from './delivery-store.js';
import type { DaemonLogEntry } from './log-events.js';
import { startReceiver, type RunningReceiver } from './webhook-receiver.js';

export type LogEntry = DaemonLogEntry;

export interface DaemonDeps {
  readonly ledger: Ledger;
  readonly provider: ProviderClient;
  readonly now: () => Date;
  readonly settings: Settings;
  readonly receiptsDir: string;
  /** Writes the bills' documents in the profile's language (bound at the edge that starts the daemon). */
  readonly billDocuments: BillDocumentWriter;
  readonly profile: string;
  readonly sandbox: boolean;
  readonly send: (alert: Alert) => Promise<readonly ChannelResult[]>;
  readonly log: (entry: LogEntry) => void;
  /** Aborted on SIGINT/SIGTERM: stop accepting deliveries, finish the pass in flight, release the lock. */
  readonly signal: AbortSignal;
  readonly onCallback?: CallbackHandler;
  /** The profile's approval policy and approvers: the daemon's starts wait for the approvals they demand. */
  readonly approvals?: ApprovalGate;
  /** `now` by the ledger's clock: read again at every pass, and reported in `/healthz` (process-clock.ts). */
  readonly clock?: LedgerClock;
  /** The client certificate of the provider's calls, alerted about from 30 days before it ends. */
  readonly certificate?: CertificateFacts | null;
  /** Where the return files of batches imported from CNAB 240 remittances are written once they end (`cnabReturnDir`). */
  readonly cnabReturnDir?: string;
}

/**
 * The bound on each statement of the daemon's PostgreSQL sessions: its transactions are small, and one held up by
 * a host that paused holding rows ends well before that host's lease (a minute) runs out.
 */
export const DAEMON_STATEMENT_TIMEOUT_MS = 30_000;

export interface DaemonOptions {
  readonly once: boolean;
  readonly intervalSeconds: number;
  readonly listen: { readonly host: string; readonly port: number };
  /** The URL the provider should call; subscribed at start when given or when the provider is the embedded sandbox. */
  readonly subscribeUrl: 'auto' | string | null;
  /** header: see ReceiverOptions.header. */
  readonly webhook: { readonly method: WebhookMethodSetting; readonly secret: string; readonly header?: string | undefined; readonly amountUnit?: AmountUnit | undefined } | null;
  /** Stop once nothing is left to follow (every item settled, every receipt saved). */
  readonly untilSettled: boolean;
  readonly timeoutSeconds: number | null;
}

/** While the ledger is away, a pass is tried again this often (or every --interval, when shorter). */
const UNAVAILABLE_RETRY_SECONDS = 5;

export interface DaemonResult {
  readonly passes: number;
  readonly last: PassResult | null;
  readonly timedOut: boolean;
}

/**
 * True when a pass leaves nothing more to do for the payments in the ledger, down to the batches' own statuses: a
 * batch whose items all settled is held settled only once the next pass reads it, so that pass is made first. A
 * paid payment inside its return watch is paid, and bills (whose outcome the daemon does not follow) never keep it.
 */
export function nothingLeft(p: PassResult): boolean {
  return p.pending === 0 && p.unsent === 0 && p.unsettledBatches === 0 && p.missingReceipts === 0 && p.reprocessed === 0 && p.errors.length === 0;
}

/** Payments whose outcome nobody knows after a pass: a bill or a Pix call whose answer was lost, not yet resolved. */
export function outcomesUnknown(p: PassResult): boolean {
  return p.unknownBills > 0 || p.unknownPixCalls > 0;
}

/** The pass changed something: an item moved, a batch was sent, a return paid again, or a receipt saved. */
function madeProgress(p: PassResult): boolean {
  return p.reconciled.changed > 0 || p.submitted.length > 0 || p.reprocessed > 0 || p.receipts.saved.length > 0;
}

/**
 * The daemon: the webhook receiver (unless --once) and follow-up passes every interval until stopped. Each delivery
 * is stored before it is acknowledged and applied right after, in order (storeDeliveries); each pass is safe to cut
 * short. On an SQLite ledger it holds
 * the ledger's one daemon lock; on a PostgreSQL ledger several daemons (hosts) work together, splitting each pass by
 * leases (see followUpPass). While the ledger cannot be reached, deliveries get 503 and passes wait for it.
 */
export async function runDaemon(deps: DaemonDeps, o: DaemonOptions): Promise<DaemonResult> {
  const { ledger, log, signal } = deps;
  const lock = ledger.dialect === 'sqlite' ? await acquireDaemonLock(ledger, deps.now) : null;
  const record = passRecord(ledger, { intervalSeconds: o.once ? null : o.intervalSeconds, now: deps.now });
  if (!lock) log({ level: 'info', event: 'shared_ledger', msg: 'shared ledger: working alongside any other daemons on it', ledger: ledger.file });
  // Hosts sharing a ledger go by its database's clock; one whose own clock is off says so, once per change.
  let wasSkewed = false;
  const syncClock = async () => {
    if (!deps.clock || ledger.dialect === 'sqlite') return;
    const reading = await deps.clock.sync(ledger);
    if (skewed(reading) !== wasSkewed) {
      wasSkewed = !wasSkewed;
      if (wasSkewed) log({ level: 'warn', event: 'clock_skewed', msg: "this host's clock is off the ledger database's: going by the database's (set this host's clock right, NTP)", offsetMs: Math.round(reading.offsetMs) });
      else log({ level: 'info', event: 'clock_agrees', msg: "this host's clock agrees with the ledger database's again" });
    }
  };
  await syncClock();
  let receiver: RunningReceiver | null = null;
  let deliveries: DeliveryStore | null = null;
  // Events applied while a pass fetches receipts: the items they paid are fetched in that pass, not the next.
  const news = new News();
  let passes = 0;
  let last: PassResult | null = null;
  let timedOut = false;
  const deadline = o.timeoutSeconds === null ? null : Date.now() + o.timeoutSeconds * 1000;
  try {
    await record.started();
    if (!o.once && o.webhook) {
      const webhook = o.webhook;
      const eventReading = { amountUnit: webhook.amountUnit, reasonCodeFields: deps.provider.dialect.reasonCodeFields, reasonMessageFields: deps.provider.dialect.reasonMessageFields };
      const rules = { onCallback: deps.onCallback, instabilityWords: deps.provider.dialect.instabilityWords, statusWords: deps.provider.dialect.statusWords };
      const store = (deliveries = storeDeliveries(ledger, rules, { reading: eventReading, log, news }));
      receiver = await startReceiver({
        host: o.listen.host,
        port: o.listen.port,
        method: webhook.method,
        secret: webhook.secret,
        header: webhook.header,
        eventReading,
        onEvent: store.onEvent,
        // /healthz asks the ledger the cheapest question deliveries depend on: one key lookup of webhook_events.
        health: () => isEventStored(ledger, ''),
        status: () => ({ ...clockStatus(deps.clock), events: eventsStatus(store.state()) }),
        // A signed delivery's timestamp is judged by the ledger's clock too: a host whose own is off refuses none.
        now: () => deps.now().getTime(),
        log: (e) => log(e),
      });
      const url = o.subscribeUrl === 'auto' ? receiver.url : o.subscribeUrl;
      if (url) {
        await deps.provider.subscribe(url, webhook.secret);
        log({ level: 'info', event: 'subscribed', msg: 'subscribed to provider events', url });
      }
    }
    while (!signal.aborted) {
      const pass = await syncClock().then(() => followUpPass({ ...deps, news })).catch((e: unknown) => {
        if (!isLedgerUnavailable(e)) throw e;
        log({ level: 'warn', event: 'ledger_unreachable', msg: 'the ledger cannot be reached (or stayed busy with other hosts); trying again', error: (e as Error).message });
        return null;
      });
      if (!pass) {
        if (o.once) {
          throw new PaybatchError(`The ledger ${ledger.file} cannot be reached.`, {
            hint: 'Check the database server; the next run continues where this one stopped.',
            reason: { code: 'ledger_unreachable', ledger: ledger.file, error: null },
          });
        }
        await sleep(Math.min(o.intervalSeconds, UNAVAILABLE_RETRY_SECONDS) * 1000, undefined, { signal }).catch(() => undefined);
        continue;
      }
      // A remittance's batch that ended gets its return file for the ERP (cnabReturnDir).
      if (deps.cnabReturnDir) await writeReturnFiles(deps, deps.cnabReturnDir, log);
      last = pass;
      passes += 1;
      await lock?.heartbeat();
      await record.passed();
      logPass(log, last);
      if (o.once || (o.untilSettled && nothingLeft(last))) break;
      if (deadline !== null && Date.now() >= deadline) {
        timedOut = true;
        log({ level: 'warn', event: 'timeout_reached', msg: 'stopping: --timeout reached with payments still open' });
        break;
      }
      // A pass that got somewhere may have made more work possible now (a batch to start, receipts to fetch): go on.
      if (madeProgress(last) && !nothingLeft(last)) continue;
      await sleep(o.intervalSeconds * 1000, undefined, { signal }).catch(() => undefined);
    }
  } finally {
    await receiver?.close();
    await deliveries?.close();
    await record.stopped();
    await lock?.release();
  }
  return { passes, last, timedOut };
}

/**
 * The return files owed (cnabReturnDir). A folder that cannot be written stops them, not the payments: the log says
 * so at each pass until it is fixed.
 */
async function writeReturnFiles(deps: DaemonDeps, dir: string, log: (e: LogEntry) => void): Promise<void> {
  try {
    for (const f of await writeOwedReturnFiles({ ledger: deps.ledger, now: deps.now, dir })) {
      log({ level: 'info', event: 'return_file_written', msg: 'wrote a CNAB 240 return file', ...('batchId' in f ? { batch: f.batchId } : { remittance: f.remittance }), file: f.path });
    }
  } catch (e) {
    if (typeof (e as NodeJS.ErrnoException).syscall !== 'string') throw e;
    log({ level: 'warn', event: 'return_file_failed', msg: 'cannot write CNAB 240 return files', dir, error: (e as Error).message });
  }
}

function logPass(log: (e: LogEntry) => void, p: PassResult): void {
  log({
    level: p.errors.length ? 'warn' : 'info',
    event: 'pass_done',
    msg: 'pass done',
    pending: p.pending,
    unsent: p.unsent,
    changed: p.reconciled.changed,
    reprocessed: p.reprocessed,
    scheduledBills: p.scheduledBills.sent.length,
    receipts: p.receipts.saved.length,
    missingReceipts: p.missingReceipts,
    unsettledBatches: p.unsettledBatches,
    unknownBills: p.unknownBills,
    unknownPixCalls: p.unknownPixCalls,
    stale: p.attention.stale,
    alerts: p.attention.alerts.length,
    openAlerts: p.openAlerts,
    errors: p.errors.length,
  });
  for (const e of p.errors) log({ level: 'warn', event: 'pass_problem', msg: passProblemText(e), step: e.step, ...(e.batchId === undefined ? {} : { batchId: e.batchId }), ...(e.subject === undefined ? {} : { subject: e.subject }), error: e.error });
  // A count, not the paths: receipt file names carry people's names.
  if (p.swept.length) log({ level: 'info', event: 'receipt_files_swept', msg: 'removed temporary receipt files that killed writes left', count: p.swept.length });
  if (p.scheduledBills.sent.length) log({ level: 'info', event: 'scheduled_bills_sent', msg: `sent ${p.scheduledBills.sent.length} scheduled bill(s) of CNAB 240 remittances`, count: p.scheduledBills.sent.length });
  for (const id of p.scheduledStarts) log({ level: 'info', event: 'scheduled_start', msg: 'started a scheduled batch (import --pay-on)', batch: id });
  for (const u of p.reconciled.unknownStatuses) log({ level: 'warn', event: 'unknown_status', msg: 'unknown item status from the provider (kept, not guessed)', identifier: u.identifier, status: u.status });
  for (const a of p.attention.alerts) log({ level: 'warn', event: 'alert_raised', msg: `alert: ${a.title}`, alertId: a.id, kind: a.kind, items: a.items.length });
}

/** What `/healthz` says of the events received: those stored and not applied yet, and how long the oldest waited. */
function eventsStatus(s: DeliveryState): Record<string, unknown> {
  return { waitingToApply: s.waiting, oldestWaitMs: s.oldestWaitMs };
}

/** What `/healthz` says of this host's clock against the ledger database's (nothing on SQLite, whose clock is this host's). */
function clockStatus(clock: LedgerClock | undefined): Record<string, unknown> {
  const r = clock?.reading;
  if (!r) return {};
  return { clock: { offsetMs: Math.round(r.offsetMs), roundTripMs: r.roundTripMs, skewed: skewed(r), goesBy: 'the ledger database' } };
}

/** A pass's failure in the log's English, as log shippers have matched it: `reconciling batch #3: <error>`. */
function passProblemText(p: PassProblem): string {
  const what = {
    reconcile: `reconciling batch #${p.batchId}`,
    reprocess: 'paying again what instability left unpaid',
    send: `sending batch #${p.batchId}`,
    stray_batches: 'settling stray remote batches',
    scheduled_start: `starting scheduled batch #${p.batchId}`,
    scheduled_bill: `paying scheduled bill ${p.subject}`,
    receipt: `receipt of ${p.subject}`,
  }[p.step];
  return `${what}: ${p.error}`;
}

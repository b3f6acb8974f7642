import type { ColumnType, Generated } from 'kysely';
import type { ItemState } from '../domain/item-state.js';
import type { DestinationType } from '../domain/account-destination.js';

/** The ledger's tables as kysely sees them; migrations/ is the source of truth for the SQL. */
export interface Database {
  imports: ImportsTable;
  batches: BatchesTable;
  items: ItemsTable;
  provider_calls: ProviderCallsTable;
  webhook_events: WebhookEventsTable;
  alerts: AlertsTable;
  daemon_lock: DaemonLockTable;
  import_claims: ImportClaimsTable;
  batch_claims: BatchClaimsTable;
  bills: BillsTable;
  retries: RetriesTable;
  batch_schedules: BatchSchedulesTable;
  work_leases: WorkLeasesTable;
  approvals: ApprovalsTable;
  maker_signatures: MakerSignaturesTable;
  item_corrections: ItemCorrectionsTable;
  record_differences: RecordDifferencesTable;
  pix_id_claims: PixIdClaimsTable;
  stray_batches: StrayBatchesTable;
  daemon_passes: DaemonPassesTable;
  remittances: RemittancesTable;
  remittance_titles: RemittanceTitlesTable;
  return_files: ReturnFilesTable;
  remittance_bills: RemittanceBillsTable;
  bill_return_files: BillReturnFilesTable;
  bill_schedules: BillSchedulesTable;
  remittance_bill_lines: RemittanceBillLinesTable;
}

export interface ImportsTable {
  id: Generated<number>;
  file_hash: string;
  file_name: string;
  row_count: number;
  item_count: number;
  rejected_count: number;
  created_at: string;
}

export type BatchStatus = 'draft' | 'created' | 'submitted' | 'started' | 'settled' | 'deleted';

export interface BatchesTable {
  id: Generated<number>;
  import_id: number | null;
  kind: 'sheet' | 'reprocess';
  name: string;
  remote_name: string;
  remote_id: string | null;
  status: BatchStatus;
  remote_status: string | null;
  start_requested: Generated<number>;
  item_count: number;
  total_cents: number;
  created_at: string;
  updated_at: string;
  started_at: string | null;
  settled_at: ColumnType<string | null, string | null | undefined, string | null>;
  /** When the daemon last read the batch's item pages after it settled (the return watch). */
  read_at: ColumnType<string | null, string | null | undefined, string | null>;
  /** The fingerprint of the key that signed as the batch's maker, shown only: `maker_signatures` is what counts. */
  imported_by: ColumnType<string | null, string | null | undefined, string | null>;
  /** The generation of the submission claim allowed to write the remote batch and status (batch-claim.ts). */
  claim_generation: Generated<number>;
  /** When the provider's repeated refusals of it were alerted (refused-batches.ts). */
  refusal_alerted_at: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface ItemsTable {
  id: Generated<number>;
  batch_id: number;
  line: number | null;
  identifier: string;
  key: string;
  key_type: DestinationType;
  amount_cents: number;
  description: string;
  sheet_name: string | null;
  sheet_document: string | null;
  destination_json: string | null;
  recipient_name: string | null;
  status: ItemState;
  remote_status: string | null;
  remote_item_id: string | null;
  pix_id: string | null;
  end_to_end_id: string | null;
  reason: string | null;
  return_action: 'reprocess' | 'final' | null;
  attempt: Generated<number>;
  original_item_id: number | null;
  call_attempts: Generated<number>;
  last_error: string | null;
  receipt_path: string | null;
  /** When the pass reported that no Pix id was ever given for this paid item, so its receipt cannot be fetched. */
  receipt_unavailable_at: ColumnType<string | null, string | null | undefined, string | null>;
  /** The daemon fetching this item's receipt, until receipt_claim_until (a shared ledger: see claimReceiptsDue). */
  receipt_claimed_by: ColumnType<string | null, string | null | undefined, string | null>;
  receipt_claim_until: ColumnType<string | null, string | null | undefined, string | null>;
  /** When the provider's own item page showed this item returned: only then may it be paid again. */
  return_confirmed_at: ColumnType<string | null, string | null | undefined, string | null>;
  /** The refund event that reported the return; quarantined if the provider's page shows the payment paid instead. */
  return_claim: ColumnType<string | null, string | null | undefined, string | null>;
  alerted_at: string | null;
  created_at: string;
  updated_at: string;
  status_changed_at: string;
  /** `batch retry`: the item this one pays again, and the first item of its sheet row. */
  retry_of: ColumnType<number | null, number | null | undefined, number | null>;
  retry_root_id: ColumnType<number | null, number | null | undefined, number | null>;
  /** The state the provider's own item page last showed (0014): the ledger's state is provisional until they agree. */
  record_state: ColumnType<ItemState | null, ItemState | null | undefined, ItemState | null>;
  /** When the payment settled (0020), kept if it is later returned; set by updateItem and markItemsSent. */
  paid_at: ColumnType<string | null, string | null | undefined, string | null>;
}

/** An item whose state, reached by an event, the provider's own page contradicted: the page won (0014). */
export interface ItemCorrectionsTable {
  id: Generated<number>;
  item_id: number;
  claimed: ItemState;
  recorded: ItemState;
  remote_status: string;
  corrected_at: string;
  alerted_at: ColumnType<string | null, string | null | undefined, string | null>;
}

/** A way a batch's item pages, when they settled it, differed from the ledger (0015). */
export interface RecordDifferencesTable {
  id: Generated<number>;
  batch_id: number;
  identifier: string;
  line: number | null;
  field: 'status' | 'amount' | 'pixId' | 'endToEndId' | 'presence';
  ledger_value: string | null;
  provider_value: string | null;
  found_at: string;
  alerted_at: ColumnType<string | null, string | null | undefined, string | null>;
}

/** A Pix id an event gave a payment (0015): a claim, until the receipt endpoint has a receipt for it. */
export interface PixIdClaimsTable {
  id: Generated<number>;
  item_id: number;
  pix_id: string;
  end_to_end_id: string | null;
  event_id: string;
  claimed_at: string;
}

export interface ProviderCallsTable {
  id: Generated<number>;
  phase: 'intent' | 'outcome';
  intent_id: number | null;
  operation: string;
  subject: string;
  detail_json: string | null;
  outcome: 'ok' | 'error' | 'unknown' | null;
  created_at: string;
}

export interface WebhookEventsTable {
  event_id: string;
  kind: 'pix' | 'callback';
  delivery_id: string | null;
  received_at: string;
  payload_json: string;
  effect: string;
  topic: ColumnType<EventTopic, EventTopic | undefined, EventTopic>;
  /** Why the event was kept aside instead of applied (it disagreed with the ledger); null when applied. */
  quarantine: ColumnType<string | null, string | null | undefined, string | null>;
  alerted_at: ColumnType<string | null, string | null | undefined, string | null>;
}

/** What an event was about, as the callback classifier read it. */
export type EventTopic = 'pix' | 'bill' | 'ted' | 'unknown';

export interface AlertsTable {
  id: Generated<number>;
  kind: string;
  fingerprint: string;
  title: string;
  summary: string;
  items_json: string;
  created_at: string;
  last_sent_at: string;
  send_count: Generated<number>;
  channels_json: string | null;
  acked_at: string | null;
  /** The claim of the send in flight: only its holder records the channels' answer (alert-repository.ts). */
  send_token: Generated<number>;
  send_until: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface DaemonLockTable {
  id: number;
  pid: number;
  host: string;
  started_at: string;
  heartbeat_at: string;
}

export interface ImportClaimsTable {
  file_hash: string;
  file_name: string;
  pid: number;
  host: string;
  started_at: string;
}

export type ScheduleState = 'scheduled' | 'started' | 'missed' | 'cancelled';

/** A batch to be started on a business day by the daemon (`import --pay-on`). */
export interface BatchSchedulesTable {
  batch_id: number;
  /** The date asked, `YYYY-MM-DD`. */
  pay_on: string;
  /** ISO instant: 08:00 São Paulo of the business day the batch starts on. */
  start_at: string;
  state: ScheduleState;
  created_at: string;
  updated_at: string;
  last_error: string | null;
  alerted_at: string | null;
}

export interface BatchClaimsTable {
  batch_id: number;
  pid: number;
  host: string;
  started_at: string;
  generation: Generated<number>;
  /** Renewed by the holder; past it (by the ledger's clock) another run takes the claim over. Null: an older paybatch's. */
  expires_at: ColumnType<string | null, string | null | undefined, string | null>;
}

export type BillStatus = 'intent' | 'paid' | 'scheduled' | 'unknown' | 'failed' | 'returned';

export interface BillsTable {
  id: Generated<number>;
  barcode: string;
  line: string;
  kind: 'bank' | 'collection';
  description: string | null;
  beneficiary: string | null;
  beneficiary_document: string | null;
  assignor: string | null;
  due_date: string | null;
  amount_cents: number;
  status: BillStatus;
  remote_status: string | null;
  transaction_id: string | null;
  settle_date: string | null;
  amount_paid_cents: number | null;
  result_json: string | null;
  return_reason: string | null;
  return_meaning: string | null;
  returned_at: string | null;
  receipt_path: string | null;
  forced: Generated<number>;
  error: string | null;
  alerted_at: string | null;
  created_at: string;
  updated_at: string;
  /** When an alert named this bill as without news (its outcome unknown, or scheduled and past its date). */
  news_alerted_at: ColumnType<string | null, string | null | undefined, string | null>;
  /** The current document's kind (0011_bill_documents); receipt_path is its file. */
  document_kind: ColumnType<BillDocumentKind | null, BillDocumentKind | null | undefined, BillDocumentKind | null>;
  payer: ColumnType<string | null, string | null | undefined, string | null>;
  payer_document: ColumnType<string | null, string | null | undefined, string | null>;
  bill_amount_cents: ColumnType<number | null, number | null | undefined, number | null>;
  provider_timestamp: ColumnType<string | null, string | null | undefined, string | null>;
  /** The provider's details when it was paid (0018_bill_charges), centavos; null when they left the field out. */
  original_cents: ColumnType<number | null, number | null | undefined, number | null>;
  discount_cents: ColumnType<number | null, number | null | undefined, number | null>;
  interest_cents: ColumnType<number | null, number | null | undefined, number | null>;
  fine_cents: ColumnType<number | null, number | null | undefined, number | null>;
}

/** A bill's documents: the scheduling receipt, the payment receipt, the return notice. */
export type BillDocumentKind = 'scheduling' | 'payment' | 'return';

/** A batch made by `batch retry` from the failed or returned rows of `source_batch_id`. */
export interface RetriesTable {
  batch_id: number;
  source_batch_id: number;
  /** The states retried, comma separated (`failed,returned`). */
  statuses: string;
  created_at: string;
}

/** A signed approval of a batch's or a bill's content (append-only; 0012_approvals). */
export interface ApprovalsTable {
  id: Generated<number>;
  /** `batch:<local id>` or `bill:<digit line>`. */
  subject: string;
  /** SHA-256 hex of the content approved (domain/approval-digest.ts). */
  digest: string;
  approver_name: string;
  /** `ed25519:<base64>` as it was when signed. */
  public_key: string;
  /** Base64 Ed25519 signature of `paybatch-approval-v1\n<subject>\n<digest>`. */
  signature: string;
  signed_at: string;
  /** user@host of the process that signed. */
  signed_from: string;
}

/** A maker's signature of what they made (append-only; 0016_maker_signatures): an approval's twin, by the maker. */
export interface MakerSignaturesTable {
  id: Generated<number>;
  /** `batch:<local id>` or `bill:<digit line>`. */
  subject: string;
  /** SHA-256 hex of the content made (domain/approval-digest.ts). */
  digest: string;
  maker_name: string;
  /** `ed25519:<base64>` as it was when signed. */
  public_key: string;
  /** Base64 Ed25519 signature of `paybatch-maker-v1\n<subject>\n<digest>`. */
  signature: string;
  signed_at: string;
  /** user@host of the process that signed: shown, never an identity. */
  signed_from: string;
}

/** Work a daemon holds for a while on a shared ledger (see work-lease-store.ts). */
export interface WorkLeasesTable {
  name: string;
  holder: string;
  taken_at: string;
  expires_at: string;
  generation: Generated<number>;
}

/** A remote batch a run created after losing its submission claim (0017_fencing): deleted when empty, else alerted. */
export interface StrayBatchesTable {
  id: Generated<number>;
  batch_id: number;
  remote_id: string;
  found_at: string;
  deleted_at: ColumnType<string | null, string | null | undefined, string | null>;
  kept_reason: ColumnType<string | null, string | null | undefined, string | null>;
  alerted_at: ColumnType<string | null, string | null | undefined, string | null>;
}

/** When the daemon of each host last finished a pass (0019_daemon_passes; see daemon-pass-store.ts). */
export interface DaemonPassesTable {
  host: string;
  pid: number;
  interval_seconds: number | null;
  started_at: string;
  last_pass_at: string | null;
  stopped_at: string | null;
}

/** An import read from a CNAB 240 remittance (0021_remittances). */
export interface RemittancesTable {
  import_id: number;
  layout: string;
  file_header: string;
  company_document: string;
  encoding: 'utf-8' | 'windows-1252';
}

/** One title of a remittance, by the identifier of the item paying it. */
export interface RemittanceTitlesTable {
  identifier: string;
  import_id: number;
  line: number;
  lot: number;
  lot_header: string;
  records: string;
  your_number: string;
  payment_date: string;
}

/** A return file the daemon wrote for a batch (0021_remittances). */
export interface ReturnFilesTable {
  batch_id: number;
  path: string;
  written_at: string;
  said: string;
}

/** A bill paid from a remittance, with its title's records (0022_remittance_bills). */
export interface RemittanceBillsTable {
  bill_id: number;
  file_hash: string;
  file_name: string;
  layout: string;
  file_header: string;
  company_document: string;
  encoding: 'utf-8' | 'windows-1252';
  line: number;
  lot: number;
  lot_header: string;
  records: string;
  your_number: string;
}

/** A remittance line a `boleto pay --file` run set out to pay (0026_remittance_bill_lines). */
export interface RemittanceBillLinesTable {
  id: Generated<number>;
  file_hash: string;
  line: number;
}

/** A return file the daemon wrote for a remittance's bills (0022_remittance_bills). */
export interface BillReturnFilesTable {
  file_hash: string;
  path: string;
  written_at: string;
  said: string;
}

export type BillScheduleStatus = 'waiting' | 'sent' | 'refused';

/** A remittance's bill due on a later day, paid by the daemon on it (0024_bill_schedules). Amount in centavos. */
export interface BillSchedulesTable {
  id: Generated<number>;
  code: string;
  amount_cents: number;
  description: string | null;
  file: string;
  line: number;
  file_hash: string;
  remittance: string;
  pay_on: string;
  status: BillScheduleStatus;
  bill_id: number | null;
  error: string | null;
  created_at: string;
  updated_at: string;
}

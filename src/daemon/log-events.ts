/**
 * The events the daemon logs, each with a stable key. A JSON log line carries the key as `event` beside its English
 * `msg` (what log shippers already match on, unchanged); the human format says the event in the run's language from
 * the key and the line's fields (src/cli/messages/daemon.ts).
 */
export type DaemonEvent =
  | 'shared_ledger'
  | 'clock_skewed'
  | 'clock_agrees'
  | 'subscribed'
  | 'ledger_unreachable'
  | 'timeout_reached'
  | 'pass_done'
  | 'pass_problem'
  | 'receipt_files_swept'
  | 'scheduled_start'
  | 'scheduled_bills_sent'
  | 'return_file_written'
  | 'return_file_failed'
  | 'unknown_status'
  | 'alert_raised'
  | 'alert_channel_failed'
  | 'healthz_unreachable'
  | 'healthz_answers'
  | 'webhook_refused'
  | 'webhook_proof_found'
  | 'webhook_aborted'
  | 'webhook_id_differs'
  | 'webhook_not_stored'
  | 'webhook_not_stored_unreachable'
  | 'webhook_stored'
  | 'webhook_duplicate'
  | 'webhook_not_applied'
  | 'receiver_request_failed'
  | 'receiver_server_error'
  | 'receiver_listening'
  | 'receiver_closed'
  | 'no_webhook_secret'
  | 'stopping'
  | 'dashboard_listening';

/** One line of the daemon's log: its level, its event, the English message and the event's fields. */
export interface DaemonLogEntry {
  level: 'info' | 'warn' | 'error';
  /** Unset only for lines from outside the daemon; the human format then shows `msg` as it is. */
  event?: DaemonEvent;
  msg: string;
  [field: string]: unknown;
}

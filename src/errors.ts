/** Exit codes of every paybatch command (docs/scripting.md, "Exit codes"). */
export const ExitCode = {
  ok: 0,
  failure: 1,
  usage: 2,
  inputRejected: 3,
  attention: 4,
} as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

/**
 * The `type` of a `--json` error: a stable code per error class (docs/scripting.md, "Errors in `--json`"), never a class name, so
 * scripts keep working when the code is reorganised.
 */
export type ErrorType =
  | 'failed'
  | 'usage'
  | 'input_invalid'
  | 'config_invalid'
  | 'cancelled'
  | 'provider_unreachable'
  | 'provider_error'
  | 'approval_required'
  | 'unexpected';

/** What a setting accepts (config/settings.ts), named when a value is refused; `one_of` lists the values. */
export type SettingRule =
  | 'not_empty'
  | 'document'
  | 'digits'
  | 'url'
  | 'header_name'
  | 'one_of'
  | 'amount'
  | 'duration'
  | 'whole_above_zero'
  | 'whole'
  | 'name_list'
  | 'status_words'
  | 'proxy_url'
  | 'email'
  | 'email_with_name'
  | 'number_above_zero'
  | 'one_or_two'
  | 'webhook_method';

/**
 * Why an error was raised, as data: a stable snake_case code (the `code` of a `--json` error) and the facts the
 * CLI words it from in the run's language (src/cli/messages/reasons.ts). The English message and hint stay beside
 * it: they are what `--json` says.
 */
export type ErrorReason =
  // config
  | { readonly code: 'profile_missing'; readonly profile: string; readonly path: string; readonly known: string }
  | { readonly code: 'setting_unknown'; readonly setting: string; readonly settings: string }
  | { readonly code: 'setting_invalid'; readonly setting: string; readonly rule: SettingRule; readonly values: string }
  | { readonly code: 'env_setting_invalid'; readonly variable: string; readonly rule: SettingRule; readonly values: string }
  | { readonly code: 'secret_file_unreadable'; readonly variable: string; readonly error: string }
  | { readonly code: 'config_shared'; readonly path: string; readonly mode: string }
  | { readonly code: 'config_not_json'; readonly path: string; readonly error: string }
  | { readonly code: 'secret_on_command_line'; readonly setting: string }
  | { readonly code: 'provider_settings_missing'; readonly profile: string; readonly settings: string; readonly variables: string }
  | { readonly code: 'webhook_verification_invalid'; readonly value: string }
  | { readonly code: 'file_unreadable'; readonly file: string; readonly error: string }
  // import
  | { readonly code: 'sheet_changed'; readonly file: string }
  // --pay-on
  | { readonly code: 'pay_on_invalid'; readonly value: string }
  | { readonly code: 'pay_on_past'; readonly payOn: string; readonly today: string }
  | { readonly code: 'pay_on_with'; readonly flag: 'check' | 'start' }
  | { readonly code: 'import_format_invalid'; readonly value: string }
  | { readonly code: 'remittance_option'; readonly option: 'skip-invalid' | 'pay-on' }
  | { readonly code: 'export_format_invalid'; readonly value: string }
  | { readonly code: 'export_status_with_return' }
  | { readonly code: 'batch_not_remittance'; readonly batchId: number }
  | { readonly code: 'remittance_bills_unpaid'; readonly file: string }
  // command lines
  | { readonly code: 'listen_invalid'; readonly option: string; readonly value: string }
  | { readonly code: 'interval_invalid' }
  | { readonly code: 'timeout_invalid'; readonly value: string }
  | { readonly code: 'ui_listen_without_ui' }
  | { readonly code: 'ui_with_once' }
  // the ledger and its alerts
  | { readonly code: 'ledger_unusable'; readonly file: string; readonly damage: LedgerDamage; readonly backup: string | null }
  | { readonly code: 'alerts_unknown'; readonly ids: string; readonly file: string }
  // The provider's settings and the approver's key
  | { readonly code: 'amount_unit_unset'; readonly of: 'pix' | 'bill' }
  /** The provider refused an import's items as written (a 400/422): waiting will not change its answer. */
  | { readonly code: 'items_refused'; readonly call: string; readonly status: number; /** The provider's own words, as it answered. */ readonly detail: string }
  | { readonly code: 'provider_url_invalid'; readonly setting: 'baseUrl' | 'tokenUrl'; readonly problem: ProviderUrlProblem }
  | { readonly code: 'approver_key_exists'; readonly file: string; readonly publicKey: string }
  | { readonly code: 'approver_key_missing'; readonly file: string }
  | { readonly code: 'approver_key_shared'; readonly file: string; readonly mode: string }
  | { readonly code: 'approver_key_unusable'; readonly file: string; readonly problem: 'wrong_passphrase' | 'not_pkcs8' | 'not_ed25519' }
  // The ledger, the daemon and what they hold
  | { readonly code: 'ledger_unreachable'; readonly ledger: string; readonly error: string | null }
  | { readonly code: 'ledger_busy'; readonly ledger: string; readonly seconds: number }
  | { readonly code: 'ledger_newer'; readonly ledger: string; readonly detail: string }
  | { readonly code: 'ledger_url_unknown'; readonly ledger: string }
  | { readonly code: 'backup_exists'; readonly file: string }
  | { readonly code: 'daemon_running'; readonly pid: number; readonly host: string; readonly since: string }
  | { readonly code: 'batch_started'; readonly batchId: number }
  | { readonly code: 'batch_deleted'; readonly batchId: number }
  | { readonly code: 'retry_raced'; readonly batchId: number }
  | { readonly code: 'bill_not_unknown'; readonly billId: number; readonly status: string }
  // statements
  | { readonly code: 'statement_account_unset'; readonly profile: string }
  // What `report` covers
  | { readonly code: 'report_target'; readonly given: 'none' | 'both' | 'month_and_days' | 'from_only' | 'to_only' }
  | { readonly code: 'period_invalid'; readonly option: '--month' | '--from' | '--to'; readonly value: string; readonly form: 'YYYY-MM' | 'YYYY-MM-DD' }
  | { readonly code: 'period_reversed'; readonly from: string; readonly to: string }
  | { readonly code: 'report_ofx_needs_period' }
  | { readonly code: 'report_zip_needs_batch' };

/** What is wrong with a provider URL setting. */
export type ProviderUrlProblem = 'not_url' | 'scheme' | 'credentials' | 'query';

/**
 * What is wrong with a ledger file that paybatch refuses to open: the kind, and the figures or SQLite's own words
 * that show it.
 */
export type LedgerDamage =
  | { readonly kind: 'empty_file' }
  | { readonly kind: 'not_sqlite' }
  | { readonly kind: 'shorter_than_header'; readonly size: number }
  | { readonly kind: 'truncated'; readonly size: number; readonly expected: number }
  | { readonly kind: 'foreign_tables'; readonly tables: string }
  | { readonly kind: 'empty_database' }
  | { readonly kind: 'sqlite_damaged'; readonly sqlite: string };

/** Base of every error paybatch expects; the CLI prints its message without a stack. */
export class PaybatchError extends Error {
  readonly exitCode: ExitCode = ExitCode.failure;
  readonly type: ErrorType = 'failed';
  /** What the user can do next, printed after the message. */
  readonly hint?: string;
  /** The error as a code and data, for the CLI to say in the run's language; unset: the message is said as is. */
  readonly reason?: ErrorReason;
  constructor(message: string, options?: { hint?: string; cause?: unknown; reason?: ErrorReason }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.hint = options?.hint;
    this.reason = options?.reason;
  }
}

/** Wrong flags or arguments; the CLI adds a pointer to --help. */
export class UsageError extends PaybatchError {
  override readonly exitCode = ExitCode.usage;
  override readonly type = 'usage';
}

/** One problem found in user input, e.g. a sheet row: `file:line field: reason`. */
export interface InputProblem {
  readonly file?: string;
  readonly line?: number;
  readonly field?: string;
  /** The problem's stable code (snake_case), for scripts reading `--json`; the reason is its words. */
  readonly code?: string;
  readonly reason: string;
}

export function formatProblem(p: InputProblem): string {
  const where = [p.file, p.line].filter((x) => x !== undefined).join(':');
  const prefix = [where, p.field].filter(Boolean).join(' ');
  return prefix ? `${prefix}: ${p.reason}` : p.reason;
}

/** Input refused by the rules; nothing was changed. */
export class InputRejectedError extends PaybatchError {
  override readonly exitCode = ExitCode.inputRejected;
  override readonly type = 'input_invalid';
  readonly problems: readonly InputProblem[];
  constructor(message: string, problems: readonly InputProblem[] = [], options?: { hint?: string; reason?: ErrorReason }) {
    super(message, options);
    this.problems = problems;
  }
}

/** Bad or missing configuration (profile, environment, file permissions). */
export class ConfigError extends PaybatchError {
  override readonly type = 'config_invalid';
}

/** The user declined a confirmation or pressed Ctrl-C at a prompt. */
export class CancelledError extends PaybatchError {
  override readonly type = 'cancelled';
  /** What was not done, for the CLI to say in the run's language. */
  readonly nothing: 'changed' | 'paid';
  constructor(nothing: 'changed' | 'paid' = 'changed') {
    super(`Cancelled; nothing was ${nothing}.`);
    this.nothing = nothing;
  }
}

/**
 * Money was about to move without the approvals the profile's policy demands (maker-checker): nothing was sent.
 * `approvals` says what is missing, for `--json`.
 */
export class ApprovalRequiredError extends PaybatchError {
  override readonly exitCode = ExitCode.inputRejected;
  override readonly type = 'approval_required';
  readonly approvals: Readonly<Record<string, unknown>>;
  constructor(message: string, approvals: Readonly<Record<string, unknown>>, options?: { hint?: string }) {
    super(message, options);
    this.approvals = approvals;
  }
}

/** The provider answered with an error, or could not be reached. Never carries secrets. */
export class ProviderError extends PaybatchError {
  override readonly type: 'provider_unreachable' | 'provider_error';
  readonly status: number | null;
  readonly method: string;
  readonly path: string;
  readonly code: string | null;
  readonly body: unknown;
  /** True when the request may have reached the provider and its effect is unknown (timeout, reset after send). */
  readonly outcomeUnknown: boolean;
  constructor(
    message: string,
    o: {
      status: number | null;
      method: string;
      path: string;
      code?: string | null;
      body?: unknown;
      outcomeUnknown?: boolean;
      /** The provider could not be reached (set by the transport); unset: judged by the code. */
      unreachable?: boolean;
      hint?: string;
      cause?: unknown;
      reason?: ErrorReason;
    },
  ) {
    super(message, { hint: o.hint, cause: o.cause, ...(o.reason ? { reason: o.reason } : {}) });
    this.status = o.status;
    this.method = o.method;
    this.path = o.path;
    this.code = o.code ?? null;
    this.body = o.body;
    this.outcomeUnknown = o.outcomeUnknown ?? false;
    // No HTTP answer and a system or undici code (ECONNREFUSED, UND_ERR_HEADERS_TIMEOUT): the network failed. Local
    // refusals without an answer (a cursor loop, a closed client) carry lower-case codes of our own.
    const unreachable = o.unreachable ?? (this.status === null && /^(E[A-Z_]+|UND_ERR_[A-Z_]+)$/.test(this.code ?? ''));
    this.type = unreachable ? 'provider_unreachable' : 'provider_error';
  }
}

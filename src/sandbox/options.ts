import { fail, ok, type Result } from '../domain/result.js';
import { dialectOf, DIALECTS, type DialectName } from './dialect.js';
import { checkFaults, parseFaults, type FaultRates } from './faults.js';

/** How to run a sandbox; every field is optional (see docs/sandbox.md for the defaults). Mirrors the CLI flags. */
export interface SandboxOptions {
  /** Interface to listen on; default 127.0.0.1. */
  readonly host?: string;
  /** Port; default 0 (any free port). */
  readonly port?: number;
  /** SQLite state file; default a temporary one, removed on close. `:memory:` keeps nothing. */
  readonly stateFile?: string;
  /** Seed of every random draw; default the state file's, or a fresh one. */
  readonly seed?: number;
  /** Simulated seconds per real second; default 1. */
  readonly speed?: number;
  /**
   * Fault rates, as a spec ("http5xx=0.05,lostResponse=0.02", "" or "none") or an object; default the dialect's
   * (none, except for `iso`), which any given value replaces whole.
   */
  readonly faults?: string | Partial<FaultRates>;
  /** Items or batches per page of the list endpoints; default 50 (the `iso` dialect answers at most 20). */
  readonly pageSize?: number;
  /** Accepted API keys, each its own account; default ["sandbox-api-key"]. */
  readonly apiKeys?: readonly string[];
  /** OAuth client id and secret; default "sandbox-client" / "sandbox-secret". */
  readonly clientId?: string;
  readonly clientSecret?: string;
  /** Where a new state file's simulated clock starts (ISO date-time or Date); default now. Ignored for an existing state. */
  readonly startTime?: string | Date;
  /** Access token lifetime in real seconds; default the dialect's (3600; 20 for `iso`). */
  readonly tokenTtlSeconds?: number;
  /** Token of the /_sandbox/ routes; default the state file's, or a fresh random one kept there. */
  readonly adminToken?: string;
  /** Simulated seconds a stale item waits before an item-list query settles it; default 1800. */
  readonly staleSeconds?: number;
  /** Delivery attempts of a webhook event before giving up; default 10. */
  readonly webhookAttempts?: number;
  /**
   * Serve HTTPS with this certificate and key (PEM); with `clientCa`, every connection must present a client
   * certificate signed by that CA (mutual TLS, as banks' Pix APIs demand). Default: plain HTTP.
   */
  readonly tls?: { readonly cert: string; readonly key: string; readonly clientCa?: string };
  /** Receives log lines (faults injected, deliveries given up, internal errors); default silent. */
  readonly logger?: (line: string) => void;
  /**
   * How the sandbox answers where the provider's API leaves a choice open: `paybatch` (default) makes the choices
   * paybatch was built on, `spec` the other ordinary choice on each point, `iso` the choices of providers with
   * upper-case states, ISO 20022 error codes and decimal reais (see src/sandbox/dialect.ts).
   */
  readonly dialect?: DialectName;
}

export interface ResolvedOptions {
  readonly host: string;
  readonly port: number;
  readonly stateFile: string | null;
  readonly seed: number | null;
  readonly speed: number;
  readonly faults: FaultRates;
  readonly pageSize: number;
  readonly apiKeys: readonly string[];
  readonly clientId: string;
  readonly clientSecret: string;
  readonly startMs: number | null;
  readonly tokenTtlSeconds: number;
  readonly adminToken: string | null;
  readonly staleSeconds: number;
  readonly webhookAttempts: number;
  readonly logger: (line: string) => void;
  readonly dialect: DialectName;
  readonly tls: SandboxOptions['tls'] | null;
}

const DEFAULT_API_KEY = 'sandbox-api-key';
const DEFAULT_CLIENT_ID = 'sandbox-client';
const DEFAULT_CLIENT_SECRET = 'sandbox-secret';

/** Checks options and fills in defaults; the reason names the option (as its CLI flag) when one is wrong. */
export function resolveOptions(o: SandboxOptions): Result<ResolvedOptions> {
  const known = (DIALECTS as readonly string[]).includes(o.dialect ?? 'paybatch');
  const defaults = dialectOf(known ? (o.dialect ?? 'paybatch') : 'paybatch').defaults;
  const faults = typeof o.faults === 'string' ? parseFaults(o.faults) : checkFaults(o.faults ?? defaults.faults);
  if (!faults.ok) return fail(`--faults: ${faults.error}`);
  const startMs = o.startTime === undefined ? null : new Date(o.startTime).getTime();
  const checks: [boolean, string][] = [
    [o.port === undefined || (Number.isInteger(o.port) && o.port >= 0 && o.port <= 65_535), '--port must be an integer from 0 to 65535'],
    [o.seed === undefined || Number.isSafeInteger(o.seed), '--seed must be an integer'],
    [o.speed === undefined || (o.speed > 0 && o.speed <= 1_000_000), '--speed must be a number above 0 (up to 1000000)'],
    [o.pageSize === undefined || (Number.isInteger(o.pageSize) && o.pageSize >= 1 && o.pageSize <= 1_000), '--page-size must be an integer from 1 to 1000'],
    [o.apiKeys === undefined || (o.apiKeys.length > 0 && o.apiKeys.every((k) => k.trim() !== '')), '--api-key must not be empty'],
    [o.clientId !== '' && o.clientSecret !== '' && o.adminToken !== '', 'credentials must not be empty'],
    [startMs === null || Number.isFinite(startMs), '--start-time must be an ISO date-time such as 2025-03-08T22:30:00-03:00'],
    [o.tokenTtlSeconds === undefined || (Number.isInteger(o.tokenTtlSeconds) && o.tokenTtlSeconds >= 1), '--token-ttl must be a whole number of seconds, at least 1'],
    [o.staleSeconds === undefined || o.staleSeconds >= 0, '--stale-seconds must be a number of seconds'],
    [o.webhookAttempts === undefined || (Number.isInteger(o.webhookAttempts) && o.webhookAttempts >= 1), '--webhook-attempts must be an integer, at least 1'],
    [known, `--dialect must be ${DIALECTS.slice(0, -1).join(', ')} or ${DIALECTS.at(-1)}`],
  ];
  const broken = checks.find(([good]) => !good);
  if (broken) return fail(broken[1]);
  return ok({
    host: o.host ?? '127.0.0.1',
    port: o.port ?? 0,
    stateFile: o.stateFile ?? null,
    seed: o.seed ?? null,
    speed: o.speed ?? 1,
    faults: faults.value,
    pageSize: o.pageSize ?? 50,
    apiKeys: o.apiKeys ?? [DEFAULT_API_KEY],
    clientId: o.clientId ?? DEFAULT_CLIENT_ID,
    clientSecret: o.clientSecret ?? DEFAULT_CLIENT_SECRET,
    startMs,
    tokenTtlSeconds: o.tokenTtlSeconds ?? defaults.tokenTtlSeconds,
    adminToken: o.adminToken ?? null,
    staleSeconds: o.staleSeconds ?? 1_800,
    webhookAttempts: o.webhookAttempts ?? 10,
    logger: o.logger ?? (() => {}),
    dialect: o.dialect ?? 'paybatch',
    tls: o.tls ?? null,
  });
}

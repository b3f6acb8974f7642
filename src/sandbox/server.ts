import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from './app.js';
import { accountOf, keyHint, Tokens } from './auth.js';
import { BillPayments } from './bill-payments.js';
import { BillStore } from './bill-store.js';
import { SimClock, type ClockAnchor } from './clock.js';
import { dialectOf, type DialectName } from './dialect.js';
import { HeldAnswers } from './http-faults.js';
import { resolveOptions, type SandboxOptions } from './options.js';
import { INITIAL_BALANCE_CENTS } from './payer.js';
import { PixProcessor } from './pix-processor.js';
import { PixStore } from './pix-store.js';
import { freshSeed, Random } from './random.js';
import type { Runtime } from './runtime.js';
import { Scheduler } from './scheduler.js';
import { Meta, openStore } from './store.js';
import { WebhookSender } from './webhook-sender.js';
import { WebhookStore } from './webhook-store.js';

export type { SandboxOptions } from './options.js';

/** A sandbox that is listening. `close()` stops it: timers, held answers, connections, deliveries, the state file. */
export interface RunningSandbox {
  /** Base URL of the API, e.g. http://127.0.0.1:40123. */
  readonly url: string;
  /** `${url}/oauth/token`. */
  readonly tokenUrl: string;
  /** The first API key (account); `apiKeys` has them all. */
  readonly apiKey: string;
  readonly apiKeys: readonly string[];
  readonly clientId: string;
  readonly clientSecret: string;
  /** Bearer token of the /_sandbox/ inspection routes. */
  readonly adminToken: string;
  /** The seed in use (given, kept in the state file, or fresh): run again with it to replay. */
  readonly seed: number;
  /** The state file, or null for a temporary one. */
  readonly stateFile: string | null;
  /** The dialect it answers in (`paybatch`, `spec` or `iso`). */
  readonly dialect: DialectName;
  close(): Promise<void>;
}

/**
 * Starts a sandbox provider on real HTTP (see docs/sandbox.md). With an existing state file it resumes: same seed,
 * admin token and token-signing key, and the simulated clock continues as if the time it was down had passed, so
 * work that fell due meanwhile (settling items, deliveries, scheduled bills, returns) is done at once.
 * Throws RangeError for invalid options.
 */
export async function startSandbox(options: SandboxOptions = {}): Promise<RunningSandbox> {
  const resolved = resolveOptions(options);
  if (!resolved.ok) throw new RangeError(resolved.error);
  const o = resolved.value;
  const tempDir = o.stateFile === null ? await mkdtemp(join(tmpdir(), 'paybatch-sandbox-')) : null;
  const db = openStore(o.stateFile ?? join(tempDir as string, 'sandbox.db'));
  const meta = new Meta(db);

  const seed = o.seed ?? Number(meta.getOrSet('seed', () => String(freshSeed())));
  meta.set('seed', String(seed));
  const adminToken = o.adminToken ?? meta.getOrSet('adminToken', () => `sbx-admin-${randomBytes(16).toString('hex')}`);
  const signingKey = meta.getOrSet('tokenSigningKey', () => randomBytes(32).toString('hex'));
  // Ids mix in a nonce of the state file, so two sandboxes with the same seed never hand out the same ids.
  const instance = meta.getOrSet('instance', () => randomBytes(8).toString('hex'));
  const savedClock = meta.get('clock');
  const clock = SimClock.resume(savedClock === null ? null : (JSON.parse(savedClock) as ClockAnchor), {
    speed: o.speed,
    startMs: o.startMs ?? undefined,
    save: (anchor) => meta.set('clock', JSON.stringify(anchor)),
  });

  const random = new Random(seed);
  let scheduler: Scheduler | null = null;
  const rt: Runtime = {
    db,
    meta,
    pix: new PixStore(db),
    webhooks: new WebhookStore(db),
    bills: new BillStore(db),
    clock,
    random,
    faults: o.faults,
    settings: { pageSize: o.pageSize, staleMs: o.staleSeconds * 1000, webhookAttempts: o.webhookAttempts, dialect: o.dialect },
    dialect: dialectOf(o.dialect),
    nextId: (kind) => random.uuid(instance, kind, meta.next(kind)),
    wake: () => scheduler?.wake(),
    log: o.logger,
  };
  for (const key of o.apiKeys) rt.pix.ensureAccount(accountOf(key), keyHint(key), INITIAL_BALANCE_CENTS, clock.now());

  const processor = new PixProcessor(rt);
  const billPayments = new BillPayments(rt);
  const sender = new WebhookSender(rt);
  const running = new Scheduler(clock, [processor, billPayments, sender], o.logger);
  scheduler = running;
  const held = new HeldAnswers();
  const app = buildApp({
    rt,
    credentials: { apiKeys: o.apiKeys, clientId: o.clientId, clientSecret: o.clientSecret, adminToken },
    tokens: new Tokens(signingKey, o.tokenTtlSeconds),
    processor,
    billPayments,
    held,
    runDueNow: () => running.runNow(),
    ...(o.tls ? { tls: o.tls } : {}),
  });

  try {
    await app.listen({ host: o.host, port: o.port });
  } catch (error) {
    db.close();
    if (tempDir) await rm(tempDir, { recursive: true, force: true });
    throw error;
  }
  running.wake();
  const address = app.server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `${o.tls ? 'https' : 'http'}://${host}:${address.port}`;

  let closing: Promise<void> | null = null;
  const close = async (): Promise<void> => {
    running.stop();
    held.releaseAll();
    await app.close();
    await sender.close();
    db.close();
    if (tempDir) await rm(tempDir, { recursive: true, force: true });
  };
  return {
    url,
    tokenUrl: `${url}/oauth/token`,
    apiKey: o.apiKeys[0] as string,
    apiKeys: o.apiKeys,
    clientId: o.clientId,
    clientSecret: o.clientSecret,
    adminToken,
    seed,
    stateFile: o.stateFile,
    dialect: o.dialect,
    close: () => (closing ??= close()),
  };
}

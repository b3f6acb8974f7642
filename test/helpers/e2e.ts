import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa, type ResultPromise } from 'execa';
import { afterEach } from 'vitest';
import { BACKEND, newPostgresDatabase } from './test-ledger.js';

/** The built launcher: end-to-end tests run paybatch exactly as users do (npm run build first; npm ci does it). */
export const BIN = fileURLToPath(new URL('../../bin/paybatch.js', import.meta.url));
export const FIXTURES = fileURLToPath(new URL('../../fixtures/', import.meta.url));

export interface SandboxProcess {
  readonly url: string;
  readonly tokenUrl: string;
  readonly apiKey: string;
  readonly clientId: string;
  readonly clientSecret: string;
  readonly adminToken: string;
  readonly process: ResultPromise;
  /** GET an inspection route under /_sandbox/ (admin token). */
  admin<T = unknown>(path: string, init?: { method?: string; body?: unknown }): Promise<T>;
  /** The environment that points paybatch at this sandbox instead of the embedded one. */
  env(): Record<string, string>;
  stop(): Promise<void>;
}

/** Starts `paybatch sandbox serve --json` on a free loopback port and waits for its ready line. */
export async function startSandboxProcess(o: { state: string; args?: string[] }): Promise<SandboxProcess> {
  const child = execa(process.execPath, [BIN, 'sandbox', 'serve', '--json', '--port', '0', '--state', o.state, ...(o.args ?? [])], { reject: false, buffer: false });
  const ready = await new Promise<Record<string, string>>((resolve, reject) => {
    let text = '';
    const timer = setTimeout(() => reject(new Error(`sandbox did not start: ${text}`)), 15_000);
    child.stdout!.on('data', (b: Buffer) => {
      text += b.toString();
      // The ready document is the command's one JSON output: complete once it parses.
      try {
        const doc = JSON.parse(text) as Record<string, string>;
        clearTimeout(timer);
        resolve(doc);
      } catch {
        // not complete yet
      }
    });
    child.stderr!.resume();
    void child.then((r) => reject(new Error(`sandbox exited ${r.exitCode}`)));
  });
  return {
    url: ready.url!,
    tokenUrl: ready.tokenUrl!,
    apiKey: ready.apiKey!,
    clientId: ready.clientId!,
    clientSecret: ready.clientSecret!,
    adminToken: ready.adminToken!,
    process: child,
    async admin<T>(path: string, init: { method?: string; body?: unknown } = {}) {
      const res = await fetch(`${ready.url}/_sandbox/${path}`, {
        method: init.method ?? 'GET',
        headers: { authorization: `Bearer ${ready.adminToken}`, ...(init.body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: init.body === undefined ? undefined : JSON.stringify(init.body),
      });
      if (!res.ok) throw new Error(`/_sandbox/${path}: ${res.status} ${await res.text()}`);
      return (await res.json()) as T;
    },
    // A provider of its own (not the embedded sandbox): its amount units are set, as users must (the sandbox's Pix
    // amounts are centavos, its bill amounts reais).
    env: () => ({
      PAYBATCH_BASE_URL: ready.url!,
      PAYBATCH_PIX_AMOUNT_UNIT: 'cents',
      PAYBATCH_BILL_AMOUNT_UNIT: 'reais',
      PAYBATCH_TOKEN_URL: ready.tokenUrl!,
      PAYBATCH_API_KEY: ready.apiKey!,
      PAYBATCH_CLIENT_ID: ready.clientId!,
      PAYBATCH_CLIENT_SECRET: ready.clientSecret!,
    }),
    async stop() {
      child.kill('SIGTERM');
      await child;
    },
  };
}

/**
 * Environment of a user with their own config and data folders (and nothing of the test runner's PAYBATCH_*), in
 * English unless `extra` says otherwise (LC_ALL, or the profile's locale setting).
 */
export function userEnv(home: string, extra: Record<string, string> = {}): Record<string, string> {
  mkdirSync(join(home, 'config'), { recursive: true });
  const ledger: Record<string, string> = BACKEND === 'postgres' ? { PAYBATCH_LEDGER: postgresLedgerOf(home) } : {};
  return { XDG_CONFIG_HOME: join(home, 'config'), XDG_DATA_HOME: join(home, 'data'), HOME: home, NO_COLOR: '1', LC_ALL: 'en_US.UTF-8', ...ledger, ...extra };
}

/** On the PostgreSQL backend each user (home folder) has a database of their own, made on first use. */
const postgresLedgers = new Map<string, string>();
function postgresLedgerOf(home: string): string {
  let url = postgresLedgers.get(home);
  if (!url) postgresLedgers.set(home, (url = newPostgresDatabase()));
  return url;
}

/** Runs the built paybatch; never throws on a non-zero exit (tests assert the code). */
export function paybatch(args: string[], o: { env: Record<string, string>; cwd?: string; input?: string; timeout?: number; encoding?: 'utf8' | 'latin1' }) {
  return execa(process.execPath, [BIN, ...args], {
    env: o.env,
    extendEnv: false,
    cwd: o.cwd,
    input: o.input,
    reject: false,
    timeout: o.timeout ?? 60_000,
    // latin1: the output's bytes one character each (a return file in Windows-1252).
    encoding: o.encoding ?? 'utf8',
  });
}

/** Sandboxes and background paybatch runs (daemons) a test started: daemons get SIGTERM, then sandboxes stop, after each test. */
export function useProcesses(): { sandboxes: SandboxProcess[]; daemons: ReturnType<typeof paybatch>[] } {
  const sandboxes: SandboxProcess[] = [];
  const daemons: ReturnType<typeof paybatch>[] = [];
  afterEach(async () => {
    for (const d of daemons.splice(0)) {
      d.kill('SIGTERM');
      await d;
    }
    for (const s of sandboxes.splice(0)) await s.stop();
  });
  return { sandboxes, daemons };
}

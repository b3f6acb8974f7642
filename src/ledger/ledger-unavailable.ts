/**
 * True when a ledger call failed because the database could not be reached or was busy past its wait — a PostgreSQL
 * server down, restarting or unreachable, an SQLite file locked by another process, or a PostgreSQL transaction that
 * kept losing serialization conflicts (or deadlocks) to other hosts past its retries — rather than because of what
 * was asked. Such work is tried again later; nothing was written.
 */
export function isLedgerUnavailable(e: unknown): boolean {
  for (let err: unknown = e, depth = 0; err && depth < 4; err = (err as { cause?: unknown }).cause, depth++) {
    const code = String((err as { code?: unknown }).code ?? '');
    if (UNAVAILABLE_CODES.has(code) || UNAVAILABLE_CLASSES.has(code.slice(0, 2)) || code === 'SQLITE_BUSY') return true;
    if (/Connection terminated|connection timeout|Client has encountered a connection error|timeout exceeded when trying to connect/i.test(String((err as Error).message))) return true;
  }
  return false;
}

/**
 * Socket errors; PostgreSQL's admin shutdown, crash shutdown and "cannot connect now" (57P01–57P03); a database not
 * accepting connections (55000, as `ALLOW_CONNECTIONS false` answers); and the conflicts and timeouts a transaction is
 * retried for (`RETRIED_CODES`), which reach a caller only once the ledger's retries ran out.
 */
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'ENOTFOUND', 'EHOSTUNREACH', 'EPIPE', '57P01', '57P02', '57P03', '55000', '40001', '40P01',
  '55P03', '57014', '25P03',
]);

/** PostgreSQL's SQLSTATE classes of a server that cannot be used now: connection exceptions (08), insufficient resources (53: too many connections, disk full, out of memory). */
const UNAVAILABLE_CLASSES = new Set(['08', '53']);

/**
 * What a PostgreSQL transaction is run again for: a serialization failure or a deadlock (40001, 40P01) lost to
 * another host, and a lock, statement or idle-transaction timeout (55P03, 57014, 25P03) — another host held a row or
 * the server was slow; the transaction wrote nothing, so running it again is safe.
 */
export const RETRIED_CODES: ReadonlySet<string> = new Set(['40001', '40P01', '55P03', '57014', '25P03']);

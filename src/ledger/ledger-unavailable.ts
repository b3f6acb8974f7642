/**
 * True when a ledger call failed because the database could not be reached or was busy past its wait — a PostgreSQL
 * server down, restarting or unreachable, an SQLite file locked by another process, or a PostgreSQL transaction that
 * kept losing serialization conflicts (or deadlocks) to other hosts past its retries — rather than because of what
 * was asked. Such work is tried again later; nothing was written.
 */
export function isLedgerUnavailable(e: unknown): boolean {
  for (let err: unknown = e, depth = 0; err && depth < 4; err = (err as { cause?: unknown }).cause, depth++) {
    const code = String((err as { code?: unknown }).code ?? '');
    if (UNAVAILABLE_CODES.has(code) || code.startsWith('08') || code === 'SQLITE_BUSY') return true;
    if (/Connection terminated|connection timeout|Client has encountered a connection error|timeout exceeded when trying to connect/i.test(String((err as Error).message))) return true;
  }
  return false;
}

/**
 * Socket errors; PostgreSQL's admin shutdown, crash shutdown and "cannot connect now" (57P01–57P03); and its
 * serialization failure and deadlock (40001, 40P01), which reach a caller only once the ledger's retries ran out.
 */
const UNAVAILABLE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'ENOTFOUND', 'EHOSTUNREACH', 'EPIPE', '57P01', '57P02', '57P03', '40001', '40P01']);

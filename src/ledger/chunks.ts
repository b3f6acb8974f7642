/**
 * How multi-row statements are cut up. A statement binds at most 32766 values on SQLite (65535 on PostgreSQL), and
 * the SQLite ledger prepares one statement per distinct SQL text: rows go in runs of `size` (a power of two), and the
 * rest in power-of-two runs too (a 300-row rest is 256 + 32 + 8 + 4), so a bulk insert only ever has a handful of
 * texts however many rows it writes.
 */
export function* insertRuns<T>(rows: readonly T[], size: number): Generator<T[]> {
  let at = 0;
  for (; rows.length - at >= size; at += size) yield rows.slice(at, at + size);
  for (let run = size >> 1; run >= 1; run >>= 1) {
    if (rows.length - at >= run) {
      yield rows.slice(at, at + run);
      at += run;
    }
  }
}

/** Values for an `IN (...)` list, at most 500 at a time (well under either database's limit on bound values). */
export function* inLists<T>(values: readonly T[], size = 500): Generator<T[]> {
  for (let at = 0; at < values.length; at += size) yield values.slice(at, at + size);
}

import { existsSync } from 'node:fs';
import { join } from 'node:path';
import Sqlite from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { openLedger, sqliteOf } from '../../src/ledger/open-ledger.js';
import { sqliteLedger } from '../../src/ledger/sqlite-ledger.js';
import { walSync } from '../../src/ledger/wal-sync.js';
import { useTempDir } from '../helpers/temp-dir.js';

const tempDir = useTempDir();

function deferred(): { promise: Promise<void>; resolve: () => void; reject: (e: unknown) => void } {
  let resolve!: () => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('the WAL sync after commits made without one', () => {
  it('runs one sync for the calls made while none runs, and one more, shared, for the calls made during it', async () => {
    const syncs: ReturnType<typeof deferred>[] = [];
    const wal = walSync('/ledger.db-wal', {
      sync: async () => {
        const d = deferred();
        syncs.push(d);
        return d.promise;
      },
      close: async () => {},
    });
    const settled: string[] = [];
    const a = wal.sync().then(() => settled.push('a'));
    // b's commit may have come after the sync under way began: it waits for the next one, shared with c.
    const b = wal.sync().then(() => settled.push('b'));
    const c = wal.sync().then(() => settled.push('c'));
    expect(syncs).toHaveLength(1);
    syncs[0]!.resolve();
    await a;
    expect(settled).toEqual(['a']);
    await Promise.resolve();
    expect(syncs).toHaveLength(2);
    syncs[1]!.resolve();
    await Promise.all([b, c]);
    expect(settled).toEqual(['a', 'b', 'c']);
  });

  it('rejects the callers of a failed sync, and every later call without syncing again', async () => {
    let calls = 0;
    const failure = Object.assign(new Error('EIO: i/o error, fdatasync'), { code: 'EIO' });
    const wal = walSync('/ledger.db-wal', {
      sync: async () => {
        calls += 1;
        throw failure;
      },
      close: async () => {},
    });
    const results = await Promise.allSettled([wal.sync(), wal.sync()]);
    expect(results).toEqual([
      { status: 'rejected', reason: failure },
      { status: 'rejected', reason: failure },
    ]);
    await expect(wal.sync()).rejects.toBe(failure);
    expect(calls).toBe(1);
  });

  it("makes a ledger transaction with durable 'async' resolve once committed, seen by other connections, the connection FULL again", async () => {
    const file = join(tempDir(), 'ledger.db');
    const ledger = await openLedger(file);
    const insert = (id: string) => ledger.db.insertInto('webhook_events').values({ event_id: id, kind: 'pix', delivery_id: null, received_at: 'x', payload_json: '{}', effect: 'e', topic: 'pix' });
    const first = ledger.transaction((tx) => tx.run(insert('a')), { durable: 'async' });
    const second = ledger.transaction((tx) => tx.run(insert('b')), { durable: 'async' });
    expect(await Promise.all([first, second])).toEqual([{ changes: 1 }, { changes: 1 }]);
    expect(committedIds(file)).toEqual(['a', 'b']);
    // Committed with synchronous=NORMAL (the sync follows off the loop), then back to FULL for every other commit.
    expect(sqliteOf(ledger).pragma('synchronous', { simple: true })).toBe(2);
    await ledger.close();
  });

  it("commits durable 'async' with its own fsync where SQLite kept another journal than WAL (nothing to sync after)", async () => {
    const file = join(tempDir(), 'ledger.db');
    const made = await openLedger(file);
    const { db } = made; // builds the queries only
    await made.close();
    const raw = new Sqlite(file);
    raw.pragma('journal_mode = DELETE');
    const ledger = sqliteLedger(file, raw, db, async () => {
      raw.close();
    });
    const insert = db.insertInto('webhook_events').values({ event_id: 'a', kind: 'pix', delivery_id: null, received_at: 'x', payload_json: '{}', effect: 'e', topic: 'pix' });
    expect(await ledger.transaction((tx) => tx.run(insert), { durable: 'async' })).toEqual({ changes: 1 });
    expect(committedIds(file)).toEqual(['a']);
    expect(existsSync(`${file}-wal`)).toBe(false);
    expect(raw.pragma('synchronous', { simple: true })).toBe(2);
    await ledger.close();
  });
});

/** What another connection sees committed. */
function committedIds(file: string): string[] {
  const other = new Sqlite(file, { readonly: true });
  try {
    return other.prepare('SELECT event_id FROM webhook_events ORDER BY rowid').all().map((r) => (r as { event_id: string }).event_id);
  } finally {
    other.close();
  }
}

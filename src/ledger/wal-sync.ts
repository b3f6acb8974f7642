import { open, type FileHandle } from 'node:fs/promises';

/** Syncs a file's data to disk (an fdatasync through libuv's thread pool by default), and lets it go. */
export interface SyncFile {
  sync(): Promise<void>;
  close(): Promise<void>;
}

/**
 * What synchronous=FULL does at each commit of a WAL ledger, done off the event loop: after commits made with
 * synchronous=NORMAL (their frames written to the -wal file, not synced), `sync()` resolves once an fdatasync of the
 * -wal file that began after the call has returned, so everything committed before the call is on disk. Calls made
 * while a sync runs share the next one (one fsync for every commit made meanwhile). A failed sync rejects its callers
 * and every later call: after a failed fsync the kernel may have dropped the pages it could not write, so nothing
 * committed since may be called durable again in this process.
 */
export function walSync(walFile: string, file: SyncFile = fdatasyncFile(walFile)): { sync(): Promise<void>; close(): Promise<void> } {
  let running: Promise<void> | null = null;
  let next: Promise<void> | null = null;
  let failure: { error: unknown } | null = null;

  const start = (): Promise<void> => {
    if (failure) return Promise.reject(failure.error);
    const p: Promise<void> = file.sync().then(
      () => {
        if (running === p) running = null;
      },
      (error: unknown) => {
        if (running === p) running = null;
        failure ??= { error };
        throw failure.error;
      },
    );
    running = p;
    return p;
  };

  return {
    sync(): Promise<void> {
      if (failure) return Promise.reject(failure.error);
      if (running === null) return start();
      // The sync under way may have begun before this caller's commit: wait for it, then one more.
      next ??= running
        .catch(() => {})
        .then(() => {
          next = null;
          return start();
        });
      return next;
    },
    async close(): Promise<void> {
      await (next ?? running)?.catch(() => {});
      await file.close();
    },
  };
}

/**
 * The -wal file, opened at the first sync and kept: SQLite deletes it only when the last connection closes, and the
 * ledger's own is open until close().
 */
function fdatasyncFile(path: string): SyncFile {
  let handle: Promise<FileHandle> | null = null;
  return {
    async sync() {
      handle ??= open(path, 'r');
      await (await handle).datasync();
    },
    async close() {
      const h = handle;
      handle = null;
      await (await h?.catch(() => null))?.close();
    },
  };
}

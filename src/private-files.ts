import { chmodSync, closeSync, fchmodSync, linkSync, mkdirSync, openSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname, join, relative, sep } from 'node:path';
import { processAlive } from './ledger/process-claim.js';

/**
 * Everything paybatch keeps on disk (the ledger, receipts, rejected rows, backups) holds names, documents, Pix keys
 * and amounts, so it is created for the user alone: files 0600, folders 0700. Modes are set explicitly after
 * creating, so they are exactly these whatever the umask (which takes bits away from the mode given to open/mkdir).
 */
export const PRIVATE_FILE_MODE = 0o600;
export const PRIVATE_DIR_MODE = 0o700;

/** Creates `dir` and any missing parents; the folders created here (not ones that existed) become 0700. */
export function makePrivateDir(dir: string): void {
  const first = mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  if (first === undefined) return;
  let path = first;
  chmodSync(path, PRIVATE_DIR_MODE);
  for (const part of relative(first, dir).split(sep).filter(Boolean)) chmodSync((path = join(path, part)), PRIVATE_DIR_MODE);
}

/** Creates an empty 0600 file; fails with EEXIST if `path` exists (so nobody else's file is taken over). */
export function createPrivateFile(path: string): void {
  const fd = openSync(path, 'wx', PRIVATE_FILE_MODE);
  try {
    fchmodSync(fd, PRIVATE_FILE_MODE);
  } finally {
    closeSync(fd);
  }
}

/**
 * Writes a 0600 file so that readers see either nothing or the whole of it: a temporary file in the same folder,
 * then a rename (atomic on one file system). Missing folders are created 0700. The calls are synchronous: five
 * round trips through the thread pool per file cost more than the writes (10,000 receipts: ~5 s of waiting).
 */
export async function writePrivateFile(path: string, data: string | Uint8Array, o: { replace?: boolean } = {}): Promise<void> {
  makePrivateDir(dirname(path));
  const tmp = `${path}.${HOST}.${process.pid}.${Date.now()}.tmp`;
  const fd = openSync(tmp, 'wx', PRIVATE_FILE_MODE);
  try {
    try {
      fchmodSync(fd, PRIVATE_FILE_MODE);
      writeFileSync(fd, data);
    } finally {
      closeSync(fd);
    }
    // `replace: false`: a link, not a rename, so that a file already at `path` fails the write (EEXIST) and is kept.
    if (o.replace === false) {
      linkSync(tmp, path);
      rmSync(tmp);
    } else renameSync(tmp, path);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw e;
  }
}

/** This host as a temporary file names it: a process id says whether its writer lives only on the host that ran it. */
const HOST = hostname().replace(/[^A-Za-z0-9-]+/g, '-') || 'host';
const TEMPORARY = /\.([A-Za-z0-9-]+)\.(\d+)\.\d+\.tmp$/;

/** Past this, a temporary file is abandoned whoever wrote it (another host's, a reused process id): a write takes milliseconds. */
const ABANDONED_AFTER_MS = 3_600_000;

/**
 * Removes the temporary files `writePrivateFile` left in `dir` and the folders under it (`depth` levels) when its
 * process was killed mid-write: those of this host's processes that are gone, and any `.tmp` file older than an hour
 * (another host's, or one an older paybatch named `<file>.tmp`). A folder
 * that does not exist has none. Returns the paths removed.
 */
export function sweepTemporaryFiles(dir: string, now: Date, depth: number): string[] {
  const removed: string[] = [];
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT' || (e as NodeJS.ErrnoException).code === 'ENOTDIR') return removed;
    throw e;
  }
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (depth > 0) removed.push(...sweepTemporaryFiles(path, now, depth - 1));
      continue;
    }
    if (!entry.isFile() || !entry.name.endsWith('.tmp')) continue;
    // Named by writePrivateFile (host, pid), or by an older paybatch (`<file>.tmp`): then only its age tells.
    const name = TEMPORARY.exec(entry.name);
    const gone = name !== null && name[1] === HOST && Number(name[2]) !== process.pid && !processAlive(Number(name[2]));
    if (!gone && now.getTime() - statSync(path).mtimeMs < ABANDONED_AFTER_MS) continue;
    rmSync(path, { force: true });
    removed.push(path);
  }
  return removed;
}

/** The permission bits of `path` when group or others have any access to it; null when private or absent. */
export function sharedMode(path: string): number | null {
  if (process.platform === 'win32') return null; // NTFS permissions are not mode bits
  try {
    const mode = statSync(path).mode & 0o777;
    return mode & 0o077 ? mode : null;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
}

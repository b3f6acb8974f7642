import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const PREFIX = 'paybatch-run-';
/** Set once the run has its folder: vitest runs the global setup once per project, in the same process. */
const MARK = 'PAYBATCH_TEST_RUN_FOLDER';

/**
 * One temporary folder for a whole test run's PostgreSQL servers (as root, their binaries too), named after the
 * process that owns it and removed as that process exits. A run killed before (SIGKILL, a lost terminal) leaves its
 * folder, and perhaps a server, behind: the next run stops that server and removes the folder. Tests' own folders
 * stay under TMPDIR, each removed after its test: with TMPDIR pointed here, exceljs's streamed workbooks read the
 * wrong worksheet now and then, for a reason not found.
 */
export function runFolder(): string {
  const made = process.env[MARK];
  if (made) return made;
  const base = tmpdir();
  sweepKilledRuns(base);
  const dir = mkdtempSync(join(base, `${PREFIX}${process.pid}-`));
  // Open to other users for traversal only: the PostgreSQL server runs as `postgres` when the tests run as root.
  chmodSync(dir, 0o711);
  process.env[MARK] = dir;
  // Removed as the run's process exits, whether it ends or is stopped by Ctrl-C or a signal vitest handles.
  process.once('exit', () => removeFolder(dir));
  return dir;
}

function removeFolder(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

/** Stops the servers of runs whose process is gone and removes their folders; folders of live runs stay. */
export function sweepKilledRuns(base: string): void {
  for (const name of readdirSync(base)) {
    const owner = new RegExp(`^${PREFIX}(\\d+)-`).exec(name);
    if (!owner || isAlive(Number(owner[1]))) continue;
    const dir = join(base, name);
    for (const server of postmasterPids(dir)) {
      try {
        process.kill(server, 'SIGQUIT');
      } catch {
        // Already gone.
      }
    }
    removeFolder(dir);
  }
}

/** The servers a run left: each PostgreSQL data folder holds its postmaster's pid on the first line of postmaster.pid. */
function postmasterPids(dir: string): number[] {
  const pids: number[] = [];
  const visit = (folder: string, depth: number) => {
    if (depth > 3) return;
    const pidFile = join(folder, 'postmaster.pid');
    if (existsSync(pidFile)) pids.push(Number(readFileSync(pidFile, 'utf8').split('\n')[0]));
    for (const entry of readdirSync(folder, { withFileTypes: true })) if (entry.isDirectory()) visit(join(folder, entry.name), depth + 1);
  };
  try {
    visit(dir, 0);
  } catch {
    // A folder another user owns, or one removed meanwhile: whatever could be read is stopped.
  }
  return pids.filter((pid) => Number.isInteger(pid) && pid > 0);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

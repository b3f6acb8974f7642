import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { sweepKilledRuns } from './run-folder.js';

const made: string[] = [];
afterEach(() => {
  for (const d of made.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** The pid of a process that has exited (and been reaped): no process holds it now. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '']);
  await new Promise((resolve) => child.once('exit', resolve));
  return child.pid!;
}

describe("the tests' run folder", () => {
  it('a run killed before its teardown is cleaned up by the next: its PostgreSQL server stopped, its folder removed; a live run is left alone', async () => {
    const base = mkdtempSync(join(tmpdir(), 'sweep-'));
    made.push(base);
    // A "server" left running by a killed run: a process whose pid its data folder records.
    const server = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    const serverExit = new Promise<NodeJS.Signals | null>((resolve) => server.once('exit', (_code, signal) => resolve(signal)));
    const killed = join(base, `paybatch-run-${await deadPid()}-abc123`);
    mkdirSync(join(killed, 'postgres-sqlite', 'data'), { recursive: true });
    writeFileSync(join(killed, 'postgres-sqlite', 'data', 'postmaster.pid'), `${server.pid}\n/some/data\n`);
    writeFileSync(join(killed, 'a-test-file'), 'left behind');
    const live = join(base, `paybatch-run-${process.pid}-def456`);
    mkdirSync(live);
    const other = join(base, 'someone-elses-folder');
    mkdirSync(other);

    sweepKilledRuns(base);

    expect(await serverExit).toBe('SIGQUIT');
    expect(existsSync(killed)).toBe(false);
    expect(existsSync(live)).toBe(true);
    expect(existsSync(other)).toBe(true);
  });
});

import { PassThrough } from 'node:stream';
import type { IO } from '../../src/cli/io.js';
import { main } from '../../src/cli/main.js';
import type { MainDeps } from '../../src/cli/context.js';

export interface TestIO extends IO {
  stdoutText(): string;
  stderrText(): string;
}

/** An IO over buffers; `tty` makes every stream claim to be a terminal. */
export function testIO(o: { tty?: boolean; env?: Record<string, string | undefined>; columns?: number } = {}): TestIO {
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  stdout.on('data', (b: Buffer) => out.push(b));
  stderr.on('data', (b: Buffer) => err.push(b));
  const tty = o.tty ?? false;
  return {
    stdin: new PassThrough(),
    stdout,
    stderr,
    stdinIsTTY: tty,
    stdoutIsTTY: tty,
    stderrIsTTY: tty,
    env: o.env ?? {},
    columns: o.columns ?? 100,
    stdoutText: () => Buffer.concat(out).toString('utf8'),
    stderrText: () => Buffer.concat(err).toString('utf8'),
  };
}

/** Runs the CLI in-process and returns what it printed. */
export async function runCli(argv: string[], o: { tty?: boolean; env?: Record<string, string | undefined>; columns?: number } & Omit<MainDeps, 'io'> = {}) {
  const io = testIO(o);
  const code = await main(argv, { ...o, io });
  return { code, stdout: io.stdoutText(), stderr: io.stderrText() };
}

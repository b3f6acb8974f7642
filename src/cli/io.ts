import type { Readable, Writable } from 'node:stream';
import { isatty } from 'node:tty';

/** The terminal as paybatch sees it; tests build one over buffers (see test/helpers/test-io.ts). */
export interface IO {
  readonly stdin: Readable;
  readonly stdout: Writable;
  readonly stderr: Writable;
  readonly stdinIsTTY: boolean;
  readonly stdoutIsTTY: boolean;
  readonly stderrIsTTY: boolean;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Columns tables fit in: COLUMNS when it is set, else the terminal's width, else 80. */
  readonly columns: number;
}

export function processIO(): IO {
  return {
    // Made on first use: creating process.stdin costs milliseconds on a pipe, and most commands never read it.
    get stdin() {
      return process.stdin;
    },
    stdout: process.stdout,
    stderr: process.stderr,
    stdinIsTTY: isatty(0),
    stdoutIsTTY: Boolean(process.stdout.isTTY),
    stderrIsTTY: Boolean(process.stderr.isTTY),
    env: process.env,
    columns: terminalColumns(process.env.COLUMNS, process.stdout.columns),
  };
}

/** COLUMNS (a whole number of columns) over the terminal's own width; 80 when neither is known. */
export function terminalColumns(env: string | undefined, terminal: number | undefined): number {
  const asked = /^\d+$/.test(env?.trim() ?? '') ? Number(env) : 0;
  return asked > 0 ? asked : terminal || 80;
}

/** Colour only on a TTY, never with NO_COLOR or TERM=dumb; FORCE_COLOR wins (like most CLIs). */
export function colorEnabled(io: IO, stream: 'stdout' | 'stderr', flag: boolean): boolean {
  if (!flag) return false;
  const env = io.env;
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '0') return true;
  if (env.TERM === 'dumb') return false;
  return stream === 'stdout' ? io.stdoutIsTTY : io.stderrIsTTY;
}

/**
 * The environment that chooses the language: the run's own (io.env, which is process.env outside tests) over the
 * process's, so a test that gives no LC_ALL/LANG reads the one its runner set.
 */
export function languageEnv(io: IO): NodeJS.ProcessEnv {
  return { ...process.env, ...io.env };
}

/** Prompts need a person: stdin and stderr on a terminal. */
export function canPrompt(io: IO): boolean {
  return io.stdinIsTTY && io.stderrIsTTY;
}

import { fstatSync, writeSync } from 'node:fs';
import type { Readable, Writable } from 'node:stream';

/** Where a command's text and bytes go: stdout or stderr, or a buffer in tests. */
export interface TextOut {
  write(chunk: string | Uint8Array): unknown;
}

/** The terminal as paybatch sees it; tests build one over buffers (see test/helpers/test-io.ts). */
export interface IO {
  readonly stdin: Readable;
  readonly stdout: TextOut;
  /** A stream: prompts and the spinner draw on it. */
  readonly stderr: Writable;
  readonly stdinIsTTY: boolean;
  readonly stdoutIsTTY: boolean;
  readonly stderrIsTTY: boolean;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Columns tables fit in: COLUMNS when it is set, else the terminal's width, else 80. */
  readonly columns: number;
}

/**
 * The process's terminal, each part made when first asked for: process.stdout, stderr and stdin are streams whose
 * making loads Node's net and stream modules (process.stdout on a pipe: 17 M instructions, a fifth of an empty `node`
 * process's own), and asking whether one is a terminal loads node:tty. stdout is written straight to its descriptor
 * (see descriptorOut); `readerGone` is called when its reader went away (`paybatch … | head`).
 */
export function processIO(readerGone: () => void): IO {
  const tty: (boolean | undefined)[] = [];
  const terminal = (fd: 0 | 1 | 2): boolean => (tty[fd] ??= isTerminal(fd));
  let columns: number | undefined;
  return {
    get stdin() {
      return process.stdin;
    },
    stdout: descriptorOut(1, () => process.stdout, readerGone),
    get stderr() {
      return process.stderr;
    },
    get stdinIsTTY() {
      return terminal(0);
    },
    get stdoutIsTTY() {
      return terminal(1);
    },
    get stderrIsTTY() {
      return terminal(2);
    },
    env: process.env,
    get columns() {
      return (columns ??= terminalColumns(process.env.COLUMNS, terminal(1) ? process.stdout.columns : undefined));
    },
  };
}

/**
 * Whether descriptor `fd` is a terminal. Only a character device may be one: a pipe or a file is told by fstat, and
 * node:tty (which loads net and the streams) is asked only about the rest. It is taken when needed, not imported,
 * which would load it at every start.
 */
function isTerminal(fd: number): boolean {
  try {
    if (!fstatSync(fd).isCharacterDevice()) return false;
  } catch {
    return false; // closed: no terminal
  }
  return process.getBuiltinModule('node:tty').isatty(fd);
}

/** Bytes written to a descriptor with write(2) before output goes through its stream (see descriptorOut). */
const DIRECT_BYTES = 64 * 1024;

/** How descriptorOut reaches its descriptor (fs.writeSync; tests give descriptors that fail). */
type WriteSync = (fd: number, bytes: Uint8Array, offset: number, length: number) => number;

/**
 * Writes to descriptor `fd` with write(2), so a command that prints a few lines never makes the stream; after
 * DIRECT_BYTES (a pipe's buffer: a long-running daemon's logs must not block on a slow reader), or when the
 * descriptor would block (EAGAIN: it was left non-blocking), the rest goes through `stream()`, in order. A reader
 * gone (EPIPE) calls `closed`, on either path.
 */
export function descriptorOut(fd: number, stream: () => NodeJS.WritableStream, closed: () => void, write: WriteSync = writeSync): TextOut {
  let through: NodeJS.WritableStream | null = null;
  let written = 0;
  const toStream = (): NodeJS.WritableStream => {
    if (through) return through;
    through = stream();
    through.on('error', (e: NodeJS.ErrnoException) => {
      if (e.code !== 'EPIPE') throw e;
      closed();
    });
    return through;
  };
  return {
    write(chunk) {
      if (through || written >= DIRECT_BYTES) return toStream().write(chunk);
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
      let done = 0;
      try {
        while (done < bytes.length) done += write(fd, bytes, done, bytes.length - done);
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        if (code === 'EPIPE') return closed();
        if (code !== 'EAGAIN') throw e;
        return toStream().write(bytes.subarray(done));
      } finally {
        written += done;
      }
      return true;
    },
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

/** The variables that choose the language (resolveLocale reads these). */
const LANGUAGE_VARIABLES = ['LC_ALL', 'LC_MESSAGES', 'LANG'] as const;

/**
 * The environment that chooses the language: the run's own (io.env, which is process.env outside tests) over the
 * process's, so a test that gives no LC_ALL/LANG reads the one its runner set. Only those variables: copying the
 * whole environment (twice a start) took 0.2 ms of each.
 */
export function languageEnv(io: IO): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const name of LANGUAGE_VARIABLES) env[name] = name in io.env ? io.env[name] : process.env[name];
  return env;
}

/** Prompts need a person: stdin and stderr on a terminal. */
export function canPrompt(io: IO): boolean {
  return io.stdinIsTTY && io.stderrIsTTY;
}

// What the end-to-end benches share (follow-up.mjs, scale.mjs): the built paybatch run under GNU time, a
// `paybatch sandbox serve` of their own, the environment that points paybatch at it, and the daemon's arguments.
import { execFile, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { envOf } from '../scripts/simulation/processes.mjs';

export const BIN = fileURLToPath(new URL('../bin/paybatch.js', import.meta.url));
const run = promisify(execFile);

/**
 * Runs paybatch once under /usr/bin/time (`timeFile` receives its report): resolves with wall time in ms, stdout,
 * peak RSS in MiB and CPU time (user + system) in seconds; rejects on a non-zero exit or after `timeoutMs`.
 */
export async function measured(argv, env, timeFile, timeoutMs) {
  const t = performance.now();
  const { stdout } = await run('/usr/bin/time', ['-f', '%M %U %S', '-o', timeFile, process.execPath, BIN, ...argv], { env, maxBuffer: 256 * 1024 * 1024, timeout: timeoutMs });
  const ms = performance.now() - t;
  const [kb, user, system] = readFileSync(timeFile, 'utf8').trim().split('\n').at(-1).split(' ').map(Number);
  return { ms, stdout, peakMiB: +(kb / 1024).toFixed(1), cpuSeconds: +(user + system).toFixed(1) };
}

/** Starts `paybatch sandbox serve` (no faults) on a free port; resolves with the child and its ready document. */
export function startSandbox(state) {
  const child = spawn(process.execPath, [BIN, 'sandbox', 'serve', '--json', '--port', '0', '--state', state, '--speed', '1000', '--seed', '3'], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let text = '';
    const timer = setTimeout(() => reject(new Error(`the sandbox did not start: ${text}`)), 30_000);
    child.stdout.on('data', (b) => {
      text += b;
      try {
        const ready = JSON.parse(text);
        clearTimeout(timer);
        resolve({ child, ready });
      } catch {
        // the ready document is not complete yet
      }
    });
    child.once('exit', (code) => reject(new Error(`the sandbox exited with ${code}: ${text}`)));
  });
}

/** Stops a started sandbox and waits for it to exit (its state file is then complete to read). */
export async function stopSandbox(sandbox) {
  const { child } = sandbox;
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/** A process's peak resident set so far (VmHWM) in MiB, from /proc; null when it cannot be read. */
export function peakRssMiB(pid) {
  try {
    const kb = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb === undefined ? null : +(Number(kb) / 1024).toFixed(1);
  } catch {
    return null;
  }
}

/** A process's CPU time so far (user + system) in seconds, from /proc; null when it cannot be read. */
export function cpuSeconds(pid) {
  try {
    const [utime, stime] = readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /s, '').split(' ').slice(11, 13).map(Number);
    return +((utime + stime) / 100).toFixed(1);
  } catch {
    return null;
  }
}

/** The environment of paybatch commands in `dir` paying through the sandbox `ready` (amounts in centavos). */
export function paybatchEnv(dir, ready) {
  return {
    PATH: process.env.PATH ?? '',
    HOME: dir,
    XDG_CONFIG_HOME: join(dir, 'config'),
    XDG_DATA_HOME: join(dir, 'data'),
    NO_COLOR: '1',
    ...envOf(ready),
    PAYBATCH_WEBHOOK_SECRET: 'bench-webhook-secret',
    PAYBATCH_RECEIPTS_DIR: join(dir, 'receipts'),
    PAYBATCH_MAX_BATCH_TOTAL: '100000000000',
  };
}

/** `paybatch daemon` following everything to settled with receipts, webhooks on a free port, giving up after `timeout` (e.g. 14m). */
export async function daemonArgs(timeout) {
  const port = await freePort();
  return ['daemon', '--listen', `127.0.0.1:${port}`, '--public-url', `http://127.0.0.1:${port}/webhooks`, '--interval', '1', '--until-settled', '--timeout', timeout, '--log-format', 'json'];
}

function freePort() {
  return new Promise((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

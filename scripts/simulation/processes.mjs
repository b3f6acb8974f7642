// The processes of a simulated seed: the sandbox (`paybatch sandbox serve`), runs of the built paybatch, and the
// daemon kept running (restarted after each kill, as systemd's Restart=on-failure would).
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const BIN = fileURLToPath(new URL('../../bin/paybatch.js', import.meta.url));

/**
 * Runs the built paybatch once and resolves with how it ended; never rejects on a non-zero exit. A run still going
 * after `timeoutMs` is killed and reported as `hung`.
 */
export function paybatch(args, env, { timeoutMs = 60_000 } = {}) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let hung = false;
    child.stdout.on('data', (b) => (stdout += b));
    child.stderr.on('data', (b) => (stderr += b));
    const timer = setTimeout(() => {
      hung = true;
      child.kill('SIGKILL');
    }, timeoutMs);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, hung, stdout, stderr });
    });
  });
}

/**
 * A loopback port for the daemon's receiver, reserved for the whole seed: the daemon keeps it across restarts (the
 * provider's subscription names it), so it must stay its own while a killed daemon restarts. Taken below the
 * kernel's ephemeral range, so that no port-0 listener or outgoing connection takes it, and reserved by a file of
 * the temporary folder made exclusively and holding this process's id, so that no other seed takes it either: of
 * this simulation, or of another one running at the same time (the other ledger backend's, say). `release()` when
 * the seed is done; a reservation left by a simulation that died is taken over.
 */
export async function reservePort(seed) {
  const dir = join(tmpdir(), `paybatch-sim-ports-${process.getuid?.() ?? 'user'}`);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  for (let i = 0; i < 200; i++) {
    const port = 20_000 + ((seed * 7919 + i * 104_729) % 12_000);
    const file = join(dir, String(port));
    if (!claim(file)) continue;
    const free = await new Promise((resolve) => {
      const s = createServer();
      s.once('error', () => resolve(false));
      s.listen(port, '127.0.0.1', () => s.close(() => resolve(true)));
    });
    const release = () => rmSync(file, { force: true });
    if (free) return { port, release };
    release();
  }
  throw new Error('no free port for the daemon');
}

/** Makes the reservation file, unless a live process holds it. */
function claim(file) {
  const make = () => {
    try {
      writeFileSync(file, String(process.pid), { flag: 'wx' });
      return true;
    } catch (e) {
      if (e.code === 'EEXIST') return false;
      throw e;
    }
  };
  if (make()) return true;
  let holder = 0;
  try {
    holder = Number(readFileSync(file, 'utf8'));
  } catch {
    // released meanwhile
  }
  if (holder && alive(holder)) return false;
  rmSync(file, { force: true });
  return make();
}

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return e.code === 'EPERM';
  }
}

/** The inspection routes of a running sandbox, with its admin token. */
function adminOf(ready) {
  return async (path, body) => {
    const res = await fetch(`${ready.url}/_sandbox/${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { authorization: `Bearer ${ready.adminToken}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`/_sandbox/${path}: ${res.status} ${await res.text()}`);
    return res.json();
  };
}

/** What a paybatch command needs to pay through the sandbox `ready` (amounts in centavos). */
export const envOf = (ready) => ({
  PAYBATCH_BASE_URL: ready.url,
  PAYBATCH_PIX_AMOUNT_UNIT: 'cents',
  PAYBATCH_BILL_AMOUNT_UNIT: 'reais',
  PAYBATCH_TOKEN_URL: ready.tokenUrl,
  PAYBATCH_API_KEY: ready.apiKey,
  PAYBATCH_CLIENT_ID: ready.clientId,
  PAYBATCH_CLIENT_SECRET: ready.clientSecret,
});

/**
 * The sandbox inside this process: the same server as `paybatch sandbox serve` (`startSandbox` of the build, the way
 * paybatch embeds it), over real HTTP on a loopback port, without a Node.js start-up per seed.
 */
export async function startSandboxInline(o) {
  const { startSandbox: start } = await import('../../dist/sandbox/server.js');
  const log = [];
  const ready = await start({ ...o, host: '127.0.0.1', port: 0, logger: (line) => log.push(line) });
  return { ready, log, admin: adminOf(ready), env: envOf(ready), stop: () => ready.close() };
}

/** Starts `paybatch sandbox serve --json` and resolves once its ready document is out. */
export function startSandbox(args, env) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, 'sandbox', 'serve', '--json', '--port', '0', ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let text = '';
    const log = [];
    let partial = '';
    child.stderr.on('data', (b) => {
      const lines = (partial + b).split('\n');
      partial = lines.pop();
      log.push(...lines);
    });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the sandbox did not start: ${text}${log.join('\n')}`));
    }, 20_000);
    const exited = new Promise((r) => child.on('close', (code, signal) => r({ code, signal })));
    child.stdout.on('data', (b) => {
      text += b;
      let ready;
      try {
        ready = JSON.parse(text);
      } catch {
        return;
      }
      clearTimeout(timer);
      resolve({
        ready,
        log,
        admin: adminOf(ready),
        env: envOf(ready),
        async stop() {
          child.kill('SIGTERM');
          const t = setTimeout(() => child.kill('SIGKILL'), 5_000);
          await exited;
          clearTimeout(t);
        },
      });
    });
    exited.then(({ code, signal }) => reject(new Error(`the sandbox exited (${code ?? signal}) before it was ready: ${log.join('\n')}`)));
  });
}

/**
 * `paybatch daemon` with its receiver on a fixed port, restarted whenever it dies, each run armed with the next kill
 * of the plan (PAYBATCH_CRASH_AT). Reads its JSON log for the passes it finishes.
 */
export class Daemon {
  constructor({ env, port, kills, interval = '0.3' }) {
    this.env = env;
    this.port = port;
    this.kills = [...kills];
    this.interval = interval;
    this.passes = 0;
    this.last = null;
    this.runs = 0;
    this.killed = 0;
    this.exits = [];
    this.stopping = false;
    this.child = null;
    this.tail = [];
    this.waiters = new Set();
    this.subscribed = 0;
    /** The current run has its receiver up and is subscribed. */
    this.up = false;
  }

  start() {
    const crash = this.kills.shift();
    this.armed = crash ?? null;
    const env = crash === undefined ? this.env : { ...this.env, PAYBATCH_CRASH_AT: crash };
    const args = ['daemon', '--listen', `127.0.0.1:${this.port}`, '--public-url', `http://127.0.0.1:${this.port}/webhooks`, '--interval', this.interval, '--log-format', 'json'];
    const child = spawn(process.execPath, [BIN, ...args], { env, stdio: ['ignore', 'ignore', 'pipe'] });
    this.child = child;
    this.up = false;
    this.runs += 1;
    let partial = '';
    child.stderr.on('data', (b) => {
      const lines = (partial + b).split('\n');
      partial = lines.pop();
      for (const line of lines) this.#line(line);
    });
    child.on('close', (code, signal) => {
      if (this.child === child) {
        this.child = null;
        this.up = false;
      }
      if (signal === 'SIGKILL') this.killed += 1;
      else if (!this.stopping && !this.restarting) this.exits.push({ code, signal, tail: this.tail.slice(-5) });
      this.#wake();
      if (this.stopping || this.restarting || this.exits.length > 5) return;
      // A daemon that exits on its own (a bug, the port still held) is restarted too, but not in a tight loop.
      setTimeout(() => !this.stopping && this.child === null && this.start(), signal === 'SIGKILL' ? 50 : 300);
    });
  }

  #line(line) {
    let entry;
    try {
      entry = JSON.parse(line);
    } catch {
      this.tail.push(line);
      return;
    }
    if (entry.msg === 'pass done') {
      this.passes += 1;
      this.last = entry;
      this.#wake();
    } else if (entry.msg === 'subscribed to provider events') {
      this.subscribed += 1;
      this.up = true;
      this.#wake();
    } else if (entry.level !== 'info') {
      this.tail.push(line);
      if (this.tail.length > 50) this.tail.shift();
    }
  }

  #wake() {
    for (const w of [...this.waiters]) w();
  }

  /** Resolves true once `predicate()` holds (checked at each pass, subscription or exit), false after timeoutMs. */
  until(predicate, timeoutMs) {
    if (predicate()) return Promise.resolve(true);
    return new Promise((resolve) => {
      const done = (v) => {
        clearTimeout(timer);
        this.waiters.delete(check);
        resolve(v);
      };
      const check = () => predicate() && done(true);
      const timer = setTimeout(() => done(false), timeoutMs);
      this.waiters.add(check);
    });
  }

  /**
   * When the kill this run is armed with has not landed (its phase did not come) and more are planned, restarts the
   * daemon gracefully (SIGTERM) armed with the next one.
   */
  async rearm() {
    if (this.stopping || !this.child || this.armed === null || !this.kills.length) return;
    this.restarting = true;
    const child = this.child;
    const closed = new Promise((r) => child.once('close', r));
    child.kill('SIGTERM');
    await closed;
    this.restarting = false;
    if (!this.stopping && this.child === null) this.start();
  }

  async stop() {
    this.stopping = true;
    const child = this.child;
    if (!child) return;
    const closed = new Promise((r) => child.once('close', r));
    child.kill('SIGTERM');
    const t = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await closed;
    clearTimeout(t);
  }
}

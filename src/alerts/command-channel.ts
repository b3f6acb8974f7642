import { spawn } from 'node:child_process';
import type { Alert, ChannelResult } from './alert.js';
import type { AlertChannel } from './alert-channel.js';
import { excerpt } from './secret-text.js';

/** Bytes of the command's standard error kept for the error message. */
const STDERR_BYTES = 500;
/** After SIGTERM on timeout, how long the command has to finish before SIGKILL. */
const KILL_GRACE_MS = 1000;
/** After the command exits, how long to wait for its standard error to close (a background child may hold it open). */
const STDERR_DRAIN_MS = 200;
/** paybatch's own secrets in the environment (API key, client secret, webhook secret, alert webhook and SMTP URLs). */
const SECRET_VARIABLE = /^PAYBATCH_(API_KEY|CLIENT_SECRET|WEBHOOK_SECRET|ALERT_WEBHOOK_URL|SMTP_URL)$/;

/** A local command (setting alertCommand), the alert as JSON on its standard input. */
export const commandChannel: AlertChannel = {
  name: 'command',
  isConfigured: (s) => Boolean(s.command),
  send: (a, s) => runCommandAlert(a, s.command!, { timeoutMs: s.timeoutMs }),
};

export interface CommandAlertOptions {
  timeoutMs: number;
  /** Environment the command inherits; default process.env. */
  env?: NodeJS.ProcessEnv;
}

/**
 * Runs `command` with `/bin/sh -c`, the alert as JSON on its standard input (amounts in centavos) and
 * PAYBATCH_ALERT_KIND, PAYBATCH_ALERT_TITLE, PAYBATCH_ALERT_ID, PAYBATCH_ALERT_PROFILE, PAYBATCH_ALERT_SANDBOX (1/0)
 * in its environment, without paybatch's secret variables. Ok when it exits 0. On timeout its whole process group gets
 * SIGTERM, then SIGKILL. Errors quote the first 500 bytes of its standard error, never the command line (it may hold a
 * token). Never throws.
 */
export function runCommandAlert(a: Alert, command: string, o: CommandAlertOptions): Promise<ChannelResult> {
  return new Promise((resolve) => {
    const env: NodeJS.ProcessEnv = {};
    for (const [k, v] of Object.entries(o.env ?? process.env)) if (!SECRET_VARIABLE.test(k)) env[k] = v;
    Object.assign(env, {
      PAYBATCH_ALERT_KIND: a.kind,
      PAYBATCH_ALERT_TITLE: a.title,
      PAYBATCH_ALERT_ID: String(a.id),
      PAYBATCH_ALERT_PROFILE: a.profile,
      PAYBATCH_ALERT_SANDBOX: a.sandbox ? '1' : '0',
    });

    const stderr: Buffer[] = [];
    let stderrSize = 0;
    let settled = false;
    const timers: NodeJS.Timeout[] = [];

    const finish = (ok: boolean, error: string | null): void => {
      if (settled) return;
      settled = true;
      for (const t of timers.splice(0)) clearTimeout(t);
      const head = excerpt(Buffer.concat(stderr).subarray(0, STDERR_BYTES).toString('utf8'), STDERR_BYTES);
      const said = head && stderrSize > STDERR_BYTES ? `${head}…` : head;
      resolve({ channel: 'command', ok, error: error === null ? null : said ? `${error}: ${said}` : error });
    };

    // Its own process group, so a timeout stops the shell and everything it started.
    const child = spawn('/bin/sh', ['-c', command], { stdio: ['pipe', 'ignore', 'pipe'], env, detached: true });

    const killGroup = (signal: NodeJS.Signals): void => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, signal);
      } catch {
        // Already gone.
      }
    };

    child.on('error', (e) => finish(false, `alert command could not be started: ${e.message}`));
    child.stderr.on('data', (chunk: Buffer) => {
      // Keep reading past the limit so a chatty command never blocks on a full pipe.
      if (stderrSize < STDERR_BYTES) stderr.push(chunk);
      stderrSize += chunk.length;
    });
    // A command that does not read its input makes the write fail with EPIPE; its exit status decides.
    child.stdin.on('error', () => undefined);
    child.stdin.end(`${JSON.stringify(a)}\n`);

    const outcome = (code: number | null, signal: NodeJS.Signals | null): [boolean, string | null] => {
      if (code === 0) return [true, null];
      if (code !== null) return [false, `alert command exited with code ${code}`];
      return [false, `alert command was killed by ${signal ?? 'a signal'}`];
    };
    child.on('exit', (code, signal) => {
      const [ok, error] = outcome(code, signal);
      timers.push(setTimeout(() => finish(ok, error), STDERR_DRAIN_MS));
    });
    child.on('close', (code, signal) => finish(...outcome(code, signal)));

    timers.push(
      setTimeout(() => {
        killGroup('SIGTERM');
        // Not cleared by finish: the SIGKILL must follow even after the result is in, for anything in the group
        // that ignored SIGTERM (the shell itself may be gone by then).
        setTimeout(() => killGroup('SIGKILL'), KILL_GRACE_MS);
        finish(false, `alert command did not finish within ${o.timeoutMs} ms and was stopped`);
      }, o.timeoutMs),
    );
  });
}

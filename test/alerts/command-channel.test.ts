import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import type { Alert } from '../../src/alerts/alert.js';
import { runCommandAlert } from '../../src/alerts/command-channel.js';
import { useTempDir } from '../helpers/temp-dir.js';
import { waitFor } from '../helpers/wait-for.js';
import { alert } from './fixtures.js';

const tempDir = useTempDir();

/** Running, i.e. neither gone nor a zombie (an orphan waits for init to reap it, which in a container may take a while). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  if (!existsSync('/proc/self/stat')) return true;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

/** The text a command wrote to `path`, once it has (polled with waitFor, whose sleeps stay real under fake timers). */
function waitForFile(path: string): Promise<string> {
  return waitFor(() => existsSync(path) && readFileSync(path, 'utf8').trim(), { what: `${path} to be written` });
}

/** A timeout no command here comes near (they finish by themselves): not what these tests are about. */
const AMPLE_MS = 20_000;

/**
 * Runs `body` with setTimeout on fake timers: the command's timeout (and the SIGKILL after it) fire when the test
 * advances them, once it has seen the command running, whatever the machine's load.
 */
async function onFakeTimers<T>(body: () => Promise<T>): Promise<T> {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  try {
    return await body();
  } finally {
    vi.useRealTimers();
  }
}

describe('runCommandAlert', () => {
  it('runs the command through sh with the alert as JSON on stdin and its kind and title in the environment', async () => {
    const dir = tempDir();
    const a = alert({ title: 'Títle with "quotes" & $dollars' });
    const result = await runCommandAlert(a, `cat > "${dir}/alert.json"; printf '%s|%s|%s' "$PAYBATCH_ALERT_KIND" "$PAYBATCH_ALERT_TITLE" "$PAYBATCH_ALERT_ID" > "${dir}/env.txt"`, {
      timeoutMs: AMPLE_MS,
    });
    expect(result).toEqual({ channel: 'command', ok: true, error: null });
    expect(JSON.parse(readFileSync(join(dir, 'alert.json'), 'utf8')) as Alert).toEqual(a);
    expect(readFileSync(join(dir, 'env.txt'), 'utf8')).toBe('stale-items|Títle with "quotes" & $dollars|7');
  });

  it('keeps the environment but not paybatch secrets', async () => {
    const dir = tempDir();
    const env = { PATH: process.env.PATH, KEEP_ME: 'yes', PAYBATCH_PROFILE: 'acme', PAYBATCH_API_KEY: 'SECRET-api', PAYBATCH_SMTP_URL: 'smtp://u:SECRET@h', PAYBATCH_ALERT_WEBHOOK_URL: 'https://hooks/SECRET' };
    const result = await runCommandAlert(alert(), `env > "${dir}/env.txt"`, { timeoutMs: AMPLE_MS, env });
    expect(result.ok).toBe(true);
    const seen = readFileSync(join(dir, 'env.txt'), 'utf8');
    expect(seen).toContain('KEEP_ME=yes');
    expect(seen).toContain('PAYBATCH_PROFILE=acme');
    expect(seen).toContain('PAYBATCH_ALERT_SANDBOX=0');
    expect(seen).not.toContain('SECRET');
  });

  it('reports a failing command with its exit code and the start of its stderr, not the command line', async () => {
    const result = await runCommandAlert(alert(), `cat >/dev/null; echo "mailer: quota exceeded" >&2; exit 3 # token=SECRETinline`, { timeoutMs: AMPLE_MS });
    expect(result).toEqual({ channel: 'command', ok: false, error: 'alert command exited with code 3: mailer: quota exceeded' });
  });

  it('keeps only the first 500 bytes of a chatty stderr', async () => {
    const result = await runCommandAlert(alert(), `head -c 200000 /dev/zero | tr '\\0' 'e' >&2; exit 1`, { timeoutMs: AMPLE_MS });
    expect(result.ok).toBe(false);
    expect(result.error!.length).toBeLessThan(600);
    expect(result.error).toMatch(/^alert command exited with code 1: e{500}…$/);
  });

  it('succeeds when the command ignores its input', async () => {
    const result = await runCommandAlert(alert({}, 5000), 'exit 0', { timeoutMs: AMPLE_MS });
    expect(result.ok).toBe(true);
  });

  it('stops a hanging command and everything it started at the timeout', async () => {
    const dir = tempDir();
    const pidFile = join(dir, 'pid');
    await onFakeTimers(async () => {
      let settled = false;
      const sending = runCommandAlert(alert(), `sleep 30 & echo $! > "${pidFile}"; wait`, { timeoutMs: 2000 }).finally(() => (settled = true));
      // The command is running (it started the sleep): then its 2 s pass, on the fake clock.
      const sleeper = Number(await waitForFile(pidFile));
      await vi.advanceTimersByTimeAsync(1999);
      expect(settled).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      // It returned at the timeout, not when the sleep would have ended.
      expect(await sending).toEqual({ channel: 'command', ok: false, error: 'alert command did not finish within 2000 ms and was stopped' });
      await waitFor(() => !alive(sleeper), { what: `the background sleep (pid ${sleeper}) to be stopped` });
    });
  });

  it('kills a command that ignores SIGTERM', async () => {
    const dir = tempDir();
    const pidFile = join(dir, 'pid');
    await onFakeTimers(async () => {
      const sending = runCommandAlert(alert(), `trap '' TERM; echo $$ > "${pidFile}"; while :; do sleep 0.05; done`, { timeoutMs: 2000 });
      // The shell has set its trap (it wrote its pid after): then the timeout fires, on the fake clock.
      const shell = Number(await waitForFile(pidFile));
      await vi.advanceTimersByTimeAsync(2000);
      const result = await sending;
      expect(result.ok).toBe(false);
      // At the result the shell had its SIGTERM and ignored it; SIGKILL follows once the grace period has passed.
      expect(alive(shell)).toBe(true);
      await vi.advanceTimersByTimeAsync(1000);
      await waitFor(() => !alive(shell), { what: `the shell (pid ${shell}) to be killed` });
    });
  });

  it('reports a command that does not exist', async () => {
    const result = await runCommandAlert(alert(), 'no-such-command-paybatch-test', { timeoutMs: AMPLE_MS });
    expect(result.ok).toBe(false);
    expect(result.error).toMatch(/^alert command exited with code 127: .*not found/);
  });
});

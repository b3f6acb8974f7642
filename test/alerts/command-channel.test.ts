import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
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

async function waitForFile(path: string, ms = 20_000): Promise<string> {
  const until = Date.now() + ms;
  while (!existsSync(path) || readFileSync(path, 'utf8').trim() === '') {
    if (Date.now() > until) throw new Error(`${path} never appeared`);
    await sleep(10);
  }
  return readFileSync(path, 'utf8').trim();
}

describe('runCommandAlert', () => {
  it('runs the command through sh with the alert as JSON on stdin and its kind and title in the environment', async () => {
    const dir = tempDir();
    const a = alert({ title: 'Títle with "quotes" & $dollars' });
    const result = await runCommandAlert(a, `cat > "${dir}/alert.json"; printf '%s|%s|%s' "$PAYBATCH_ALERT_KIND" "$PAYBATCH_ALERT_TITLE" "$PAYBATCH_ALERT_ID" > "${dir}/env.txt"`, {
      timeoutMs: 3000,
    });
    expect(result).toEqual({ channel: 'command', ok: true, error: null });
    expect(JSON.parse(readFileSync(join(dir, 'alert.json'), 'utf8')) as Alert).toEqual(a);
    expect(readFileSync(join(dir, 'env.txt'), 'utf8')).toBe('stale-items|Títle with "quotes" & $dollars|7');
  });

  it('keeps the environment but not paybatch secrets', async () => {
    const dir = tempDir();
    const env = { PATH: process.env.PATH, KEEP_ME: 'yes', PAYBATCH_PROFILE: 'acme', PAYBATCH_API_KEY: 'SECRET-api', PAYBATCH_SMTP_URL: 'smtp://u:SECRET@h', PAYBATCH_ALERT_WEBHOOK_URL: 'https://hooks/SECRET' };
    const result = await runCommandAlert(alert(), `env > "${dir}/env.txt"`, { timeoutMs: 3000, env });
    expect(result.ok).toBe(true);
    const seen = readFileSync(join(dir, 'env.txt'), 'utf8');
    expect(seen).toContain('KEEP_ME=yes');
    expect(seen).toContain('PAYBATCH_PROFILE=acme');
    expect(seen).toContain('PAYBATCH_ALERT_SANDBOX=0');
    expect(seen).not.toContain('SECRET');
  });

  it('reports a failing command with its exit code and the start of its stderr, not the command line', async () => {
    const result = await runCommandAlert(alert(), `cat >/dev/null; echo "mailer: quota exceeded" >&2; exit 3 # token=SECRETinline`, { timeoutMs: 3000 });
    expect(result).toEqual({ channel: 'command', ok: false, error: 'alert command exited with code 3: mailer: quota exceeded' });
  });

  it('keeps only the first 500 bytes of a chatty stderr', async () => {
    const result = await runCommandAlert(alert(), `head -c 200000 /dev/zero | tr '\\0' 'e' >&2; exit 1`, { timeoutMs: 3000 });
    expect(result.ok).toBe(false);
    expect(result.error!.length).toBeLessThan(600);
    expect(result.error).toMatch(/^alert command exited with code 1: e{500}…$/);
  });

  it('succeeds when the command ignores its input', async () => {
    const result = await runCommandAlert(alert({}, 5000), 'exit 0', { timeoutMs: 3000 });
    expect(result.ok).toBe(true);
  });

  it('stops a hanging command and everything it started at the timeout', async () => {
    const dir = tempDir();
    const pidFile = join(dir, 'pid');
    const started = Date.now();
    // 2 s: ample for sh to start and write the pid on a loaded machine, and far below the 30 s sleep.
    const result = await runCommandAlert(alert(), `sleep 30 & echo $! > "${pidFile}"; wait`, { timeoutMs: 2000 });
    expect(result).toEqual({ channel: 'command', ok: false, error: 'alert command did not finish within 2000 ms and was stopped' });
    // It returned at the timeout, not when the sleep would have ended.
    expect(Date.now() - started).toBeLessThan(20_000);
    const sleeper = Number(await waitForFile(pidFile));
    await waitFor(() => !alive(sleeper), { what: `the background sleep (pid ${sleeper}) to be stopped` });
  });

  it('kills a command that ignores SIGTERM', async () => {
    const dir = tempDir();
    const pidFile = join(dir, 'pid');
    const result = await runCommandAlert(alert(), `trap '' TERM; echo $$ > "${pidFile}"; while :; do sleep 0.05; done`, { timeoutMs: 2000 });
    expect(result.ok).toBe(false);
    // At the result the shell had its SIGTERM and ignored it; SIGKILL follows a grace period later.
    const shell = Number(readFileSync(pidFile, 'utf8').trim());
    expect(alive(shell)).toBe(true);
    await waitFor(() => !alive(shell), { what: `the shell (pid ${shell}) to be killed` });
  });

  it('reports a command that does not exist', async () => {
    const result = await runCommandAlert(alert(), 'no-such-command-paybatch-test', { timeoutMs: 3000 });
    expect(result.ok).toBe(false);
    expect(result.error).toMatch(/^alert command exited with code 127: .*not found/);
  });
});

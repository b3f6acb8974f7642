import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Polls `check` until it returns a value other than undefined or false, and returns that value; fails after
 * `timeoutMs`. Tests wait on the condition they need, never on a fixed sleep, and the deadline is generous (a loaded
 * 2-core machine): it only bounds how long a broken run takes to fail.
 */
export async function waitFor<T>(
  check: () => T | undefined | false | Promise<T | undefined | false>,
  o: { timeoutMs?: number; intervalMs?: number; what?: string } = {},
): Promise<T> {
  const deadline = Date.now() + (o.timeoutMs ?? 20_000);
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${o.timeoutMs ?? 20_000} ms waiting for ${o.what ?? 'a condition'}`);
    await sleep(o.intervalMs ?? 25);
  }
}

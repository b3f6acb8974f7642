import { expect } from 'vitest';
import { paybatch } from './e2e.js';

type Run = Awaited<ReturnType<typeof paybatch>>;

/**
 * Runs `paybatch import <args>` against a provider that injects faults, again after each failed run, until one
 * exits 0 (at most `maxRuns` runs). Every run's outcome is asserted: a run may fail only the way an import that
 * meets more faults than its retries absorb must fail — exit 1, naming the call it gave up on, and telling the user
 * to run it again (the next run continues where it stopped). Returns every run, the successful one last.
 */
export async function importThroughFaults(args: string[], o: { env: Record<string, string>; maxRuns: number; timeout?: number }): Promise<Run[]> {
  const runs: Run[] = [];
  for (;;) {
    const run = await paybatch(['import', ...args], { env: o.env, timeout: o.timeout });
    runs.push(run);
    const what = `import run ${runs.length}: ${run.stderr.slice(-1500)}`;
    expect(run.timedOut, what).toBe(false);
    if (run.exitCode === 0) return runs;
    expect(run.exitCode, what).toBe(1);
    expect(run.stderr, what).toMatch(/gave up after \d+ attempts/);
    expect(run.stderr, what).toMatch(/\b(run|try)\b.*\bagain\b/i);
    expect(runs.length, `every one of ${o.maxRuns} import runs failed`).toBeLessThan(o.maxRuns);
  }
}

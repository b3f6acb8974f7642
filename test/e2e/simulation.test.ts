import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';

/**
 * Exactly-once, proved by the seeded simulation (scripts/simulate.mjs, `npm run simulate`) on a fixed set of seeds:
 * sheets and bills paid through the sandbox's faults, webhooks lost, duplicated, reordered and forged, and paybatch
 * killed with SIGKILL at every phase of its work. Any invariant violated fails the test with the seeds that violate
 * it and the command that replays each one.
 */
const SIMULATE = fileURLToPath(new URL('../../scripts/simulate.mjs', import.meta.url));
const FIRST_SEED = 1;
const SEEDS = 30;

interface Summary {
  seeds: number;
  violations: number;
  kills: Record<string, number>;
  forged: { sent: number; applied: number };
  failing: { seed: number; violations: { invariant: string; detail: string }[]; replay: string }[];
}

describe('exactly-once under a seeded simulation (end to end)', () => {
  it(`${SEEDS} fixed seeds: kills at every phase, faults, lost, duplicated, reordered and forged webhooks — no invariant violated`, async () => {
    const run = await execa(process.execPath, [SIMULATE, '--seeds', String(SEEDS), '--seed', String(FIRST_SEED), '--jobs', '2', '--json'], { reject: false, timeout: 420_000 });
    expect(run.stdout, run.stderr.slice(-3000)).not.toBe('');
    const summary = JSON.parse(run.stdout) as Summary;
    expect(summary.seeds).toBe(SEEDS);
    const report = summary.failing
      .map((f) => `seed ${f.seed} (replay: ${f.replay}):\n${f.violations.map((v) => `  ${v.invariant}: ${v.detail.slice(0, 500)}`).join('\n')}`)
      .join('\n');
    expect(summary.violations, report).toBe(0);
    expect(run.exitCode).toBe(0);
    // The fixed seeds land a kill in every phase, and send forged events, none of which is applied.
    for (const [phase, n] of Object.entries(summary.kills)) expect(n, `kills in phase ${phase}`).toBeGreaterThan(0);
    expect(summary.forged.sent).toBeGreaterThan(0);
    expect(summary.forged.applied).toBe(0);
  }, 430_000);
});

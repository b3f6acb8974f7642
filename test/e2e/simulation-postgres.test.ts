import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { postgresServerUrl } from '../helpers/postgres.js';

/**
 * The seeded simulation (scripts/simulate.mjs) on a PostgreSQL ledger: each seed's ledger is a new database of the
 * test run's server. These fixed seeds land a kill in every phase between them (checked below), run on the three
 * dialects and send false events; the seeds of simulation.test.ts run on SQLite.
 */
const SIMULATE = fileURLToPath(new URL('../../scripts/simulate.mjs', import.meta.url));
const SEEDS = [4, 15, 35, 42, 85, 143];

interface Summary {
  seeds: number;
  backend: string;
  violations: number;
  kills: Record<string, number>;
  dialects: Record<string, { seeds: number }>;
  forged: { sent: number; converged: number };
  failing: { seed: number; violations: { invariant: string; detail: string }[]; replay: string }[];
}

describe('exactly-once under a seeded simulation on a PostgreSQL ledger (end to end)', () => {
  it(`seeds ${SEEDS.join(', ')}: kills at every phase, faults, false events, three dialects — no invariant violated`, async () => {
    const run = await execa(process.execPath, [SIMULATE, '--seed-list', SEEDS.join(','), '--backend', 'postgres', '--jobs', '2', '--json'], {
      reject: false,
      // A bound for a run gone wrong: a minute alone, several times that beside a CPU-bound job.
      timeout: 600_000,
      // The server's URL holds its password: through the environment, not the command line.
      env: { PAYBATCH_TEST_POSTGRES_URL: postgresServerUrl() },
    });
    expect(run.stdout, run.stderr.slice(-3000)).not.toBe('');
    const summary = JSON.parse(run.stdout) as Summary;
    expect(summary.seeds).toBe(SEEDS.length);
    expect(summary.backend).toBe('postgres');
    const report = summary.failing
      .map((f) => `seed ${f.seed} (replay: ${f.replay}):\n${f.violations.map((v) => `  ${v.invariant}: ${v.detail.slice(0, 500)}`).join('\n')}`)
      .join('\n');
    expect(summary.violations, report).toBe(0);
    expect(run.exitCode).toBe(0);
    expect(Object.keys(summary.kills)).toHaveLength(8);
    for (const [phase, n] of Object.entries(summary.kills)) expect(n, `kills in phase ${phase}`).toBeGreaterThan(0);
    for (const dialect of ['paybatch', 'spec', 'iso']) expect(summary.dialects[dialect]?.seeds, `seeds on the ${dialect} dialect`).toBeGreaterThan(0);
    expect(summary.forged.sent).toBeGreaterThan(0);
    expect(summary.forged.converged).toBe(summary.forged.sent);
  }, 610_000);
});

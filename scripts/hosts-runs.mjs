// The long runs of the several-hosts tests (on demand, not in `npm test`, which runs them once): the tests of hosts
// that disagree on time or freeze (test/e2e/hosts-disagree.test.ts) and of daemons killed at random behind a proxy
// (test/e2e/several-hosts.test.ts), run again and again on real PostgreSQL; each run is reported, then the count of
// failed runs. `npm run test:hosts -- 20` runs them 20 times (default 10); exit 1 when any run failed.
import { spawnSync } from 'node:child_process';

const runs = Number(process.argv[2] ?? 10);
if (!Number.isInteger(runs) || runs < 1) {
  console.error('usage: npm run test:hosts -- [runs]');
  process.exit(2);
}
const files = ['test/e2e/hosts-disagree.test.ts', 'test/e2e/several-hosts.test.ts'];
const vitest = new URL('../node_modules/vitest/vitest.mjs', import.meta.url).pathname;
const failed = [];
const started = Date.now();
for (let n = 1; n <= runs; n++) {
  const t0 = Date.now();
  const r = spawnSync(process.execPath, [vitest, 'run', '--project', 'sqlite', ...files], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  const ok = r.status === 0;
  if (!ok) failed.push(n);
  const failures = `${r.stdout}${r.stderr}`.split('\n').filter((l) => /FAIL|AssertionError|Error:/.test(l)).slice(0, 6);
  console.log(`[${n}/${runs}] ${ok ? 'ok' : 'FAILED'} ${Math.round((Date.now() - t0) / 1000)} s${ok ? '' : `\n    ${failures.join('\n    ')}`}`);
}
console.log(`${runs - failed.length} of ${runs} runs passed${failed.length ? ` (failed: ${failed.join(', ')})` : ''} in ${Math.round((Date.now() - started) / 1000)} s`);
process.exit(failed.length ? 1 : 0);

import type { Reporter } from 'vitest/reporters';

type Task = { type: string; mode?: string; result?: { state?: string }; tasks?: Task[] };

/** Ends the run with the plain "N passed, N failed, N skipped" line that CI logs and people both read. */
export default class SummaryReporter implements Reporter {
  onFinished(files: readonly Task[] = []): void {
    const counts = { passed: 0, failed: 0, skipped: 0 };
    const walk = (t: Task) => {
      if (t.type === 'test') {
        if (t.result?.state === 'pass') counts.passed += 1;
        else if (t.result?.state === 'fail') counts.failed += 1;
        else counts.skipped += 1;
      }
      t.tasks?.forEach(walk);
    };
    files.forEach(walk);
    process.stdout.write(`\n${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped\n`);
  }
}

import type { Progress } from '../engine/progress.js';
import { progressMessages, type ProgressMessages } from './messages/progress.js';
import type { Output, Spinner } from './output.js';

/**
 * Turns engine progress into a spinner line with counts and rate on a terminal, or a few plain lines on stderr
 * otherwise (cron and CI logs get the phases, not a flood).
 */
export async function progressReporter(out: Output): Promise<{ onProgress: (p: Progress) => void; spinner: Spinner }> {
  const words = progressMessages[out.locale];
  const spinner = await out.spinner(words.working);
  let phase = '';
  let phaseStart = Date.now();
  const onProgress = (p: Progress) => {
    if (p.phase !== phase) {
      phase = p.phase;
      phaseStart = Date.now();
      if (!out.json) out.debug(`phase: ${p.phase}`);
    }
    spinner.text(describe(p, phaseStart, words));
    if ('done' in p && p.done === p.total && p.total > 0) out.info(describe(p, phaseStart, words));
  };
  return { onProgress, spinner };
}

function describe(p: Progress, since: number, words: ProgressMessages): string {
  switch (p.phase) {
    case 'lookup':
      return `${words.lookup(p.done, p.total)}${rate(p.done, since, words)}`;
    case 'add-items':
      return `${words.addItems(p.done, p.total)}${rate(p.done, since, words)}`;
    case 'create-batch':
      return words.createBatch(p.name);
    case 'start':
      return words.start(p.batchId);
  }
}

function rate(done: number, since: number, words: ProgressMessages): string {
  const s = (Date.now() - since) / 1000;
  return s > 0.5 && done > 0 ? words.rate(Math.round(done / s)) : '';
}

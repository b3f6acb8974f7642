import type { Progress } from '../engine/progress.js';
import type { Output, Spinner } from './output.js';

/**
 * Turns engine progress into a spinner line with counts and rate on a terminal, or a few plain lines on stderr
 * otherwise (cron and CI logs get the phases, not a flood).
 */
export async function progressReporter(out: Output): Promise<{ onProgress: (p: Progress) => void; spinner: Spinner }> {
  const spinner = await out.spinner('Working…');
  let phase = '';
  let phaseStart = Date.now();
  const onProgress = (p: Progress) => {
    if (p.phase !== phase) {
      phase = p.phase;
      phaseStart = Date.now();
      if (!out.json) out.debug(`phase: ${p.phase}`);
    }
    spinner.text(describe(p, phaseStart));
    if ('done' in p && p.done === p.total && p.total > 0) out.info(describe(p, phaseStart));
  };
  return { onProgress, spinner };
}

function describe(p: Progress, since: number): string {
  switch (p.phase) {
    case 'lookup':
      return `Looking up Pix keys ${p.done}/${p.total}${rate(p.done, since)}`;
    case 'add-items':
      return `Adding items ${p.done}/${p.total}${rate(p.done, since)}`;
    case 'create-batch':
      return `Creating the remote batch "${p.name}"`;
    case 'start':
      return `Starting batch ${p.batchId}`;
  }
}

function rate(done: number, since: number): string {
  const s = (Date.now() - since) / 1000;
  return s > 0.5 && done > 0 ? ` (${Math.round(done / s)}/s)` : '';
}

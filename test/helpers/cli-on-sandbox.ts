import { join } from 'node:path';
import { afterEach } from 'vitest';
import type { Prompter } from '../../src/cli/prompter.js';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server.js';
import { runCli } from './test-io.js';
import { useTempDir } from './temp-dir.js';

/**
 * The CLI in-process against an in-process sandbox whose clock starts where paybatch's clock is pinned, so the
 * bank window paybatch predicts and the one the provider applies are the same. `extraEnv` adds to the user's
 * environment (LC_ALL, for instance), as `run`'s `env` does for one run; `run` answers confirmations with `answer` when
 * given, and records them.
 */
export function useCliOnSandbox(): (startTime: string, extraEnv?: Record<string, string>) => Promise<{
  run: (argv: string[], o?: { answer?: boolean; tty?: boolean; columns?: number; env?: Record<string, string> }) => ReturnType<typeof runCli>;
  asked: string[];
  dir: string;
}> {
  const tempDir = useTempDir();
  const sandboxes: RunningSandbox[] = [];
  afterEach(async () => {
    for (const s of sandboxes.splice(0)) await s.close();
  });
  return async (startTime, extraEnv = {}) => {
    const s = await startSandbox({ stateFile: ':memory:', startTime, seed: 1 });
    sandboxes.push(s);
    const dir = tempDir();
    const env = {
      XDG_CONFIG_HOME: join(dir, 'config'),
      XDG_DATA_HOME: join(dir, 'data'),
      NO_COLOR: '1',
      PAYBATCH_BASE_URL: s.url,
      PAYBATCH_PIX_AMOUNT_UNIT: 'cents',
      PAYBATCH_BILL_AMOUNT_UNIT: 'reais',
      PAYBATCH_TOKEN_URL: s.tokenUrl,
      PAYBATCH_API_KEY: s.apiKey,
      PAYBATCH_CLIENT_ID: s.clientId,
      PAYBATCH_CLIENT_SECRET: s.clientSecret,
      ...extraEnv,
    };
    const now = () => new Date(startTime);
    const asked: string[] = [];
    const prompter = (answer: boolean): Prompter => ({
      confirm: async (message) => (asked.push(message), answer),
      input: async () => '',
      password: async () => '',
      select: async () => {
        throw new Error('no select expected');
      },
    });
    const run = (argv: string[], o: { answer?: boolean; tty?: boolean; columns?: number; env?: Record<string, string> } = {}) =>
      runCli(['--ledger', join(dir, 'ledger.db'), ...argv], { env: { ...env, ...o.env }, now, tty: o.tty ?? false, ...(o.columns === undefined ? {} : { columns: o.columns }), ...(o.answer === undefined ? {} : { prompter: prompter(o.answer) }) });
    return { run, asked, dir };
  };
}

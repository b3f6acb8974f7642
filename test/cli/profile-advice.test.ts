import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MONDAY_10H } from '../bills/fixtures.js';
import { useCliOnSandbox } from '../helpers/cli-on-sandbox.js';

const useSandbox = useCliOnSandbox();

/** A config file with the profiles "default" and "carga" (the provider's settings come from the environment). */
function withProfiles(dir: string): void {
  mkdirSync(join(dir, 'config', 'paybatch'), { recursive: true, mode: 0o700 });
  const path = join(dir, 'config', 'paybatch', 'config.json');
  writeFileSync(path, JSON.stringify({ profiles: { default: {}, carga: {} } }), { mode: 0o600 });
  chmodSync(path, 0o600);
}

describe('the commands paybatch suggests name the profile they are about', () => {
  it('provider check with --profile carga: the advice to pin the amount unit changes carga, not default', async () => {
    const { run, dir } = await useSandbox(MONDAY_10H, { PAYBATCH_PIX_AMOUNT_UNIT: '' });
    withProfiles(dir);
    const carga = await run(['--profile', 'carga', 'provider', 'check']);
    expect(carga.stdout).toContain("or reais (11.07), then paybatch --profile carga config set pixAmountUnit cents (or reais)");
    expect(carga.stdout).toContain('\n  paybatch --profile carga config set tokenAuth basic\n');
    const byDefault = await run(['provider', 'check']);
    expect(byDefault.stdout).toContain('or reais (11.07), then paybatch config set pixAmountUnit cents (or reais)');
    expect(byDefault.stdout).toContain('\n  paybatch config set tokenAuth basic\n');
    expect(byDefault.stdout).not.toContain('--profile');
  });

  it("an error's hint, on the terminal and in --json", async () => {
    const { run, dir } = await useSandbox(MONDAY_10H);
    withProfiles(dir);
    const human = await run(['--profile', 'carga', 'batch', 'show', '99']);
    expect(human.code).toBe(2);
    expect(human.stderr).toContain("\nSee 'paybatch --profile carga batch list'.\n");
    const json = await run(['--profile', 'carga', 'batch', 'show', '99', '--json']);
    expect(JSON.parse(json.stdout).error.hint).toBe("See 'paybatch --profile carga batch list'.");
    expect((await run(['batch', 'show', '99'])).stderr).toContain("\nSee 'paybatch batch list'.\n");
  });
});

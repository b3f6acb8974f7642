import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempDir } from '../helpers/temp-dir.js';
import { runCli } from '../helpers/test-io.js';

// The errors people meet most, run in each language: a line of stderr in the other language fails (an independent
// list of each language's common words, not paybatch's texts, as in help-language.test.ts).
const ENGLISH = new Set(
  'the and with when which this that from every each its is are be only not of to by or if it into than will would there in at for on set run must should can cannot does goes needs was were has have been what who how where while your you an but so after before nothing unknown invalid'.split(' '),
);
const PORTUGUESE = new Set(
  'não você uma um para com pelo pela pelos pelas quando também já até só lote lotes conta contas comprovante comprovantes provedor registro planilha cada seu sua seus suas sem ainda então porque isso esta este essa esse nada nenhum nenhuma depois antes quem onde existe deve ser é de da dos das em na nos nas ou aceito arquivo linha'.split(' '),
);

/**
 * The prose of an error line: what a person reads, without the names that are the same in both languages — paths,
 * flags, settings and variables, quoted values, commands, codes and URLs.
 */
function prose(line: string): string[] {
  return line
    .replace(/https?:\/\/\S+/g, ' ')
    .replace(/(^|[\s(])(\/|\.\/)[^\s,;:)]+/g, ' ')
    .replace(/\bpaybatch( [a-z-]+)+/g, ' ')
    .replace(/\b\w+(-\w+)+\b/g, ' ')
    .replace(/(^|[\s(])-{1,2}[\w-]+/g, ' ')
    .replace(/<[^>]*>|\[[^\]]*\]|"[^"]*"|`[^`]*`|'[^']*'/g, ' ')
    .replace(/\b[A-Z][A-Z0-9_]{2,}\b/g, ' ')
    .replace(/\b[a-z]+[A-Z]\w*\b/g, ' ')
    .replace(/\b\w+=\S*/g, ' ')
    .toLowerCase()
    .split(/[^a-zà-ú]+/)
    .filter(Boolean);
}

const tempDir = useTempDir();

interface Setup {
  readonly dir: string;
  readonly env: Record<string, string>;
}

/** A profile folder with a config file (mode 0600) holding `profiles`. */
function withConfig(dir: string, profiles: Record<string, unknown>): void {
  mkdirSync(join(dir, 'config', 'paybatch'), { recursive: true, mode: 0o700 });
  const path = join(dir, 'config', 'paybatch', 'config.json');
  writeFileSync(path, JSON.stringify({ profiles }), { mode: 0o600 });
  chmodSync(path, 0o600);
}

function sheet(dir: string, rows: readonly string[]): string {
  const path = join(dir, 'folha.csv');
  writeFileSync(path, ['chave;tipo_chave;valor;descricao', ...rows].join('\n') + '\n');
  return path;
}

const GOOD_ROW = 'ana@example.com;email;10,00;Frete';

/** Each case: a name, what to prepare, the command line, and the exit code it ends with. */
const CORPUS: readonly { name: string; argv: (s: Setup) => string[]; prepare?: (s: Setup) => void; env?: Record<string, string>; exit: number }[] = [
  { name: 'an unknown profile', argv: () => ['--profile', 'filial', 'batch', 'list'], prepare: (s) => withConfig(s.dir, { default: {} }), exit: 1 },
  { name: 'an unknown profile, none created', argv: () => ['--profile', 'filial', 'batch', 'list'], exit: 1 },
  { name: 'an unknown setting', argv: () => ['config', 'set', 'maxValor', '10'], exit: 1 },
  { name: 'an unknown setting to remove', argv: () => ['config', 'unset', 'maxValor'], exit: 1 },
  { name: 'a bad amount setting', argv: () => ['config', 'set', 'maxItemAmount', 'muito'], exit: 1 },
  { name: 'a bad URL setting', argv: () => ['config', 'set', 'baseUrl', 'ftp://banco'], exit: 1 },
  { name: 'a setting outside its choices', argv: () => ['config', 'set', 'pixAmountUnit', 'euros'], exit: 1 },
  { name: 'a bad duration setting', argv: () => ['config', 'set', 'staleAfter', 'logo'], exit: 1 },
  { name: 'a bad setting in the environment', argv: () => ['batch', 'list'], env: { PAYBATCH_REQUEST_TIMEOUT: 'logo' }, exit: 1 },
  { name: 'a secret on the command line', argv: () => ['config', 'set', 'apiKey', 'k-123'], exit: 2 },
  { name: 'a secret file that cannot be read', argv: (s) => ['batch', 'list'], env: { PAYBATCH_API_KEY_FILE: '/nao/existe/api-key' }, exit: 1 },
  {
    name: 'a missing API key',
    argv: () => ['provider', 'check'],
    prepare: (s) => withConfig(s.dir, { default: { baseUrl: 'https://api.example.com', tokenUrl: 'https://auth.example.com/token', clientId: 'acme' } }),
    exit: 1,
  },
  {
    name: 'a config file others can read',
    argv: () => ['batch', 'list'],
    prepare: (s) => {
      withConfig(s.dir, { default: {} });
      chmodSync(join(s.dir, 'config', 'paybatch', 'config.json'), 0o644);
    },
    exit: 1,
  },
  { name: 'a bad --pay-on', argv: (s) => ['import', sheet(s.dir, [GOOD_ROW]), '--pay-on', '05/12/2026', '--yes'], exit: 2 },
  { name: 'a --pay-on in the past', argv: (s) => ['import', sheet(s.dir, [GOOD_ROW]), '--pay-on', '2020-01-06', '--yes'], exit: 2 },
  { name: '--pay-on with --start', argv: (s) => ['import', sheet(s.dir, [GOOD_ROW]), '--pay-on', '2099-01-05', '--start'], exit: 2 },
  { name: '--pay-on with --check', argv: (s) => ['import', sheet(s.dir, [GOOD_ROW]), '--pay-on', '2099-01-05', '--check'], exit: 2 },
  { name: 'an unknown batch', argv: () => ['batch', 'show', '999'], exit: 2 },
  { name: 'an unknown alert', argv: () => ['alerts', 'ack', '999'], exit: 2 },
  {
    name: 'a ledger file that is not a ledger',
    argv: () => ['batch', 'list'],
    prepare: (s) => {
      mkdirSync(join(s.dir, 'data', 'paybatch'), { recursive: true, mode: 0o700 });
      writeFileSync(join(s.dir, 'data', 'paybatch', 'ledger.db'), 'isto não é um banco de dados, só texto que ocupa mais de cem bytes: mais que um cabeçalho SQLite inteiro.');
    },
    exit: 1,
  },
  { name: 'starting an unknown batch', argv: () => ['batch', 'start', '999', '--yes'], exit: 2 },
  { name: 'a bad amount in a sheet', argv: (s) => ['import', sheet(s.dir, ['ana@example.com;email;dez reais;Frete']), '--check'], exit: 3 },
  { name: 'a missing sheet', argv: (s) => ['import', join(s.dir, 'nao-existe.csv'), '--check'], exit: 3 },
  {
    name: 'an unreadable sheet',
    argv: (s) => {
      const path = join(s.dir, 'folha.xlsx');
      writeFileSync(path, 'isto não é uma pasta de trabalho');
      return ['import', path, '--check'];
    },
    exit: 3,
  },
  { name: 'no terminal to confirm', argv: (s) => ['import', sheet(s.dir, [GOOD_ROW])], exit: 2 },
  { name: 'a bad daemon --listen', argv: () => ['daemon', '--listen', 'localhost'], exit: 2 },
  { name: 'a bad daemon --interval', argv: () => ['daemon', '--interval', '0'], exit: 2 },
  { name: 'a bad daemon --timeout', argv: () => ['daemon', '--timeout', 'logo'], exit: 2 },
  { name: '--ui-listen without --ui', argv: () => ['daemon', '--ui-listen', '127.0.0.1:9000'], exit: 2 },
  { name: '--ui with --once', argv: () => ['daemon', '--ui', '--once'], exit: 2 },
  { name: 'a bad ui --listen', argv: () => ['ui', '--listen', 'qualquer'], exit: 2 },
  {
    name: 'a bad webhookVerification in the config file',
    argv: () => ['daemon', '--once'],
    prepare: (s) => withConfig(s.dir, { default: { webhookVerification: 'assinatura' } }),
    exit: 1,
  },
  { name: 'an unknown option', argv: () => ['batch', 'list', '--todos'], exit: 2 },
  {
    name: "a provider whose Pix amount unit is not set",
    argv: (s) => ['import', sheet(s.dir, [GOOD_ROW]), '--yes'],
    prepare: (s) => withConfig(s.dir, { default: { baseUrl: 'https://api.example.com', tokenUrl: 'https://auth.example.com/token', apiKey: 'k', clientId: 'c', clientSecret: 's' } }),
    exit: 1,
  },
  { name: 'a provider URL carrying credentials', argv: () => ['provider', 'check'], env: { PAYBATCH_BASE_URL: 'https://u:p@api.example.com' }, exit: 1 },
  { name: 'a ledger URL of another database', argv: () => ['--ledger', 'mysql://db/pagamentos', 'batch', 'list'], exit: 1 },
  {
    name: 'a backup onto an existing file',
    argv: (s) => ['ledger', 'backup', '--to', join(s.dir, 'copia.db')],
    prepare: (s) => writeFileSync(join(s.dir, 'copia.db'), ''),
    exit: 1,
  },
  {
    name: 'a second approver key',
    argv: () => ['approver', 'init'],
    prepare: (s) => {
      mkdirSync(join(s.dir, 'config', 'paybatch', 'approver'), { recursive: true, mode: 0o700 });
      writeFileSync(join(s.dir, 'config', 'paybatch', 'approver', 'approver-key.pem'), '', { mode: 0o600 });
    },
    exit: 1,
  },
];

async function run(c: (typeof CORPUS)[number], lcAll: string, extra: readonly string[] = []) {
  const dir = tempDir();
  const env = { XDG_CONFIG_HOME: join(dir, 'config'), XDG_DATA_HOME: join(dir, 'data'), HOME: dir, LC_ALL: lcAll, ...c.env };
  const setup = { dir, env };
  c.prepare?.(setup);
  return runCli([...extra, ...c.argv(setup)], { env });
}

describe('the errors people meet speak the run\'s language', () => {
  it('has a corpus of at least 25 errors', () => {
    expect(CORPUS.length).toBeGreaterThanOrEqual(25);
  });

  it.each([
    ['pt-BR', 'pt_BR.UTF-8', ENGLISH],
    ['en', 'en_US.UTF-8', PORTUGUESE],
  ] as const)('in %s, no line of any error has words of the other language', async (_locale, lcAll, foreign) => {
    const mixed: string[] = [];
    const exits: string[] = [];
    for (const c of CORPUS) {
      const r = await run(c, lcAll);
      if (r.code !== c.exit) exits.push(`${c.name}: exit ${r.code}`);
      for (const line of r.stderr.split('\n')) {
        const words = prose(line).filter((w) => foreign.has(w));
        if (words.length > 0) mixed.push(`${c.name}: ${line.trim()}  [${words.join(', ')}]`);
      }
    }
    expect(exits).toEqual([]);
    expect(mixed).toEqual([]);
  });

  it('keeps the English message under --json in pt-BR, with the code of the reason beside it', async () => {
    const byName = (name: string) => CORPUS.find((c) => c.name === name)!;
    const json = async (name: string) => JSON.parse((await run(byName(name), 'pt_BR.UTF-8', ['--json'])).stdout) as { error: Record<string, unknown> };
    expect((await json('an unknown setting')).error).toEqual({
      type: 'config_invalid',
      code: 'setting_unknown',
      message: 'Unknown setting "maxValor".',
      hint: expect.stringMatching(/^Settings: baseUrl, tokenUrl, /),
      exitCode: 1,
    });
    expect((await json('a bad amount setting')).error).toMatchObject({ code: 'setting_invalid', message: expect.stringMatching(/^maxItemAmount: amount "muito" /) });
    expect((await json('--pay-on with --start')).error).toEqual({
      type: 'usage',
      code: 'pay_on_with',
      message: '--pay-on schedules the start for that day; it does not go with --start.',
      exitCode: 2,
    });
    expect((await json('a missing sheet')).error).toMatchObject({ type: 'input_invalid', code: 'file_unreadable', message: expect.stringMatching(/^Cannot read .*nao-existe\.csv: no such file$/) });
  });
});

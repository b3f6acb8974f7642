import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { daemonLogger } from '../../src/cli/daemon-logger.js';
import { main } from '../../src/cli/main.js';
import { Output } from '../../src/cli/output.js';
import type { Prompter } from '../../src/cli/prompter.js';
import { recordImport } from '../../src/ledger/import-repository.js';
import { openLedger } from '../../src/ledger/open-ledger.js';
import { updateBatch } from '../../src/ledger/batch-repository.js';
import { plannedItem } from '../helpers/ledger-fixture.js';
import { runCli, testIO } from '../helpers/test-io.js';
import { useTempDir } from '../helpers/temp-dir.js';

const tempDir = useTempDir();
const LONG_NAME = 'Folha de pagamento de novembro de 2026 — equipe de operações de São Paulo';
const REMOTE_ID = 'a9362d59-1f9b-4f26-a832-a6ede92ca13e';

/**
 * A ledger with one started batch of 3 items (R$ 10,01 + R$ 10,02 + R$ 10,03) created at 01:18 UTC on 23 November
 * 2026: still the 22nd, 22:18, in São Paulo.
 */
async function ledgerWithBatch(dir: string): Promise<string> {
  const file = join(dir, 'ledger.db');
  const ledger = await openLedger(file);
  const at = new Date('2026-11-23T01:18:00Z');
  const items = [1, 2, 3].map(plannedItem);
  const { batchIds } = await recordImport(ledger, { fileHash: 'h', fileName: 'folha.csv', rowCount: 3, batchName: LONG_NAME, itemCount: 3, items, rejectedCount: 0, now: at });
  await updateBatch(ledger, batchIds[0]!, { status: 'started', remote_id: REMOTE_ID, start_requested: 1 }, at);
  await ledger.close();
  return file;
}

const envOf = (dir: string, language: Record<string, string>) => ({ XDG_CONFIG_HOME: join(dir, 'c'), XDG_DATA_HOME: join(dir, 'd'), HOME: dir, NO_COLOR: '1', ...language });
const PT = { LC_ALL: 'pt_BR.UTF-8' };

/** The CLI in-process on a terminal of `columns` columns. */
async function onTerminal(argv: string[], env: Record<string, string>, columns: number) {
  const io = testIO({ tty: true, env, columns });
  const code = await main(argv, { io });
  return { code, stdout: io.stdoutText(), stderr: io.stderrText() };
}

describe('paybatch in Portuguese', () => {
  it('lists batches with São Paulo time, labelled, DD/MM/AAAA and Portuguese status words', async () => {
    const dir = tempDir();
    const ledger = await ledgerWithBatch(dir);
    const r = await runCli(['batch', 'list', '--ledger', ledger], { env: envOf(dir, PT) });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(
      '#\tid no provedor\tnome\tsituação\titens\ttotal\tcriado (horário de São Paulo)\n' +
        `1\t${REMOTE_ID}\t${LONG_NAME}\tiniciado\t3\tR$ 30,06\t22/11/2026 22:18\n`,
    );
    const en = await runCli(['batch', 'list', '--ledger', ledger], { env: envOf(dir, { LC_ALL: 'en_US.UTF-8' }) });
    expect(en.stdout).toBe(
      '#\tprovider id\tname\tstatus\titems\ttotal\tcreated (São Paulo time)\n' + `1\t${REMOTE_ID}\t${LONG_NAME}\tstarted\t3\tR$ 30,06\t2026-11-22 22:18\n`,
    );
  });

  it('keeps --json in English keys, status words and ISO instants', async () => {
    const dir = tempDir();
    const ledger = await ledgerWithBatch(dir);
    const r = await runCli(['batch', 'list', '--json', '--ledger', ledger], { env: envOf(dir, PT) });
    expect(JSON.parse(r.stdout)).toMatchObject([{ id: 1, name: LONG_NAME, status: 'started', totalCents: 3006, createdAt: '2026-11-23T01:18:00.000Z' }]);
  });

  it('follows the locale setting over the environment', async () => {
    const dir = tempDir();
    const ledger = await ledgerWithBatch(dir);
    const pt = await runCli(['batch', 'show', '1', '--ledger', ledger], { env: envOf(dir, { LC_ALL: 'en_US.UTF-8', PAYBATCH_LOCALE: 'pt-BR' }) });
    expect(pt.stdout).toBe(`Lote #1 "${LONG_NAME}" — iniciado — id no provedor ${REMOTE_ID}\nsituação\titens\tsoma\npronto para envio\t3\tR$ 30,06\n`);
    const en = await runCli(['batch', 'show', '1', '--ledger', ledger], { env: envOf(dir, { LC_ALL: 'pt_BR.UTF-8', PAYBATCH_LOCALE: 'en' }) });
    expect(en.stdout).toBe(`Batch #1 "${LONG_NAME}" — started — provider id ${REMOTE_ID}\nstatus\titems\tsum\nresolved\t3\tR$ 30,06\n`);
  });

  it("lists a batch's items with Portuguese headers and status words", async () => {
    const dir = tempDir();
    const ledger = await ledgerWithBatch(dir);
    const r = await runCli(['batch', 'items', '1', '--ledger', ledger], { env: envOf(dir, PT) });
    expect(r.stdout.split('\n').slice(0, 2)).toEqual(['linha\tchave\trecebedor\tvalor\tsituação\tobservação', '2\tp1@example.com\tAna Souza\tR$ 10,01\tpronto para envio\t']);
  });

  it('speaks Portuguese when the environment names no language (cron, systemd)', async () => {
    const dir = tempDir();
    const ledger = await ledgerWithBatch(dir);
    const r = await runCli(['batch', 'start', '1', '--ledger', ledger], { env: envOf(dir, { LC_ALL: 'C' }) });
    expect(r.stdout).toBe('O lote #1 já está iniciado.\n');
  });

  it('frames errors in Portuguese', async () => {
    const dir = tempDir();
    const ledger = await ledgerWithBatch(dir);
    const r = await runCli(['batch', 'show', '7', '--ledger', ledger], { env: envOf(dir, PT) });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`erro: Não há lote "7" no registro local ${ledger}.\nVeja 'paybatch batch list'.\nVeja como usar com 'paybatch --help'.\n`);
  });

  it('names file, line and field of a rejected row in Portuguese', async () => {
    const dir = tempDir();
    const sheet = join(dir, 'folha.csv');
    const { writeFileSync } = await import('node:fs');
    writeFileSync(sheet, 'chave;tipo_chave;valor;descricao\nana@exemplo.com.br;email;10,00;ok\nbeto@exemplo.com.br;email;1.234;ambíguo\n');
    const r = await runCli(['import', sheet, '--check'], { env: envOf(dir, PT) });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain(`erro: ${sheet}: 1 de 2 linhas é inválida.\n  ${sheet}, linha 3, campo valor: valor "1.234": ambíguo`);
  });

  it('asks and sums up an import in Portuguese', async () => {
    const dir = tempDir();
    const sheet = fileURLToPath(new URL('../../fixtures/payments-en.csv', import.meta.url));
    const asked: string[] = [];
    const no = () => Promise.reject(new Error('not expected'));
    const prompter: Prompter = { confirm: async (m) => (asked.push(m), false), input: no, password: no, select: no };
    const r = await runCli(['import', sheet, '--name', 'Março'], { tty: true, env: envOf(dir, PT), prompter });
    expect(r.code).toBe(1);
    expect(asked).toEqual(['Criar o lote "Março" pagando R$ 9.574,95 a 6 pessoas?']);
    for (const [label, value] of [['lote', 'Março'], ['linhas na planilha', '6'], ['pagamentos', '6'], ['total', 'R$ 9.574,95'], ['maior valor', 'R$ 4.999,99'], ['enviado como', '"amount": 499999 (cents)']] as const) {
      expect(r.stderr).toMatch(new RegExp(`│ ${label} +│ ${value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} +│\n`));
    }
    expect(r.stderr).toContain('Consultando chaves Pix 6/6');
  });

  it('decodes a bill with Portuguese labels and its due date as DD/MM/AAAA', async () => {
    const dir = tempDir();
    const r = await runCli(['boleto', 'decode', '23793.38128 60007.827136 95000.063305 5 16560000150000'], { env: envOf(dir, PT) });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(
      [
        'campo\tvalor',
        'válido\tsim',
        'tipo\tboleto bancário',
        'linha digitável\t23793381286000782713695000063305516560000150000',
        'código de barras\t23795165600001500003381260007827139500006330',
        'banco\t237',
        'valor\tR$ 1.500,00',
        'vencimento\t10/12/2026',
        '',
      ].join('\n'),
    );
    const json = await runCli(['boleto', 'decode', '23793.38128 60007.827136 95000.063305 5 16560000150000', '--json'], { env: envOf(dir, PT) });
    expect(JSON.parse(json.stdout)).toMatchObject({ kind: 'bank', dueDate: '2026-12-10', amountCents: 150000 });
  });

  it('lists events with their São Paulo time, labelled', async () => {
    const dir = tempDir();
    const { recordWebhookEvent } = await import('../../src/engine/webhooks/apply-event.js');
    const applyCallback = (await import('../../src/engine/webhooks/apply-callback.js')).callbackHandler('reais');
    const file = join(dir, 'ledger.db');
    const ledger = await openLedger(file);
    const raw = { eventId: 'e1', type: 'cartao', category: 'fatura_fechada', detail: {} };
    await recordWebhookEvent(ledger, { kind: 'callback', ...raw, timestamp: null, title: null, raw }, { deliveryId: 'e1', receivedAt: new Date('2026-11-20T10:00:00Z') }, { onCallback: applyCallback });
    await ledger.close();
    const r = await runCli(['events', 'list', '--ledger', file], { env: envOf(dir, PT) });
    const [head, row] = r.stdout.split('\n');
    expect(head).toBe('recebido (horário de São Paulo)\tassunto\tevento\ttipo / categoria\tefeito');
    expect(row).toMatch(/^20\/11\/2026 07:00\tunknown\te1\tcartao \/ fatura_fechada\t/);
  });
});

describe('daemon log lines', () => {
  const output = (locale: 'pt-BR' | 'en') => {
    const out = new Output(testIO({ env: { NO_COLOR: '1' } }), { json: false, quiet: false, verbose: false, color: false });
    out.locale = locale;
    return out;
  };

  it('say once that times are São Paulo time, and frame each line in Portuguese', () => {
    const lines: string[] = [];
    const log = daemonLogger(output('pt-BR'), 'pretty', (l) => lines.push(l));
    // São Paulo is UTC−3 all year (no daylight saving since 2019).
    const hours = [new Date()].map((d) => String((d.getUTCHours() + 21) % 24).padStart(2, '0'));
    log({ level: 'warn', msg: 'batch 3 is stale', batch: 3 });
    log({ level: 'info', msg: 'pass done' });
    hours.push(String((new Date().getUTCHours() + 21) % 24).padStart(2, '0'));
    expect(lines).toHaveLength(3);
    expect(lines[0]).toBe('Horas abaixo no horário de São Paulo.');
    expect(lines[1]).toMatch(/^(\d\d):\d\d:\d\d AVISO batch 3 is stale batch=3$/);
    expect(hours).toContain(lines[1]!.slice(0, 2));
    expect(lines[2]).toMatch(/^\d\d:\d\d:\d\d INFO  pass done$/);
  });

  it('stay JSON lines with ISO instants for log shippers, whatever the language', () => {
    const lines: string[] = [];
    daemonLogger(output('pt-BR'), 'json', (l) => lines.push(l))({ level: 'error', msg: 'boom' });
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toEqual({ time: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/), level: 'error', msg: 'boom' });
  });
});

describe('tables on a terminal', () => {
  it("fit 80 columns: the provider's id and the creation time left out before the name is cut, amounts right-aligned", async () => {
    const dir = tempDir();
    const ledger = await ledgerWithBatch(dir);
    const r = await onTerminal(['batch', 'list', '--ledger', ledger], envOf(dir, PT), 80);
    expect(r.stdout).toBe(
      [
        '┌───┬────────────────────────────────────────────┬──────────┬───────┬──────────┐',
        '│ # │ nome                                       │ situação │ itens │    total │',
        '├───┼────────────────────────────────────────────┼──────────┼───────┼──────────┤',
        '│ 1 │ Folha de pagamento de novembro de 2026 — … │ iniciado │     3 │ R$ 30,06 │',
        '└───┴────────────────────────────────────────────┴──────────┴───────┴──────────┘',
        '',
      ].join('\n'),
    );
    for (const line of r.stdout.trimEnd().split('\n')) expect(Array.from(line).length).toBeLessThanOrEqual(80);
  });

  it('switch to one "field: value" block per row when even cut columns cannot fit', async () => {
    const dir = tempDir();
    const ledger = await ledgerWithBatch(dir);
    const r = await onTerminal(['batch', 'list', '--ledger', ledger], envOf(dir, PT), 40);
    expect(r.stdout).toBe(
      [
        '#: 1',
        `id no provedor: ${REMOTE_ID}`,
        'nome: Folha de pagamento de novembro de',
        '  2026 — equipe de operações de São',
        '  Paulo',
        'situação: iniciado',
        'itens: 3',
        'total: R$ 30,06',
        'criado (horário de São Paulo): 22/11/2026 22:18',
        '',
      ].join('\n'),
    );
  });
});

describe('keys check in Portuguese', () => {
  it('names its columns, its yes and no and its reasons in Portuguese; --json stays English', async () => {
    const dir = tempDir();
    const r = await runCli(['keys', 'check', '529.982.247-25', 'x@'], { env: envOf(dir, PT) });
    expect(r.code).toBe(3);
    expect(r.stdout).toBe('chave\tválida\ttipo\tnormalizada\tobservação\n529.982.247-25\tsim\tcpf\t52998224725\t\nx@\tnão\t\t\te-mail inválido: o e-mail não tem domínio depois do @\n');
    const json = await runCli(['--json', 'keys', 'check', 'x@'], { env: envOf(dir, PT) });
    expect((JSON.parse(json.stdout) as { error: string }[])[0]!.error).toBe('not a valid e-mail: e-mail has no domain after the @');
  });
});

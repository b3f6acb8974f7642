import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/test-io.js';
import { useTempDir } from '../helpers/temp-dir.js';
import { writePayroll } from '../helpers/workbooks.js';

const tempDir = useTempDir();
const envOf = (dir: string) => ({ XDG_CONFIG_HOME: join(dir, 'config'), XDG_DATA_HOME: join(dir, 'data'), HOME: dir });
/** Monday 2026-11-23, 12:00 in São Paulo. */
const now = () => new Date('2026-11-23T15:00:00Z');

describe('paybatch import of an .xlsx workbook', () => {
  it('--check names the row whose CPF Excel stored as a number, and passes the worksheet --sheet names', async () => {
    const dir = tempDir();
    const file = join(dir, 'folha.xlsx');
    await writePayroll(file);
    const bad = await runCli(['import', file, '--check'], { env: envOf(dir) });
    expect(bad.code).toBe(3);
    expect(bad.stderr).toContain(`${file}:3 chave: the workbook stores 1234567890 as a number, which drops leading zeros`);
    expect(bad.stderr).not.toMatch(/folha\.xlsx:[245689] /);

    const good = await runCli(['import', file, '--sheet', 'Setembro', '--check', '--json'], { env: envOf(dir) });
    expect(good.code, good.stderr).toBe(0);
    expect(JSON.parse(good.stdout)).toMatchObject({ outcome: 'checked', rows: 1, totals: { count: 1, sumCents: 4200 } });
  });

  it('imports a workbook on the embedded sandbox, writing the rejected row to a private CSV', async () => {
    const dir = tempDir();
    const file = join(dir, 'folha.xlsx');
    await writePayroll(file);
    const r = await runCli(['import', file, '--yes', '--skip-invalid', '--json', '--quiet'], { env: envOf(dir), now });
    expect(r.code, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout);
    // Lines 2, 4, 5, 6 and 9: R$ 1.250,50 + 1.234,56 + 99,90 + 10,00 + 0,30.
    expect(doc).toMatchObject({ outcome: 'imported', batch: { status: 'submitted', items: 5, totalCents: 125050 + 123456 + 9990 + 1000 + 30 }, schedule: null });
    expect(doc.rejectedFile).toBe(join(dir, 'folha.rejected.csv'));
    const rejected = readFileSync(doc.rejectedFile, 'utf8');
    expect(rejected.split('\r\n').slice(0, 2)).toEqual([
      '\uFEFFchave;valor;descricao;documento;motivo',
      // The reason holds ";", so it is quoted.
      '1234567890;300;Zero perdido;;"chave: the workbook stores 1234567890 as a number, which drops leading zeros (10 digits; ' +
        'a CPF has 11, a CNPJ 14); with its zeros it would be the CPF 012.345.678-90: format the column as Text and type it again"',
    ]);
    expect(statSync(doc.rejectedFile).mode & 0o777).toBe(0o600);
  });
});

describe('paybatch import --pay-on', () => {
  it('imports ready, schedules the batch for 08:00 São Paulo of that day, and batch show/list/start say so', async () => {
    const dir = tempDir();
    const file = join(dir, 'folha.xlsx');
    await writePayroll(file);
    const r = await runCli(['import', file, '--sheet', 'Setembro', '--pay-on', '2026-12-05', '--yes', '--json', '--quiet'], { env: envOf(dir), now });
    expect(r.code, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout);
    // 2026-12-05 is a Saturday: the batch starts on Monday the 7th.
    expect(doc).toMatchObject({ outcome: 'imported', batch: { status: 'submitted' }, schedule: { payOn: '2026-12-05', startAt: '2026-12-07T11:00:00.000Z', batchIds: [doc.batch.id] } });

    const list = await runCli(['batch', 'list', '--json', '--quiet'], { env: envOf(dir), now });
    expect(JSON.parse(list.stdout)[0].schedule).toEqual({ payOn: '2026-12-05', startAt: '2026-12-07T11:00:00.000Z', state: 'scheduled', lastError: null });
    const show = await runCli(['batch', 'show', String(doc.batch.id), '--quiet'], { env: { ...envOf(dir), LC_ALL: 'pt_BR.UTF-8' }, now });
    expect(show.stdout).toContain('Agendado: o daemon inicia o lote em 07/12/2026 08:00 (horário de São Paulo).');
    // Scheduled, not "submitted": the state people read says for which day (the stored status stays in --json).
    expect(show.stdout.split('\n')[0]).toMatch(/^Lote #\d+ "[^"]+" — agendado p\/ 05\/12 — id no provedor /);
    expect(JSON.parse(list.stdout)[0]).toMatchObject({ status: 'submitted', waitingFor: 'pay_on' });
    const listed = await runCli(['batch', 'list', '--quiet'], { env: envOf(dir), now });
    expect(listed.stdout.split('\n')[1]!.split('\t')[3]).toBe('scheduled for 2026-12-05');

    // A person asked whether to start it before its day says no: nothing is started.
    const asked: string[] = [];
    const prompter = { confirm: async (m: string) => (asked.push(m), false), input: async () => '', password: async () => '', select: async () => { throw new Error('not asked'); } };
    const start = await runCli(['batch', 'start', String(doc.batch.id), '--quiet'], { env: envOf(dir), now, prompter });
    expect(asked).toEqual([`Batch #${doc.batch.id} "${doc.batch.name}" is scheduled to start on 2026-12-07 08:00 (São Paulo time). Start it now instead?`]);
    expect(start.code).not.toBe(0);
    const after = await runCli(['batch', 'list', '--json', '--quiet'], { env: envOf(dir), now });
    expect(JSON.parse(after.stdout)[0]).toMatchObject({ status: 'submitted', schedule: { state: 'scheduled' } });

    // The daemon's pass before 08:00 of the 7th leaves it; the first pass after starts it.
    const at = (iso: string) => () => new Date(iso);
    await runCli(['daemon', '--once', '--quiet'], { env: envOf(dir), now: at('2026-12-07T10:59:00Z') });
    const before = await runCli(['batch', 'list', '--json', '--quiet'], { env: envOf(dir), now });
    expect(JSON.parse(before.stdout)[0]).toMatchObject({ status: 'submitted', schedule: { state: 'scheduled' } });
    const pass = await runCli(['daemon', '--once', '--quiet'], { env: envOf(dir), now: at('2026-12-07T11:01:00Z') });
    expect(pass.code, pass.stderr).toBe(0);
    const started = await runCli(['batch', 'list', '--json', '--quiet'], { env: envOf(dir), now });
    expect(JSON.parse(started.stdout)[0]).toMatchObject({ status: 'started', startedAt: '2026-12-07T11:01:00.000Z', schedule: { state: 'started' } });
  });

  it('refuses a past date before reading anything, and does not go with --start', async () => {
    const dir = tempDir();
    const past = await runCli(['import', join(dir, 'absent.xlsx'), '--pay-on', '2026-11-20', '--yes'], { env: envOf(dir), now });
    expect(past.code).toBe(2);
    expect(past.stderr).toContain('--pay-on 2026-11-20 is in the past (today is 2026-11-23 in São Paulo); nothing was imported.');
    const both = await runCli(['import', 'x.csv', '--pay-on', '2026-12-07', '--start'], { env: envOf(dir), now });
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('--pay-on schedules the start for that day; it does not go with --start.');
  });
});

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempDir } from '../helpers/temp-dir.js';
import { runCli } from '../helpers/test-io.js';

const tempDir = useTempDir();
const envOf = (dir: string, extra: Record<string, string> = {}) => ({
  XDG_CONFIG_HOME: join(dir, 'config'), XDG_DATA_HOME: join(dir, 'data'), HOME: dir, LC_ALL: 'pt_BR.UTF-8', ...extra,
});

// One reason per line; line 5 is the only valid row.
const BAD_SHEET = [
  'chave;tipo_chave;valor;descricao;identificador;documento',
  '123.456.789-00;cpf;10,00;a;;',
  'ana@example.com;email;1.234;b;;',
  'bia@example.com;email;-5,00;c;;',
  'caio@example.com;email;20,00;Frete;;',
  'caio@example.com;email;20,00;frete;;',
  'davi@example.com;email;30,00;d;abc-123;',
  'eva@example.com;email;75.000,00;e;;',
  'fabio@example.com;pix;40,00;f;;',
  'gil@example.com;email;10,00',
  ';cpf;10,00;h;;',
  'hugo@example.com;email;50,00;i;;11.222.333/0001-00',
  'ivo.example.com;email;60,00;j;;',
  '(20) 98765-4321;celular;70,00;k;;',
].join('\n');

function badSheet(dir: string): string {
  const sheet = join(dir, 'folha.csv');
  writeFileSync(sheet, `${BAD_SHEET}\n`);
  return sheet;
}

describe('import in Portuguese: the reasons of rejected rows and the refusals', () => {
  it('gives every row reason in Portuguese with --check', async () => {
    const dir = tempDir();
    const sheet = badSheet(dir);
    const r = await runCli(['import', sheet, '--check'], { env: envOf(dir) });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain(`${sheet}: 12 de 13 linhas são inválidas.`);
    // A problem of the whole row names no field: its line says it.
    const at = (line: number, field: string, reason: string) => `${sheet}, linha ${line}${field === 'row' ? '' : `, campo ${field}`}: ${reason}\n`;
    expect(r.stderr).toContain(at(2, 'chave', 'CPF inválido: os dígitos verificadores do CPF não conferem (esperado 09)'));
    expect(r.stderr).toContain(at(3, 'valor', 'valor "1.234": ambíguo: "." separa milhares ou decimais? escreva 1234,00 ou use duas casas decimais'));
    expect(r.stderr).toContain(at(4, 'valor', 'valores negativos não são aceitos: "-5,00"'));
    expect(r.stderr).toContain(at(6, 'row', 'duplicada: igual à linha 5 (mesma chave, valor e descrição)'));
    expect(r.stderr).toContain(at(7, 'identificador', '"abc-123" não é um UUID (como 123e4567-e89b-42d3-a456-426614174000); deixe vazio e o paybatch gera um'));
    expect(r.stderr).toContain(at(8, 'valor', 'R$ 75.000,00 passa do limite por item de R$ 50.000,00 (maxItemAmount)'));
    expect(r.stderr).toContain(at(9, 'tipo_chave', 'tipo de chave desconhecido "pix": use cpf, cnpj, celular (ou telefone, phone), email ou aleatoria (ou evp, random)'));
    expect(r.stderr).toContain(at(10, 'row', 'tem 3 células mas o cabeçalho tem 6; falta uma célula (ou um valor tem quebra de linha sem aspas)'));
    expect(r.stderr).toContain(at(11, 'chave', 'a chave Pix está vazia'));
    expect(r.stderr).toContain(at(12, 'documento', 'os dígitos verificadores do CNPJ não conferem (esperado 81)'));
    expect(r.stderr).toContain(at(13, 'chave', 'e-mail inválido: o e-mail precisa de um @'));
    expect(r.stderr).toContain(at(14, 'chave', 'celular inválido: o DDD 20 não existe'));
    expect(r.stderr).not.toMatch(/linha 5,/);
  });

  it('refuses an import with invalid rows in Portuguese, with its hint', async () => {
    const dir = tempDir();
    const sheet = badSheet(dir);
    const r = await runCli(['import', sheet, '--yes'], { env: envOf(dir) });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain(`${sheet}: 12 de 13 linhas são inválidas; nada foi importado.`);
    expect(r.stderr).toContain(
      `Corrija a planilha, ou use --skip-invalid para importar as linhas válidas e gravar as outras em ${join(dir, 'folha.rejected.csv')}.`,
    );
    expect(r.stderr).toContain(`${sheet}, linha 4, campo valor: valores negativos não são aceitos: "-5,00"`);
  });

  it('refuses a total above maxBatchTotal in Portuguese, with its hint', async () => {
    const dir = tempDir();
    const sheet = join(dir, 'ok.csv');
    writeFileSync(sheet, 'chave;valor\nana@example.com;100,00\nbia@example.com;50,00\n');
    const r = await runCli(['import', sheet, '--check'], { env: envOf(dir, { PAYBATCH_MAX_BATCH_TOTAL: '100,00' }) });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain(`${sheet}: o total R$ 150,00 passa do maxBatchTotal do perfil, de R$ 100,00.`);
    expect(r.stderr).toContain("Divida a planilha, ou aumente o limite com 'paybatch config set maxBatchTotal <R$>'.");
  });

  it('keeps --json in English whatever the locale, each problem with the stable code of its reason', async () => {
    const dir = tempDir();
    const sheet = badSheet(dir);
    const r = await runCli(['import', sheet, '--check', '--json'], { env: envOf(dir) });
    expect(r.code).toBe(3);
    const error = JSON.parse(r.stdout).error;
    expect(error.message).toBe(`${sheet}: 12 of 13 rows are invalid.`);
    expect(error.problems).toContainEqual({ file: sheet, line: 2, field: 'chave', reason: 'not a valid CPF: CPF check digits do not match (expected 09)', code: 'key_invalid_as' });
    expect(error.problems).toContainEqual({ file: sheet, line: 6, field: 'row', reason: 'duplicate: same as line 5 (same key, amount and description)', code: 'duplicate_row' });
  });
});

describe('import in Portuguese: a sheet that cannot be read', () => {
  it('names the missing column in Portuguese', async () => {
    const dir = tempDir();
    const sheet = join(dir, 'sem-valor.csv');
    writeFileSync(sheet, 'chave;preco\nana@example.com;10,00\n');
    const r = await runCli(['import', sheet, '--yes'], { env: envOf(dir) });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain(`${sheet} não pode ser lido como planilha de pagamentos; nada foi importado.`);
    expect(r.stderr).toContain(
      'falta a coluna do valor: chame uma de valor, amount ou value (a primeira linha deve ser o cabeçalho; ela tem "chave", "preco")',
    );
  });

  it('says a sheet with a header and no rows has none', async () => {
    const dir = tempDir();
    const sheet = join(dir, 'vazia.csv');
    writeFileSync(sheet, 'chave;valor;valor\n');
    const r = await runCli(['import', sheet, '--check'], { env: envOf(dir) });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain(`${sheet} não pode ser lido como planilha de pagamentos.`);
    expect(r.stderr).toContain('as colunas "valor" (coluna 2) e "valor" (coluna 3) querem dizer ambas o valor; deixe uma');
    expect(r.stderr).toContain('a planilha tem cabeçalho mas nenhuma linha de pagamento');
  });
});

describe('import in Portuguese: the summary', () => {
  it('names the kinds of key in Portuguese, and keeps the type words under --json', async () => {
    const dir = tempDir();
    const sheet = join(dir, 'tipos.csv');
    // 52998224725: a CPF whose check digits pass (see test/sheet/validate-rows.test.ts).
    writeFileSync(sheet, 'chave;tipo_chave;valor\nana@example.com;email;10,00\n52998224725;cpf;20,00\n+55 11 98765-4321;celular;30,00\n');
    const human = await runCli(['import', sheet, '--dry-run'], { env: envOf(dir) });
    expect(human.code).toBe(0);
    const lines = human.stderr.split('\n');
    for (const [kind, figures] of [['e-mail', '1 · R$ 10,00'], ['CPF', '1 · R$ 20,00'], ['celular', '1 · R$ 30,00']]) {
      expect(lines.some((l) => l.includes(kind!) && l.includes(figures!)), `${kind}\n${human.stderr}`).toBe(true);
    }
    const json = await runCli(['import', sheet, '--dry-run', '--json'], { env: envOf(dir) });
    expect(JSON.parse(json.stdout).summary.totals.byKeyType.map((t: { keyType: string }) => t.keyType).sort()).toEqual(['cpf', 'email', 'phone']);
  });
});

import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/test-io.js';

// commander's usage errors as a person meets them, in each language: the English is commander's own text (so a
// commander upgrade that rewords one shows here), the Portuguese is paybatch's.
describe("commander's usage errors in the run's language", () => {
  it.each([
    [['import'], "error: missing required argument 'sheet'", "erro: falta o argumento obrigatório 'sheet'"],
    [['impor'], "error: unknown command 'impor'\n(Did you mean import?)", "erro: comando desconhecido 'impor'\n(Você quis dizer import?)"],
    [['import', '--nome', 'x', 'a.csv'], "error: unknown option '--nome'\n(Did you mean --name?)", "erro: opção desconhecida '--nome'\n(Você quis dizer --name?)"],
    [['import', '--pay-on'], "error: option '--pay-on <date>' argument missing", "erro: falta o valor da opção '--pay-on <date>'"],
    [
      ['keys', 'check', '--type', 'foo', '1'],
      "error: option '--type <type>' argument 'foo' is invalid. Allowed choices are cpf, cnpj, phone, email, evp.",
      "erro: o valor 'foo' da opção '--type <type>' não é aceito; valores aceitos: cpf, cnpj, phone, email, evp.",
    ],
    [['batch', 'show', '1', '2'], "error: too many arguments for 'show'. Expected 1 argument but got 2.", "erro: argumentos demais para 'show': espera-se 1, vieram 2."],
    [
      ['sandbox', 'serve', '--port', 'abc'],
      "error: option '--port <port>' argument 'abc' is invalid. --port must be a number.",
      "erro: o valor 'abc' da opção '--port <port>' não é aceito: --port deve ser um número.",
    ],
    [
      ['events', 'list', '--limit', '0'],
      "error: option '--limit <n>' argument '0' is invalid. must be a whole number above zero.",
      "erro: o valor '0' da opção '--limit <n>' não é aceito: deve ser um número inteiro maior que zero.",
    ],
  ])('paybatch %j', async (argv, english, portuguese) => {
    const en = await runCli([...argv], { env: { LC_ALL: 'en_US.UTF-8' } });
    expect(en.code).toBe(2);
    expect(en.stderr).toBe(`${english}\n`);
    const pt = await runCli([...argv], { env: { LC_ALL: 'pt_BR.UTF-8' } });
    expect(pt.code).toBe(2);
    expect(pt.stderr).toBe(`${portuguese}\n`);
  });

  it('under --json the document keeps the English message', async () => {
    const r = await runCli(['--json', 'import'], { env: { LC_ALL: 'pt_BR.UTF-8' } });
    expect(JSON.parse(r.stdout)).toEqual({ ok: false, error: { type: 'usage', message: "missing required argument 'sheet'", exitCode: 2 } });
  });
});

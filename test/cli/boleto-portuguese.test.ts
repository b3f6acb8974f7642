import { describe, expect, it } from 'vitest';
import { useCliOnSandbox } from '../helpers/cli-on-sandbox.js';
import { bankLine, MONDAY_10H, SATURDAY_NIGHT } from '../bills/fixtures.js';

// The CLI in-process, in Portuguese, against an in-process sandbox whose clock starts where paybatch's is pinned;
// confirmations are answered yes.
const useSandbox = useCliOnSandbox();
async function setUp(startTime: string) {
  const { run, asked } = await useSandbox(startTime, { LC_ALL: 'pt_BR.UTF-8' });
  return { run: (argv: string[]) => run(argv, { answer: true }), asked };
}

describe('paybatch boleto in Portuguese', () => {
  it('says when a Saturday-night payment will be made, asks, schedules it and lists it with DD/MM/AAAA dates', async () => {
    const { run, asked } = await setUp(SATURDAY_NIGHT);
    const r = await run(['boleto', 'pay', bankLine()]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('Fora do horário bancário (dias úteis das 08:00 às 20:00, horário de São Paulo): o pagamento será agendado para 10/03/2025 08:00.');
    expect(asked).toEqual([expect.stringMatching(/^Pagar R\$ 1\d\d,\d\d a .+ Ltda \(\d\d\.\d{3}\.\d{3}\/0001-\d\d\), agendado para 10\/03\/2025\?$/)]);
    expect(r.stdout).toMatch(/^◷ Agendado: R\$ 1\d\d,\d\d para .+ em 10\/03\/2025 \(transação [^)]+\)\.\n {2}comprovante: /);

    const list = await run(['boleto', 'list']);
    const [head, row] = list.stdout.split('\n');
    expect(head).toBe('#\tsituação\tbeneficiário\tvalor\tvencimento\tliquidação\tdevolução possível até\ttransação\tdocumento\tobservação');
    // Settled on Monday 10/03/2025; a return may arrive for 5 business days after it.
    expect(row).toMatch(/^1\tagendado\t.+ Ltda\tR\$ 1\d\d,\d\d\t\d\d\/\d\d\/20\d\d\t10\/03\/2025\t17\/03\/2025\t/);
  });

  it("shows the provider's details with Portuguese labels", async () => {
    const { run } = await setUp(MONDAY_10H);
    const r = await run(['boleto', 'details', bankLine()]);
    expect(r.code, r.stderr).toBe(0);
    for (const s of ['campo\tvalor\n', 'tipo\tboleto bancário (banco 237)\n', 'documento do beneficiário\t', 'valor pode mudar\tnão\n', 'horário bancário\tDentro do horário bancário (dias úteis das 08:00 às 20:00, horário de São Paulo): pago na hora.\n']) {
      expect(r.stdout).toContain(s);
    }
  });

  it('refuses an invalid code offline, framed in Portuguese; --json keeps English texts', async () => {
    const { run } = await setUp(MONDAY_10H);
    const r = await run(['boleto', 'details', '23793.38128', '60007.827136']);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(
      /^erro: Este não é um código de conta válido; nada foi enviado ao provedor\.\n {2}campo code: deve ter 44 \(código de barras\), 47 \(linha digitável de boleto bancário\) ou 48 \(linha de arrecadação\) dígitos, tem 21\n/,
    );
    const json = await run(['boleto', 'details', '23793.38128', '60007.827136', '--json']);
    expect(JSON.parse(json.stdout).error).toMatchObject({
      message: 'This is not a valid bill code; nothing was sent to the provider.',
      problems: [{ field: 'code', code: 'invalid_code', reason: 'must be 44 (barcode), 47 (bank line) or 48 (collection line) digits, got 21' }],
    });
  });

  it('names a wrong check digit in Portuguese, and the digit it should have', async () => {
    const { run } = await setUp(MONDAY_10H);
    // The line of boleto-decode.test.ts with field 1's check digit (the 10th digit, 8) typed as 7: mod 10 of 237933812 is 8.
    const r = await run(['boleto', 'decode', '23793.38127', '60007.827136', '95000.063305', '5', '16560000150000']);
    expect(r.code).toBe(3);
    expect(r.stdout).toContain('não: o dígito verificador do campo 1 é 7, deveria ser 8');
    const json = await run(['boleto', 'decode', '23793.38127', '60007.827136', '95000.063305', '5', '16560000150000', '--json']);
    expect(JSON.parse(json.stdout)).toMatchObject({
      valid: false,
      error: 'field 1 check digit is 7, should be 8',
      problems: [{ code: 'field_check_digit', field: 1, actual: 7, expected: 8 }],
    });
  });
});

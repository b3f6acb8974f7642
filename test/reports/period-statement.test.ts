import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import { Ofx } from 'ofx-data-extractor';
import { describe, expect, it } from 'vitest';
import { PaybatchError } from '../../src/errors.js';
import { statementRenderer } from '../../src/reports/statement-renderer.js';
import { pdfText } from '../sandbox/pdf-text.js';
import { NOVEMBER } from './statement-fixture.js';

const E2E = { ana: 'E11222333202611051201ANA00000011', carla: 'E11222333202611101400CAR00000041', diego: 'E11222333202611051203DIE00000014', gustavo: 'E11222333202611071100GUS00000031' };
const EVP = '123e4567-e89b-12d3-a456-426614174000';
const LUZ = '23793381286000782713695000063305975520000045990';
const ALUGUEL = '34191790010104351004791020150008291070026000123';

async function csvTable(locale: 'en' | 'pt-BR'): Promise<string[][]> {
  const text = (await statementRenderer('csv', locale).render(NOVEMBER)).toString('utf8');
  expect(text.startsWith('\uFEFF')).toBe(true);
  return parse(text.slice(1), { delimiter: locale === 'pt-BR' ? ';' : ',', relax_column_count: true }) as string[][];
}

describe('period statement: CSV', () => {
  it('in English: the period, profile and payer line, one row per Pix payment and bill with a kind column, then the totals as their identity', async () => {
    const table = await csvTable('en');
    expect(table.slice(0, 4)).toEqual([
      ['Statement of the period', 'Period 2026-11-01 to 2026-11-30'],
      ['Profile', 'empresa'],
      ['Payer: ACME Pagamentos Ltda · 11.222.333/0001-81'],
      ['Generated (São Paulo time)', '2026-12-01 09:00'],
    ]);
    expect(table[4]).toEqual(['']);
    expect(table[5]).toEqual([
      'Kind', 'Batch', 'Line', 'Payee', 'Document', 'Pix key / Typeable line', 'Description', 'Amount', 'Original amount', 'Discount', 'Interest', 'Fine',
      'Paid amount', 'Outcome', 'Status', 'Reason', 'Sent (São Paulo time)', 'Paid (São Paulo time)', 'Returned (São Paulo time)', 'Failed (São Paulo time)',
      'Due', 'End-to-end id / Transaction id', 'Lineage',
    ]);
    expect(table.slice(6, 15)).toEqual([
      ['Pix', '2', '2', 'Ana Souza', '***.982.247-**', 'ana@example.com', '', '1500.00', '', '', '', '', '1500.00', 'paid', 'paid', '', '2026-11-05 09:00', '2026-11-05 09:01', '', '', '', E2E.ana, 'paid in batch #2'],
      ['Pix', '2', '3', 'Padaria Pão Quente Ltda', '11.444.777/0001-61', '11444777000161', '', '980.50', '', '', '', '', '980.50', 'paid', 'paid', '', '2026-11-05 09:00', '2026-11-05 09:02', '', '', '', 'E11222333202611051202PAO00000012', 'paid in batch #2'],
      ['Pix', '2', '4', 'Carla Dias', '***.533.447-**', "'+5511987654321", '', '2100.00', '', '', '', '', '2100.00', 'paid', 'paid', '', '2026-11-05 09:00', '2026-11-10 11:00', '', '', '', E2E.carla, 'failed in batch #2; paid later in batch #4'],
      ['Pix', '2', '5', 'Diego Rocha', '', EVP, '', '450.00', '', '', '', '', '', 'returned', 'returned', 'MD06', '2026-11-05 09:00', '2026-11-05 09:03', '2026-11-12 15:30', '', '', E2E.diego, 'returned in batch #2'],
      ['Pix', '2', '6', 'Elisa Prado', '***.111.222-**', 'elisa@example.com', '', '300.00', '', '', '', '', '', 'open', 'processing', '', '2026-11-28 17:00', '', '', '', '', '', 'processing in batch #2'],
      ['Pix', '2', '7', 'Fábio Nunes', '***.444.777-**', 'fabio@example.com', '', '800.00', '', '', '', '', '', 'failed', 'failed', 'AC03', '2026-11-05 09:00', '', '', '2026-11-10 11:01', '', '', 'failed in batch #2; retried in batch #4: failed'],
      ['Pix', '2', '8', 'Gustavo Reis', '', 'gustavo@example.com', '', '750.00', '', '', '', '', '750.00', 'paid', 'paid', '', '2026-11-05 09:00', '2026-11-07 08:00', '2026-11-06 10:00', '', '', E2E.gustavo, 'returned in batch #2; reprocessed and paid in batch #3'],
      ['Bill', '', '', 'Companhia de Luz SA', '33.000.167/0001-01', LUZ, 'Energia novembro', '450.70', '459.90', '9.20', '0.00', '0.00', '450.70', 'paid', 'paid', '', '2026-11-18 10:00', '2026-11-18', '', '', '2026-11-20', 'tx-bill-1', ''],
      ['Bill', '', '', 'Imobiliária Centro Ltda', '60.701.190/0001-04', ALUGUEL, 'Aluguel', '1023.30', '1000.00', '0.00', '3.30', '20.00', '1023.30', 'paid', 'paid', '', '2026-11-12 12:00', '2026-11-12', '', '', '2026-11-10', 'tx-bill-2', ''],
    ]);
    expect(table.slice(15)).toEqual([
      [''],
      ['Totals: imported = paid + failed + returned + open'],
      ['Kind', '', 'imported', 'paid', 'failed', 'returned', 'open'],
      ['Pix', 'Count', '7', '4', '1', '1', '1'],
      ['Pix', 'Amount', '6880.50', '5330.50', '800.00', '450.00', '300.00'],
      ['Bill', 'Count', '2', '2', '0', '0', '0'],
      ['Bill', 'Amount', '1474.00', '1474.00', '0.00', '0.00', '0.00'],
    ]);
  });

  it('in pt-BR: semicolons and decimal commas, reasons in the Banco Central’s words, lineage in Portuguese', async () => {
    const table = await csvTable('pt-BR');
    expect(table[0]).toEqual(['Extrato do período', 'Período de 01/11/2026 a 30/11/2026']);
    expect(table[2]).toEqual(['Pagador: ACME Pagamentos Ltda · 11.222.333/0001-81']);
    const row = (line: string) => table.find((r) => r[0] === 'Pix' && r[2] === line)!;
    expect(row('4').slice(13)).toEqual(['pago', 'pago', '', '05/11/2026 09:00', '10/11/2026 11:00', '', '', '', E2E.carla, 'falhou no lote #2; pago depois no lote #4']);
    expect(row('5').slice(13, 16)).toEqual(['devolvido', 'devolvido', 'MD06 - Devolução de pagamento solicitada pelo usuário recebedor']);
    expect(row('6').slice(13, 15)).toEqual(['em aberto', 'em processamento']);
    expect(row('7').slice(13, 16)).toEqual(['falhou', 'falhou', 'AC03 - Número da agência e/ou conta transacional do usuário recebedor inexistente ou inválido']);
    expect(row('7')[22]).toBe('falhou no lote #2; nova tentativa no lote #4: falhou');
    expect(row('8')[22]).toBe('devolvido no lote #2; reprocessado e pago no lote #3');
    expect(table.find((r) => r[6] === 'Energia novembro')!.slice(7, 13)).toEqual(['450,70', '459,90', '9,20', '0,00', '0,00', '450,70']);
    expect(table.slice(-6)).toEqual([
      ['Totais: importados = pagos + falharam + devolvidos + em aberto'],
      ['Tipo', '', 'importados', 'pagos', 'falharam', 'devolvidos', 'em aberto'],
      ['Pix', 'Quantidade', '7', '4', '1', '1', '1'],
      ['Pix', 'Valor', '6880,50', '5330,50', '800,00', '450,00', '300,00'],
      ['Boleto', 'Quantidade', '2', '2', '0', '0', '0'],
      ['Boleto', 'Valor', '1474,00', '1474,00', '0,00', '0,00', '0,00'],
    ]);
  });
});

describe('period statement: XLSX', () => {
  it('one sheet per kind plus totals; amounts are numbers in reais with the currency format, dates are dates', async () => {
    const book = new ExcelJS.Workbook();
    const bytes = await statementRenderer('xlsx', 'pt-BR').render(NOVEMBER);
    await book.xlsx.load(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer);
    expect(book.worksheets.map((s) => s.name)).toEqual(['Pagamentos Pix', 'Contas (boletos)', 'Totais']);

    const pix = book.getWorksheet('Pagamentos Pix')!;
    expect(pix.getRow(1).getCell(6).value).toBe('Valor');
    expect(pix.getRow(1).getCell(10).value).toBe('Enviado em (horário de São Paulo)');
    const ana = pix.getRow(2);
    expect([ana.getCell(1).value, ana.getCell(2).value, ana.getCell(3).value, ana.getCell(4).value]).toEqual([2, 2, 'Ana Souza', '***.982.247-**']);
    expect(ana.getCell(6).value).toBe(1500);
    expect(ana.getCell(6).type).toBe(ExcelJS.ValueType.Number);
    expect(ana.getCell(6).numFmt).toBe('"R$" #,##0.00');
    expect(ana.getCell(10).value).toEqual(new Date('2026-11-05T09:00:00Z'));
    expect(ana.getCell(10).type).toBe(ExcelJS.ValueType.Date);
    expect(ana.getCell(10).numFmt).toBe('dd/mm/yyyy hh:mm');
    expect(ana.getCell(11).value).toEqual(new Date('2026-11-05T09:01:00Z'));
    expect(ana.getCell(12).value).toBe(null);
    const carla = pix.getRow(4);
    expect([carla.getCell(6).value, carla.getCell(7).value, carla.getCell(14).value, carla.getCell(15).value]).toEqual([2100, 'pago', E2E.carla, 'falhou no lote #2; pago depois no lote #4']);
    expect(pix.getRow(7).getCell(9).value).toBe('AC03 - Número da agência e/ou conta transacional do usuário recebedor inexistente ou inválido');
    expect(pix.rowCount).toBe(8);

    const bills = book.getWorksheet('Contas (boletos)')!;
    expect([6, 7, 8, 9, 10, 11].map((n) => bills.getRow(1).getCell(n).value)).toEqual(['Valor original', 'Desconto', 'Juros', 'Multa', 'Valor', 'Valor pago']);
    const luz = bills.getRow(2);
    expect([6, 7, 8, 9, 10, 11].map((n) => luz.getCell(n).value)).toEqual([459.9, 9.2, 0, 0, 450.7, 450.7]);
    for (const n of [6, 7, 8, 9, 10, 11]) expect(luz.getCell(n).numFmt).toBe('"R$" #,##0.00');
    expect(luz.getCell(5).value).toEqual(new Date('2026-11-20T00:00:00Z'));
    expect(luz.getCell(5).numFmt).toBe('dd/mm/yyyy');
    expect([6, 7, 8, 9, 10, 11].map((n) => bills.getRow(3).getCell(n).value)).toEqual([1000, 0, 3.3, 20, 1023.3, 1023.3]);

    const totals = book.getWorksheet('Totais')!;
    expect(totals.getRow(3).getCell(1).value).toBe('Pagador: ACME Pagamentos Ltda · 11.222.333/0001-81');
    expect(totals.getRow(6).getCell(1).value).toBe('Totais: importados = pagos + falharam + devolvidos + em aberto');
    const cells = (n: number) => [1, 2, 3, 4, 5, 6, 7].map((c) => totals.getRow(n).getCell(c).value);
    expect(cells(7)).toEqual(['Tipo', null, 'importados', 'pagos', 'falharam', 'devolvidos', 'em aberto']);
    expect(cells(8)).toEqual(['Pix', 'Quantidade', 7, 4, 1, 1, 1]);
    expect(cells(9)).toEqual(['Pix', 'Valor', 6880.5, 5330.5, 800, 450, 300]);
    expect(cells(10)).toEqual(['Boleto', 'Quantidade', 2, 2, 0, 0, 0]);
    expect(cells(11)).toEqual(['Boleto', 'Valor', 1474, 1474, 0, 0, 0]);
    for (const c of [3, 4, 5, 6, 7]) {
      expect(totals.getRow(9).getCell(c).numFmt).toBe('"R$" #,##0.00');
      expect(totals.getRow(11).getCell(c).numFmt).toBe('"R$" #,##0.00');
      expect(totals.getRow(8).getCell(c).type).toBe(ExcelJS.ValueType.Number);
    }
  });
});

describe('period statement: PDF', () => {
  it('in pt-BR: title with period and profile, payer line, reasons, end-to-end ids, lineage and the totals as their identity', async () => {
    const text = pdfText(await statementRenderer('pdf', 'pt-BR').render(NOVEMBER)).replaceAll('\n', ' ');
    for (const expected of [
      'Extrato do período',
      'Período de 01/11/2026 a 30/11/2026 · Perfil empresa',
      'Pagador: ACME Pagamentos Ltda · 11.222.333/0001-81',
      'Gerado em 01/12/2026 09:00 (horário de São Paulo)',
      'Totais: importados = pagos + falharam + devolvidos + em aberto',
      'R$ 6.880,50', 'R$ 5.330,50', 'R$ 1.474,00',
      'Ana Souza', '***.982.247-**', '11.444.777/0001-61', 'R$ 2.100,00',
      E2E.ana, E2E.carla, E2E.diego, E2E.gustavo,
      'Motivo: MD06 - Devolução de pagamento solicitada pelo usuário recebedor',
      'Motivo: AC03 - Número da agência e/ou conta transacional do usuário recebedor inexistente ou inválido',
      'Histórico: falhou no lote #2; pago depois no lote #4',
      'Histórico: devolvido no lote #2; reprocessado e pago no lote #3',
      'Situação: em processamento',
      'Contas (boletos)', 'Companhia de Luz SA', 'R$ 459,90', 'R$ 9,20', 'R$ 450,70', 'R$ 3,30', 'R$ 20,00', 'R$ 1.023,30',
    ]) {
      expect(text).toContain(expected);
    }
  });

  it('in English: the same statement in English words', async () => {
    const text = pdfText(await statementRenderer('pdf', 'en').render(NOVEMBER)).replaceAll('\n', ' ');
    for (const expected of ['Statement of the period', 'Period 2026-11-01 to 2026-11-30 · Profile empresa', 'Payer: ACME Pagamentos Ltda · 11.222.333/0001-81', 'Lineage: failed in batch #2; paid later in batch #4', 'Reason: MD06', 'Totals: imported = paid + failed + returned + open']) {
      expect(text).toContain(expected);
    }
  });
});

describe('period statement: OFX', () => {
  it('is OFX 1.0.2 SGML that a maintained parser reads: the company account, each movement, the balance', async () => {
    const bytes = await statementRenderer('ofx', 'pt-BR').render(NOVEMBER);
    const text = bytes.toString('latin1');
    expect(text.startsWith('OFXHEADER:100\r\nDATA:OFXSGML\r\nVERSION:102\r\n')).toBe(true);
    expect([...bytes].every((b) => b < 0x80)).toBe(true);

    const ofx = Ofx.fromBuffer(bytes).config({ formatDate: 'y-M-dTh:m:s' });
    expect(ofx.validate()).toMatchObject({ isValid: true, errors: [] });
    const statement = ofx.toJson().OFX.BANKMSGSRSV1.STMTTRNRS.STMTRS;
    expect(statement.CURDEF).toBe('BRL');
    expect(statement.BANKACCTFROM).toEqual({ BANKID: '341', BRANCHID: '1234', ACCTID: '56789-0', ACCTTYPE: 'CHECKING' });
    expect(statement.BANKTRANLIST.DTSTART).toBe('2026-11-01T00:00:00');
    expect(statement.BANKTRANLIST.DTEND).toBe('2026-11-30T23:59:59');
    expect(statement.LEDGERBAL).toEqual({ BALAMT: '12345.67', DTASOF: '2026-11-28T17:05:00' });
    // São Paulo wall clock (UTC−3): the movements of the fixture at 12:01:30Z, 13:00Z … as 09:01:30, 10:00 …
    expect(ofx.getBankTransferList().map((t: Record<string, string>) => [t.FITID, t.TRNTYPE, t.TRNAMT, t.DTPOSTED, t.NAME])).toEqual([
      ['pix-11', 'DEBIT', '-1500.00', '2026-11-05T09:01:30', 'Ana Souza'],
      ['pix-12', 'DEBIT', '-980.50', '2026-11-05T09:02:10', 'Padaria Pao Quente Ltda'],
      ['pix-14', 'DEBIT', '-450.00', '2026-11-05T09:03:00', 'Diego Rocha'],
      ['pix-17', 'DEBIT', '-750.00', '2026-11-05T09:05:00', 'Gustavo Reis'],
      ['pix-17-return', 'CREDIT', '750.00', '2026-11-06T10:00:00', 'Gustavo Reis'],
      ['pix-31', 'DEBIT', '-750.00', '2026-11-07T08:00:00', 'Gustavo Reis'],
      ['pix-41', 'DEBIT', '-2100.00', '2026-11-10T11:00:00', 'Carla Dias'],
      ['bill-2', 'DEBIT', '-1023.30', '2026-11-12T12:00:00', 'Imobiliaria Centro Ltda'],
      ['pix-14-return', 'CREDIT', '450.00', '2026-11-12T15:30:00', 'Diego Rocha'],
      ['bill-1', 'DEBIT', '-450.70', '2026-11-18T10:00:00', 'Companhia de Luz SA'],
    ]);
    // Every date carries its offset, as the parser's date-only reading would hide.
    expect(text.match(/<DTPOSTED>\d{14}\[-3:BRT\]\r\n/g)).toHaveLength(10);
    expect(text).toContain('<DTPOSTED>20261105090130[-3:BRT]');
    expect(text).toContain('<MEMO>Devolucao MD06');
  });

  it('without a balance, omits LEDGERBAL and says why in the statement', async () => {
    const bytes = await statementRenderer('ofx', 'en').render({ ...NOVEMBER, balance: null });
    const statement = Ofx.fromBuffer(bytes).toJson().OFX.BANKMSGSRSV1.STMTTRNRS.STMTRS;
    expect(statement.LEDGERBAL).toBeUndefined();
    expect(statement.MKTGINFO).toBe('Balance omitted: no provider event in the period carried the account balance.');
    expect(bytes.toString('latin1')).not.toContain('LEDGERBAL');
  });

  it('escapes SGML characters and keeps NAME within its 32 characters', async () => {
    const movement = { kind: 'pix' as const, id: 'pix-99', direction: 'debit' as const, cents: 100, at: '2026-11-05T12:00:00Z', name: 'Irmãos <Souza> & Filhos Comércio de Alimentos', memo: 'A & B' };
    const text = (await statementRenderer('ofx', 'en').render({ ...NOVEMBER, movements: [movement] })).toString('latin1');
    expect(text).toContain('<NAME>Irmaos &lt;Souza&gt; &amp; Filhos Comercio\r\n');
    expect(text).toContain('<MEMO>A &amp; B\r\n');
  });

  it('refuses a profile without the company account, with a reason the CLI words', async () => {
    const render = statementRenderer('ofx', 'pt-BR').render({ ...NOVEMBER, account: null });
    await expect(render).rejects.toBeInstanceOf(PaybatchError);
    await expect(render).rejects.toMatchObject({ reason: { code: 'statement_account_unset', profile: 'empresa' } });
  });
});

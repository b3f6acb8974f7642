import { describe, expect, it } from 'vitest';
import { Output } from '../../src/cli/output.js';
import { displayWidth, fitTable, numericColumn, truncate, verticalTable } from '../../src/cli/table-layout.js';
import { terminalColumns } from '../../src/cli/io.js';
import { testIO } from '../helpers/test-io.js';

describe('fitting a table to the terminal', () => {
  const head = ['#', 'name', 'status', 'total'];
  const rows = [['1', 'Folha de pagamento de novembro de 2026 — operações', 'paid', 'R$ 1.234,56']];

  it('keeps every column whole when the table fits', () => {
    // 4 columns take 13 characters of borders and padding; the content is 1 + 50 + 6 + 11 = 68.
    expect(fitTable(head, rows, 81)).toEqual({ kind: 'columns', widths: [1, 50, 6, 11] });
  });

  it('cuts only the long column, never the amount, the status or the id, when one character is missing', () => {
    expect(fitTable(head, rows, 80)).toEqual({ kind: 'columns', widths: [1, 49, 6, 11] });
    expect(fitTable(head, rows, 40)).toEqual({ kind: 'columns', widths: [1, 9, 6, 11] });
  });

  it('cuts the widest of the long columns first, down to the next widest, then both', () => {
    const twoLong = [['a9362d59-1f9b-4f26-a832-a6ede92ca13e', 'Folha de pagamento de novembro de 2026 — equipe de operações', 'R$ 9,99']];
    const h = ['provider id', 'name', 'total'];
    // Borders and padding take 10: at 70 columns, 7 for the total and 53 for the two long ones (36 and 60 wide).
    expect(fitTable(h, twoLong, 70)).toEqual({ kind: 'columns', widths: [26, 26, 7] });
    expect(fitTable(h, twoLong, 50)).toEqual({ kind: 'columns', widths: [16, 16, 7] });
  });

  it('wraps a header at its spaces before cutting any value', () => {
    const h = ['#', 'created (São Paulo time)'];
    expect(fitTable(h, [['1', '2026-11-22 22:18']], 30)).toEqual({ kind: 'columns', widths: [1, 16] });
  });

  it('goes vertical when even the shortest cuts do not fit, and at once for field/value tables', () => {
    expect(fitTable(head, rows, 30)).toEqual({ kind: 'vertical' });
    expect(fitTable(['', ''], [['sheet', '/home/ana/planilhas/folha-de-pagamento-novembro.csv']], 40)).toEqual({ kind: 'vertical' });
  });

  it('truncates with an ellipsis and counts characters, not bytes or colour codes', () => {
    expect(truncate('Operações de São Paulo', 10)).toBe('Operações…');
    expect(truncate('pago', 4)).toBe('pago');
    expect(displayWidth('\u001b[1msituação\u001b[22m')).toBe(8);
    expect(truncate('\u001b[32msim\u001b[39m', 3)).toBe('\u001b[32msim\u001b[39m');
    expect(truncate('\u001b[31mnão: dígito verificador\u001b[39m', 8)).toBe('não: dí…');
  });

  it('writes one "field: value" block per row, wrapping long values at spaces', () => {
    expect(verticalTable(head, [...rows, ['2', 'Ana', 'failed', 'R$ 0,50']], 40)).toBe(
      [
        '#: 1',
        'name: Folha de pagamento de novembro de',
        '  2026 — operações',
        'status: paid',
        'total: R$ 1.234,56',
        '',
        '#: 2',
        'name: Ana',
        'status: failed',
        'total: R$ 0,50',
      ].join('\n'),
    );
    expect(verticalTable(['', ''], [['sheet', 'a.csv'], ['  cpf', '3 · R$ 10,00']], 40)).toBe('sheet: a.csv\n  cpf: 3 · R$ 10,00');
  });
});

describe('columns that give way first', () => {
  // `batch list` at 80 columns: a provider's UUID, a name of 35 characters, a status, counts, an amount, a date.
  const head = ['#', 'provider id', 'name', 'status', 'items', 'total', 'created'];
  const row = ['12', 'a9362d59-1f9b-4f26-a832-a6ede92ca13e', 'Maria Aparecida dos Santos Oliveira', 'awaiting approval', '3', 'R$ 12.345,67', '2026-11-22 22:18'];
  const roles = ['text', 'expendable', 'text', 'fixed', 'text', 'text', 'expendable'] as const;

  it('cuts an expendable column before any other: the name stays whole', () => {
    // 7 columns take 22 of 120; the content is 2 + 36 + 35 + 17 + 5 + 12 + 16 = 123: the UUID gives 25.
    expect(fitTable(head, [row], 120, roles)).toEqual({ kind: 'columns', widths: [2, 11, 35, 17, 5, 12, 16] });
  });

  it('leaves expendable columns out, the widest first, before a name is cut; a short one is left out whole, never cut', () => {
    // At 100 (78 inside 7 columns): the UUID cut to its floor (8, its header's word) still leaves 95. Without it 6 columns
    // have 81 for 87, and the date cannot be cut: it is left out too, and the rest (71) fits in 84, the name whole.
    expect(fitTable(head, [row], 100, roles)).toEqual({ kind: 'columns', widths: [2, 35, 17, 5, 12], dropped: [1, 6] });
    // At 110: without the UUID, 87 fits in 110 - 19 = 91: the date stays.
    expect(fitTable(head, [row], 110, roles)).toEqual({ kind: 'columns', widths: [2, 35, 17, 5, 12, 16], dropped: [1] });
    // At 80, both left out and the name cut to what is left: 80 - 16 - (2 + 17 + 5 + 12) = 28.
    expect(fitTable(head, [row], 80, roles)).toEqual({ kind: 'columns', widths: [2, 28, 17, 5, 12], dropped: [1, 6] });
  });

  it('never cuts a fixed column, however long its values', () => {
    const h = ['name', 'status'];
    const r = [['Maria Aparecida dos Santos Oliveira', 'scheduled for 2026-12-04']];
    // 2 columns take 7 of 50: the status keeps its 24, the name gets 19; as plain text, both are cut to 21.
    expect(fitTable(h, r, 50, ['text', 'fixed'])).toEqual({ kind: 'columns', widths: [19, 24] });
    expect(fitTable(h, r, 50)).toEqual({ kind: 'columns', widths: [21, 21] });
  });

  it('right-aligns columns of amounts and counts only', () => {
    const rows = [['1', 'R$ 1.234,56', 'Ana', '2026-11-22 22:18', '-R$ 0,50'], ['12', 'R$ 0,01', '52998224725', '2026-11-23 08:00', '']];
    expect([0, 1, 2, 3, 4].map((i) => numericColumn(rows, i))).toEqual([true, true, false, false, true]);
  });
});

describe('a table on an 80-column terminal', () => {
  it("leaves out a UUID key before cutting a person's name, amounts right-aligned", () => {
    const out = new Output(testIO({ tty: true, columns: 80 }), { json: false, quiet: false, verbose: false, color: false });
    const table = out.table(
      ['line', 'key', 'recipient', 'amount', 'status', 'note'],
      [
        [2, 'a9362d59-1f9b-4f26-a832-a6ede92ca13e', 'Maria Aparecida dos Santos Oliveira', 'R$ 1.500,00', 'paid', ''],
        [3, 'ana@example.com', 'José Carlos', 'R$ 250,00', 'failed', null],
      ],
      ['text', 'expendable'],
    );
    expect(table.split('\n')).toEqual([
      '┌──────┬─────────────────────────────────────┬─────────────┬────────┬──────┐',
      '│ line │ recipient                           │      amount │ status │ note │',
      '├──────┼─────────────────────────────────────┼─────────────┼────────┼──────┤',
      '│    2 │ Maria Aparecida dos Santos Oliveira │ R$ 1.500,00 │ paid   │      │',
      '├──────┼─────────────────────────────────────┼─────────────┼────────┼──────┤',
      '│    3 │ José Carlos                         │   R$ 250,00 │ failed │      │',
      '└──────┴─────────────────────────────────────┴─────────────┴────────┴──────┘',
    ]);
  });

  it('keeps the tab-separated columns whole when piped', () => {
    const out = new Output(testIO({ tty: false, columns: 80 }), { json: false, quiet: false, verbose: false, color: false });
    expect(out.table(['key', 'amount'], [['a9362d59-1f9b-4f26-a832-a6ede92ca13e', 'R$ 1,00']], ['expendable'])).toBe('key\tamount\na9362d59-1f9b-4f26-a832-a6ede92ca13e\tR$ 1,00');
  });

  it('takes its width from COLUMNS, else the terminal, else 80', () => {
    expect(terminalColumns('80', 200)).toBe(80);
    expect(terminalColumns(undefined, 132)).toBe(132);
    expect(terminalColumns('wide', undefined)).toBe(80);
    expect(terminalColumns('0', 0)).toBe(80);
  });
});

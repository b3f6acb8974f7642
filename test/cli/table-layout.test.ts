import { describe, expect, it } from 'vitest';
import { displayWidth, fitTable, truncate, verticalTable } from '../../src/cli/table-layout.js';

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

import { describe, expect, it } from 'vitest';
import { cpfFrom } from '../../scripts/make-fixtures.mjs';
import { readSheet } from '../../src/sheet/read-sheet.js';
import { validateRows } from '../../src/sheet/validate-rows.js';
import { cp1252 } from './sheet-bytes.js';

describe('performance', () => {
  // 100,000 rows take about 1.5 s here (read ~0.8 s, validate ~0.7 s); the bound is loose on purpose, so a busy
  // machine does not fail the test while an accidental quadratic step (100x slower) still does.
  it('reads and validates 20,000 rows of every key type well within 10 seconds', () => {
    const lines = ['Nome;Chave;Tipo;Valor;Descrição;Identificador;Documento'];
    for (let i = 0; i < 20_000; i++) {
      const n = String(100_000_000 + i);
      const amount = `${1 + (i % 4_999)},${String(i % 100).padStart(2, '0')}`;
      const hex = i.toString(16).padStart(12, '0');
      switch (i % 5) {
        case 0: { const cpf = cpfFrom(n.slice(0, 9)); lines.push(`João ${i};${cpf};cpf;${amount};Salário ${i};;${cpf}`); break; }
        case 1: lines.push(`Ana ${i};ana.${i}@exemplo.com.br;email;${amount};"Reembolso; item ${i}";;`); break;
        case 2: lines.push(`Zé ${i};(11) 9${n.slice(1, 5)}-${n.slice(5, 9)};celular;${amount};Diária;;`); break;
        case 3: lines.push(`Bia ${i};7c1e2d3f-4a5b-4c6d-8e7f-${hex};aleatória;${amount};"Serviço\nparte ${i}";;`); break;
        default: lines.push(`Cid ${i};cid${i}@exemplo.com;e-mail;${amount};Frete;3f2b8c4e-5d6a-4b7c-8d9e-${hex};`);
      }
    }
    const bytes = cp1252(lines.join('\r\n') + '\r\n');
    const started = performance.now();
    const sheet = readSheet(bytes, 'big.csv');
    const v = validateRows(sheet, { maxItemAmountCents: 500_000 });
    const elapsed = performance.now() - started;
    expect(v.problems.slice(0, 3)).toEqual([]);
    expect(v.valid).toHaveLength(20_000);
    expect(v.valid.at(-1)?.line).toBe(20_001 + 4_000);
    expect(elapsed).toBeLessThan(10_000);
  });
});

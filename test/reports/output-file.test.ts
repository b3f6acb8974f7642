import { describe, expect, it } from 'vitest';
import { fileNamePart } from '../../src/reports/output-file.js';

describe('a text as part of a file name', () => {
  it('drops accents, lowers case and turns every run of other characters into one dash', () => {
    expect(fileNamePart('Folha Novembro')).toBe('folha-novembro');
    expect(fileNamePart('  Pagamento/Fornecedores: Ação #3 ')).toBe('pagamento-fornecedores-acao-3');
    expect(fileNamePart('Reprocess 2026-11-27')).toBe('reprocess-2026-11-27');
    expect(fileNamePart('../../etc/passwd')).toBe('etc-passwd');
    expect(fileNamePart('***')).toBe('');
    expect(fileNamePart('a'.repeat(80))).toBe('a'.repeat(60));
  });
});

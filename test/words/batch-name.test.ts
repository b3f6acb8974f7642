import { describe, expect, it } from 'vitest';
import { batchName } from '../../src/words/batch-name.js';

describe('batch names as people read them', () => {
  it("says a batch of new attempts by its São Paulo day in the locale's words", () => {
    const reprocess = { kind: 'reprocess', name: 'Reprocess 2026-11-27' };
    expect(batchName(reprocess, 'pt-BR')).toBe('Reprocessamento 27/11/2026');
    expect(batchName(reprocess, 'en')).toBe('Reprocess 2026-11-27');
  });

  it("keeps a sheet's batch name, even one that looks like a generated one", () => {
    expect(batchName({ kind: 'sheet', name: 'Reprocess 2026-11-27' }, 'pt-BR')).toBe('Reprocess 2026-11-27');
    expect(batchName({ kind: 'sheet', name: 'Folha de novembro' }, 'pt-BR')).toBe('Folha de novembro');
  });

  it('keeps a name of kind reprocess it does not recognise', () => {
    expect(batchName({ kind: 'reprocess', name: 'Reprocess of the 27th' }, 'pt-BR')).toBe('Reprocess of the 27th');
  });
});

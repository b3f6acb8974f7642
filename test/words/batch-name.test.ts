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

  it('says the batch `batch retry` made after its source, with its São Paulo day', () => {
    const retry = { kind: 'sheet', name: 'Folha nov retry 2026-11-28' };
    expect(batchName(retry, 'pt-BR')).toBe('Folha nov — nova tentativa 28/11/2026');
    expect(batchName(retry, 'en')).toBe('Folha nov retry 2026-11-28');
    // A retry of a retry.
    expect(batchName({ kind: 'sheet', name: 'Folha retry 2026-11-28 retry 2026-11-30' }, 'pt-BR')).toBe('Folha — nova tentativa 28/11/2026 — nova tentativa 30/11/2026');
  });

  it('keeps a name of kind reprocess it does not recognise', () => {
    expect(batchName({ kind: 'reprocess', name: 'Reprocess of the 27th' }, 'pt-BR')).toBe('Reprocess of the 27th');
  });
});

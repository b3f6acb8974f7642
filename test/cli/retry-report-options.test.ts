import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/errors.js';
import { optionsOf } from '../helpers/parsed-options.js';

describe('options of batch retry, batch export, report and receipts list|open', () => {
  it.each([
    [['batch', 'retry', '3'], { ref: '3', statuses: ['failed', 'returned'], start: false, yes: false, allowDuplicates: false }],
    [['batch', 'retry', '#3', '--status', 'failed', '--start', '-y'], { ref: '#3', statuses: ['failed'], start: true, yes: true, allowDuplicates: false }],
    [['batch', 'retry', '3', '--status', 'returned,failed', '--allow-duplicates'], { ref: '3', statuses: ['failed', 'returned'], start: false, yes: false, allowDuplicates: true }],
    [['batch', 'retry', '3', '--status', 'returned', '--status', 'failed'], { ref: '3', statuses: ['failed', 'returned'], start: false, yes: false, allowDuplicates: false }],
    [['batch', 'retry', '--status', 'failed', '3'], { ref: '3', statuses: ['failed'], start: false, yes: false, allowDuplicates: false }],
    [['batch', 'export', '3', '--status', 'failed'], { ref: '3', statuses: ['failed'], format: 'csv' }],
    [['batch', 'export', '3', '--format', 'cnab240-retorno'], { ref: '3', statuses: ['failed', 'returned'], format: 'cnab240-retorno' }],
    [['report', '3'], { target: { batch: '3' }, format: 'csv', zip: false, force: false }],
    [['report', '3', '--format', 'pdf', '--out', 'fechamento', '--zip'], { target: { batch: '3' }, format: 'pdf', out: 'fechamento', zip: true, force: false }],
    [['report', '3', '--force'], { target: { batch: '3' }, format: 'csv', zip: false, force: true }],
    [['report', '--month', '2026-02'], { target: { period: { from: '2026-02-01', to: '2026-02-28', name: '2026-02' } }, format: 'csv', zip: false, force: false }],
    [['receipts', 'list'], {}],
    [['receipts', 'list', '3'], { batch: '3' }],
    [['receipts', 'open', '42', '--print'], { ref: '42', print: true }],
  ])('%j', async (argv, expected) => {
    expect(await optionsOf(argv)).toEqual(expected);
  });

  it.each([
    [['batch', 'retry', '3', '--status', 'paid'], '--status must be failed or returned, not "paid".'],
    [['batch', 'export', '3', '--status', 'processing'], '--status must be failed or returned, not "processing".'],
    [['batch', 'export', '3', '--format', 'cnab400'], '--format must be csv or cnab240-retorno, not "cnab400".'],
    [['batch', 'export', '3', '--format', 'cnab240-retorno', '--status', 'failed'], '--status chooses rows of the sheet to fix; a return file has every title of the batch.'],
    [['report', '3', '--format', 'docx'], '--format must be one of csv, xlsx, pdf, ofx.'],
  ])('%j is refused', async (argv, message) => {
    const parsed = optionsOf(argv);
    await expect(parsed).rejects.toBeInstanceOf(UsageError);
    await expect(parsed).rejects.toThrow(message);
  });
});

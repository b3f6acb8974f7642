import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/test-io.js';

const now = () => new Date('2026-11-21T15:00:00Z');

describe('paybatch boleto decode', () => {
  it('decodes a bank slip line into the documented JSON object', async () => {
    const r = await runCli(['boleto', 'decode', '23793.38128 60007.827136 95000.063305 5 16560000150000', '--json'], { now });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({
      input: '23793.38128 60007.827136 95000.063305 5 16560000150000',
      valid: true,
      kind: 'bank',
      barcode: '23795165600001500003381260007827139500006330',
      line: '23793381286000782713695000063305516560000150000',
      amountCents: 150000,
      dueDate: '2026-12-10',
      bankCode: '237',
      segment: null,
      segmentName: null,
      valueIsReference: null,
      companyCode: null,
      error: null,
      warnings: [],
      problems: [],
    });
  });

  it('a bank slip whose due-date factor fits no date near today is valid, its due date unknown, with a warning', async () => {
    const line = '00190000090114971860168524522114675860000102656';
    const r = await runCli(['boleto', 'decode', line, '--json'], { now });
    expect(r.code, r.stderr).toBe(0);
    // 2026-11-21: the window is 2018-09-04 to 2041-12-12; factor 7586 names 2018-07-15 or 2043-03-06.
    expect(JSON.parse(r.stdout)).toMatchObject({
      valid: true,
      kind: 'bank',
      amountCents: 102656,
      dueDate: null,
      error: null,
      warnings: ['due-date factor 7586 names no date between 2018-09-04 and 2041-12-12 (3000 days before and 5500 days after 2026-11-21); the due date is unknown'],
    });
    const human = await runCli(['boleto', 'decode', line], { now });
    expect(human.code).toBe(0);
    expect(human.stderr).toContain('due-date factor 7586 names no date');
  });

  it('decodes a collection slip given in parts, as people paste it', async () => {
    const r = await runCli(['boleto', 'decode', '83680000000-9', '87450048001-5', '23456789012-9', '34567890123-1', '--json'], { now });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ valid: true, kind: 'collection', segment: 3, amountCents: 8745, companyCode: '0048', valueIsReference: false, barcode: '83680000000874500480012345678901234567890123' });
  });

  it('exits 3 and names the failing block and the digit it should have', async () => {
    const r = await runCli(['boleto', 'decode', '83680000000-9 87450048001-4 23456789012-9 34567890123-1', '--json'], { now });
    expect(r.code).toBe(3);
    const doc = JSON.parse(r.stdout);
    expect(doc.valid).toBe(false);
    // Block 2 is 87450048001: its mod-10 digit is 5, typed as 4.
    expect(doc.error).toBe('block 2 check digit is 4, should be 5');
    expect(doc.problems).toEqual([{ code: 'block_check_digit', block: 2, actual: 4, expected: 5 }]);
  });

  it('shows a table for people', async () => {
    const r = await runCli(['boleto', 'decode', '23795165600001500003381260007827139500006330'], { now });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('R$ 1.500,00');
    expect(r.stdout).toContain('2026-12-10');
  });
});

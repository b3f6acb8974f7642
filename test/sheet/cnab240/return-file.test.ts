import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readRemittance, type Remittance } from '../../../src/sheet/cnab240/read-remittance.js';
import { layoutNamed } from '../../../src/sheet/cnab240/layouts.js';
import { occurrencesOf, returnFile, type ReturnTitle, type TitleOutcome } from '../../../src/sheet/cnab240/return-file.js';
import { remittanceText } from '../../helpers/cnab240-remittance.js';
import { checkCnab240Totals, readCnab240Return, type SegmentA, type SegmentJ, type SegmentZ } from '../../helpers/cnab240-return-reader.js';

// The return files are read back by a reader written from the banks' published layouts by someone who did not read
// the writer (test/helpers/cnab240-return-reader.ts).
const E2E = 'E12345678202611271300abcdefghijk';

function outcomes(r: Remittance, ends: readonly [TitleOutcome, string | null][]): ReturnTitle[] {
  return r.titles.map((t, i) => {
    const [outcome, reason] = ends[i]!;
    const paid = outcome === 'paid' || outcome === 'returned';
    return {
      lot: t.lot, lotHeader: r.lots.find((l) => l.number === t.lot)!.header, records: t.records, outcome, reason,
      paidOn: paid ? '2026-12-01' : null, paidCents: paid ? t.amountCents : null, endToEndId: outcome === 'paid' ? E2E : null,
    };
  });
}

describe('the CNAB 240 return file', () => {
  const rem = readRemittance(
    remittanceText({
      company: '11222333000181', generatedOn: '2026-11-27',
      titles: [
        { yourNumber: 'NF-1', name: 'MARIA', cents: 150000, date: '2026-12-01', keyKind: '02', key: 'maria@exemplo.com.br' },
        { yourNumber: 'NF-2', name: 'JOAO', cents: 23456, date: '2026-12-01', keyKind: '02', key: 'joao@exemplo.com.br' },
        { yourNumber: 'NF-3', name: 'ANA', cents: 9900, date: '2026-12-01', keyKind: '02', key: 'ana@exemplo.com.br' },
        { yourNumber: 'NF-4', name: 'RUI', cents: 100, date: '2026-12-04', keyKind: '02', key: 'rui@exemplo.com.br' },
      ],
    }),
    'REM.rem',
  ).remittance!;

  it("echoes the remittance in its layout with each title's occurrence, date and amount paid, and trailers that add up", () => {
    const text = returnFile({
      layout: rem.layout, fileHeader: rem.fileHeader, writtenOn: '2026-12-01', writtenAt: '183000', sequence: 1,
      titles: outcomes(rem, [['paid', null], ['failed', 'AB09'], ['returned', 'MD06'], ['open', null]]),
    });
    expect(text.split('\r\n').slice(0, -1).every((l) => l.length === 240)).toBe(true);
    const read = readCnab240Return(text);
    expect(checkCnab240Totals(read)).toEqual([]);
    expect(read.header).toMatchObject({ bank: '033', remessaRetorno: '2', generatedOn: '2026-12-01', companyDocument: '11222333000181', layoutVersion: '060' });
    const details = read.lots[0]!.details;
    const a = details.filter((d): d is SegmentA => d.segment === 'A');
    // FEBRABAN G059: 00 paid; PB error at the receiver's institution (AB09); PA Pix not made; BD accepted.
    expect(a.map((d) => [d.seuNumero, d.amountCentavos, d.occurrences, d.realDate, d.realAmountCentavos])).toEqual([
      ['NF-1', 150000, ['00'], '2026-12-01', 150000],
      ['NF-2', 23456, ['PB'], null, 0],
      ['NF-3', 9900, ['PA'], '2026-12-01', 9900],
      ['NF-4', 100, ['BD'], null, 0],
    ]);
    expect(details.filter((d): d is SegmentZ => d.segment === 'Z').map((z) => z.authentication)).toEqual([E2E]);
    expect(read.lots[0]!.trailer.amountCentavos).toBe(183456);
  });

  it('in Itaú SISPAG, from a public remittance, says paid 00, scheduled BD and not made NR', () => {
    const itau = readRemittance(readFileSync(join(import.meta.dirname, '../../fixtures/cnab240/itau-sispag-credito.rem'), 'latin1'), 'itau.rem').remittance!;
    const ends: [TitleOutcome, string | null][] = itau.titles.map((_, i) => (i === 0 ? ['paid', null] : i === 1 ? ['failed', 'AC03'] : ['open', null]));
    // Its third title writes a CPF left-aligned in a numeric field, and the last four leave it blank, which the
    // reader rightly refuses: a return echoes the ERP's lines, so those titles are left out here.
    const titles = outcomes(itau, ends).filter((_, i) => i !== 2 && i < 5);
    const read = readCnab240Return(returnFile({ layout: itau.layout, fileHeader: itau.fileHeader, writtenOn: '2026-12-01', writtenAt: '090000', sequence: 1, titles }));
    expect(checkCnab240Totals(read)).toEqual([]);
    expect(read.header).toMatchObject({ bank: '341', remessaRetorno: '2', layoutVersion: '080' });
    const a = read.lots[0]!.details.filter((d): d is SegmentA => d.segment === 'A');
    expect(a.map((d) => d.occurrences[0])).toEqual(['00', 'NR', 'BD', 'BD']);
    expect(a[0]!.payeeDocument).toBe('34452404000138');
    expect(read.lots[0]!.details.find((d) => d.segment === 'Z')).toMatchObject({ authentication: E2E });
  });

  // A bill's code is how its payment ended, never a Pix reason (AC03 would be PC for a Pix in FEBRABAN's table).
  it.each([
    ['febraban-240', ['00', 'BD', 'Z4', 'ZA']],
    ['itau-sispag', ['00', 'BD', 'NR', 'DV']],
  ])('says a bill in %s as paid, open, failed or returned', (id, codes) => {
    const { returnCodes } = layoutNamed(id)!;
    const ends: TitleOutcome[] = ['paid', 'open', 'failed', 'returned'];
    expect(ends.map((outcome) => occurrencesOf(returnCodes, { outcome, reason: 'AC03' }, true))).toEqual(codes);
    expect(occurrencesOf(returnCodes, { outcome: 'failed', reason: 'AC03' })).toBe(id === 'febraban-240' ? 'PC' : 'NR');
  });

  it("writes into a paid bill's J the day and amount it was paid (interest added), and sums the trailer from them", () => {
    const bills = readRemittance(
      remittanceText({
        company: '11222333000181', generatedOn: '2026-11-27', titles: [],
        bills: [
          { yourNumber: 'BOL-1', name: 'ENERGIA SA', cents: 10_000, date: '2026-11-27', barcode: '8'.repeat(44) },
          { yourNumber: 'BOL-2', name: 'AGUA SA', cents: 5_000, date: '2026-11-27', barcode: '7'.repeat(44) },
        ],
      }),
      'REM.rem',
    ).remittance!;
    const titles: ReturnTitle[] = bills.titles.map((t, i) => ({
      lot: t.lot, lotHeader: bills.lots.find((l) => l.number === t.lot)!.header, records: t.records, outcome: i === 0 ? 'paid' : 'failed', reason: null,
      paidOn: i === 0 ? '2026-11-28' : null, paidCents: i === 0 ? 10_250 : null, endToEndId: null,
    }));
    const read = readCnab240Return(returnFile({ layout: bills.layout, fileHeader: bills.fileHeader, writtenOn: '2026-11-28', writtenAt: '090000', sequence: 2, titles }));
    expect(checkCnab240Totals(read)).toEqual([]);
    const j = read.lots.flatMap((l) => l.details).filter((d): d is SegmentJ => d.segment === 'J');
    // R$ 100,00 asked, R$ 102,50 paid a day later; the failed one keeps what the ERP asked. The lot sums 10,250 + 5,000.
    expect(j.map((d) => [d.seuNumero, d.occurrences, d.paymentDate, d.paymentCentavos])).toEqual([
      ['BOL-1', ['00'], '2026-11-28', 10_250],
      ['BOL-2', ['Z4'], '2026-11-27', 5_000],
    ]);
    expect(read.lots.at(-1)!.trailer).toMatchObject({ amountCentavos: 15_250 });
  });
});


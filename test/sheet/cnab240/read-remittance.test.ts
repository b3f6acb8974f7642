import { describe, expect, it } from 'vitest';
import { looksLikeCnab240, readRemittance } from '../../../src/sheet/cnab240/read-remittance.js';
import { remittanceText, type TitleSpec } from '../../helpers/cnab240-remittance.js';

const COMPANY = '11222333000181';
const titles: TitleSpec[] = [
  { yourNumber: 'NF-1001', name: 'MARIA DA SILVA', cents: 150000, date: '2026-12-01', keyKind: '02', key: 'maria@exemplo.com.br' },
  { yourNumber: 'NF-1002', name: 'JOAO SOUZA', cents: 23456, date: '2026-12-01', keyKind: '03', key: '52998224725', document: '52998224725' },
  { yourNumber: 'NF-1003', name: 'ANA LIMA', cents: 9900, date: '2026-12-04', keyKind: '04', key: '123e4567-e89b-42d3-a456-426614174000' },
];
const text = (o: Partial<Parameters<typeof remittanceText>[0]> = {}) => remittanceText({ company: COMPANY, generatedOn: '2026-11-27', titles, ...o });
const problems = (t: string) => readRemittance(t, 'REM0001.rem').problems.map((p) => `${p.line}:${p.field ?? ''}:${p.reason.code}`);

describe('reading a CNAB 240 payment remittance', () => {
  it('reads every Pix title exact, with CRLF or LF line ends', () => {
    for (const lineEnding of ['\r\n', '\n'] as const) {
      const r = readRemittance(text({ lineEnding }), 'REM0001.rem');
      expect(r.problems).toEqual([]);
      const rem = r.remittance!;
      expect([rem.layout.id, rem.bank, rem.version, rem.company]).toEqual(['febraban-240', '033', '060', { type: 'cnpj', value: COMPANY, valid: true }]);
      expect(rem.titles.map((t) => [t.line, t.kind, t.amountCents, t.paymentDate, t.yourNumber, t.pixKey?.type, t.pixKey?.key])).toEqual([
        [3, 'pix-key', 150000, '2026-12-01', 'NF-1001', 'email', 'maria@exemplo.com.br'],
        [5, 'pix-key', 23456, '2026-12-01', 'NF-1002', 'cpf', '52998224725'],
        [7, 'pix-key', 9900, '2026-12-04', 'NF-1003', 'evp', '123e4567-e89b-42d3-a456-426614174000'],
      ]);
      expect(rem.titles[1]!.payeeDocument).toEqual({ type: 'cpf', value: '52998224725', valid: true });
      expect(rem.lots[0]).toMatchObject({ recordCount: 8, amountSumCents: 183356 });
      expect(rem.problems).toEqual([]);
    }
  });

  it('refuses a lot whose trailer sum is one centavo off, naming the trailer line and its positions', () => {
    expect(problems(text({ trailerSumOff: 1 }))).toEqual(['9:24-41:cnab_lot_sum']);
    const r = readRemittance(text({ trailerSumOff: -1 }), 'REM0001.rem');
    expect(r.problems[0]).toMatchObject({ file: 'REM0001.rem', line: 9, reason: { code: 'cnab_lot_sum', writtenCents: 183355, countedCents: 183356 } });
  });

  it('refuses a line that is not 240 positions, naming each', () => {
    const lines = text().split('\r\n');
    lines[3] = lines[3]!.slice(0, 239);
    lines[5] = `${lines[5]} `;
    expect(problems(lines.join('\r\n'))).toEqual(['4::cnab_line_length', '6::cnab_line_length']);
  });

  it('refuses records out of order and counts that disagree', () => {
    const lines = text().split('\r\n');
    const noTrailer = [...lines.slice(0, 8), lines[9]!, ''].join('\r\n');
    expect(problems(noTrailer)).toContain('9:8-8:cnab_record_unexpected');
    const fileTrailer = lines[9]!;
    const wrongCount = `${fileTrailer.slice(0, 23)}000011${fileTrailer.slice(29)}`;
    expect(problems([...lines.slice(0, 9), wrongCount, ''].join('\r\n'))).toEqual(['10:24-29:cnab_file_records']);
  });

  it('refuses a return file given as a remittance, and a bank no layout names', () => {
    const header = text().split('\r\n')[0]!;
    expect(problems(text().replace(header, `${header.slice(0, 142)}2${header.slice(143)}`))).toEqual(['1:143-143:cnab_not_remittance']);
    expect(problems(text({ bank: '999' }))).toEqual(['1:1-3:cnab_bank_unknown']);
  });

  it('flags what cannot be paid as written, keeping the file read: a blank or repeated "seu número", a bad key or document', () => {
    const r = readRemittance(
      text({
        titles: [
          { ...titles[0]!, yourNumber: '' },
          { ...titles[1]!, document: '52998224700' },
          { ...titles[2]!, yourNumber: 'NF-1002', key: 'not-a-uuid' },
        ],
      }),
      'REM0001.rem',
    );
    expect(r.problems).toEqual([]);
    expect(r.remittance!.problems.map((p) => `${p.line}:${p.field}:${p.reason.code}`)).toEqual([
      '6:19-32:cnab_document_invalid',
      '8:128-226:cnab_pix_key_invalid',
      '3:74-93:cnab_your_number_missing',
      '7:74-93:cnab_your_number_twice',
    ]);
  });

  it('reads a Pix by account data (forma de iniciação 05) as a payment to an account, not a key', () => {
    const r = readRemittance(text({ titles: [{ ...titles[0]!, keyKind: '05', key: '' }] }), 'REM0001.rem');
    expect(r.remittance!.titles[0]).toMatchObject({ kind: 'account', pixKey: null });
  });

  it('refuses details out of place, a debit lot and a file trailer of another bank, without a false sum for an unreadable amount', () => {
    const lines = text().split('\r\n');
    const swapped = [...lines];
    [swapped[3], swapped[5]] = [swapped[5]!, swapped[3]!];
    expect(problems(swapped.join('\r\n'))).toContain('4:9-13:cnab_sequence');
    const wrongLot = [...lines];
    wrongLot[4] = `${wrongLot[4]!.slice(0, 3)}0002${wrongLot[4]!.slice(7)}`;
    expect(problems(wrongLot.join('\r\n'))).toContain('5:4-7:cnab_lot_number');
    const debit = [...lines];
    debit[1] = `${debit[1]!.slice(0, 8)}D${debit[1]!.slice(9)}`;
    expect(problems(debit.join('\r\n'))).toEqual(['2:9-9:cnab_operation']);
    const otherBank = [...lines];
    otherBank[9] = `341${otherBank[9]!.slice(3)}`;
    expect(problems(otherBank.join('\r\n'))).toEqual(['10:1-3:cnab_bank_differs']);
    const badAmount = [...lines];
    badAmount[2] = `${badAmount[2]!.slice(0, 119)}00000000001500A${badAmount[2]!.slice(134)}`;
    expect(problems(badAmount.join('\r\n'))).toEqual(['3:120-134:cnab_not_number']);
  });

  it('reads a file ended by Ctrl-Z, and pins a layout whatever version the file says', () => {
    expect(problems(`${text()}\x1a`)).toEqual([]);
    const header = text().split('\r\n')[0]!;
    const v040 = text().replace(header, `${header.slice(0, 163)}040${header.slice(166)}`);
    expect(problems(v040)).toEqual(['1:164-166:cnab_version_unknown']);
    expect(readRemittance(v040, 'REM0001.rem', 'febraban-240').problems).toEqual([]);
  });

  it('is recognised by its first line, with a BOM or accents in UTF-8, and not as a sheet', () => {
    const withName = (name: string) => Buffer.from(text({ companyName: name }), 'utf8');
    expect(looksLikeCnab240(withName('EMPRESA AÇÚCAR LTDA'))).toBe(true);
    expect(looksLikeCnab240(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), withName('EMPRESA')]))).toBe(true);
    expect(looksLikeCnab240(Buffer.from('chave;valor\nana@x.com;10,00\n'))).toBe(false);
  });
});


import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readRemittance } from '../../../src/sheet/cnab240/read-remittance.js';

// Remittances written by others (test/fixtures/cnab240/PROVENANCE.md), against the values a person read from them
// by position (expected.json), not from paybatch.
const DIR = join(import.meta.dirname, '../../fixtures/cnab240');
const expected = JSON.parse(readFileSync(join(DIR, 'expected.json'), 'utf8')).samples;

interface ExpectedTitle {
  segments: string[];
  amountCentavos: number;
  paymentDate: string;
  payeeDocument: { type: string | null; value: string } | null;
  payeeName: string;
  pixKeyType: string | null;
  pixKey: string | null;
  barcode: string | null;
  seuNumero: string;
}

// What paybatch must refuse to pay in them: the Santander Pix example's documents are placeholders whose check
// digits are wrong (the company's CPF 999.213.168-85 on line 1, the payee's 995.709.988-47 in each segment B).
// The Itaú credit file's generator wrote a branch and its check digit in the 5 positions of the branch (60689 where
// its Santander twin has 06068 and 9): a branch of five significant digits exists nowhere, so those accounts are
// flagged, and the one whose text starts with 0 (09750, line 5) reads as branch 9750.
const REFUSED: Readonly<Record<string, readonly string[]>> = {
  'itau-sispag-credito.rem': [3, 4, 6, 7, 8, 9, 10, 11].map((line) => `${line}:24-28:cnab_account_invalid`),
  'santander-pix.rem': ['1:19-32:cnab_document_invalid', '4:19-32:cnab_document_invalid', '6:19-32:cnab_document_invalid', '8:19-32:cnab_document_invalid', '10:19-32:cnab_document_invalid'],
};

const text = (name: string) => readFileSync(join(DIR, name), 'latin1');

describe.each(['itau-sispag-credito.rem', 'santander-credito.rem', 'itau-sispag-boletos.rem', 'santander-pix.rem'])('the public sample %s', (name) => {
  const want = expected[name];
  const reading = readRemittance(text(name), name);

  it('is read whole, through the layout of its bank', () => {
    expect(reading.problems).toEqual([]);
    expect(reading.remittance!.problems.map((p) => `${p.line}:${p.field}:${p.reason.code}`)).toEqual(REFUSED[name] ?? []);
    expect(reading.remittance!.bank).toBe(want.bankCode);
    expect(reading.remittance!.version).toBe(want.fileHeader.layoutVersion);
  });

  it("has the company's document and every lot with its trailer's count and sum", () => {
    const r = reading.remittance!;
    expect(r.company.value).toBe(want.fileHeader.company.value);
    expect(r.lots).toHaveLength(want.lotCount);
    r.lots.forEach((lot, i) => {
      const w = want.lots[i];
      expect([lot.service, lot.form, lot.titles.length]).toEqual([w.service, w.form, w.titleCount]);
      expect(lot.recordCount).toBe(w.trailer.recordCount);
      expect(lot.amountSumCents).toBe(w.trailer.amountSumCentavos);
      expect(lot.titles.reduce((sum, t) => sum + t.amountCents, 0)).toBe(w.trailer.amountSumCentavos);
    });
  });

  it('has each title exact: amount, date, payee, key or bar code, and "seu número"', () => {
    const titles = reading.remittance!.titles;
    const wanted: ExpectedTitle[] = want.lots.flatMap((l: { titles: ExpectedTitle[] }) => l.titles);
    expect(titles.map((t) => t.records.length)).toEqual(wanted.map((w) => w.segments.length));
    for (const [i, t] of titles.entries()) {
      const w = wanted[i]!;
      expect({ amount: t.amountCents, date: t.paymentDate, name: t.payeeName, yourNumber: t.yourNumber, barcode: t.barcode })
        .toEqual({ amount: w.amountCentavos, date: w.paymentDate, name: w.payeeName, yourNumber: w.seuNumero, barcode: w.barcode });
      if (t.kind !== 'bill') expect(t.payeeDocument?.value ?? null).toBe(w.payeeDocument?.value ?? null);
      expect(t.pixKey?.key ?? null).toBe(w.pixKey);
    }
  });
});

describe('the payments to accounts in the public samples', () => {
  // Form 01 and form 45 with account data ("forma de iniciação" 05): the account as the person read it, the branch in
  // the DICT's 4 digits and the account with its check digit.
  it.each(['santander-credito.rem', 'santander-pix.rem'])('%s: each account exact', (name) => {
    const titles = readRemittance(text(name), name).remittance!.titles;
    const wanted = expected[name].lots.flatMap((l: { titles: { payeeBank: string; payeeBranch: string; payeeAccount: string; payeeAccountDigit: string }[] }) => l.titles);
    expect(titles.map((t) => t.kind)).toEqual(wanted.map(() => 'account'));
    expect(titles.map((t) => t.account)).toEqual(
      wanted.map((w: { payeeBank: string; payeeBranch: string; payeeAccount: string; payeeAccountDigit: string }) => ({
        bank: w.payeeBank,
        branch: w.payeeBranch.slice(1),
        account: `${Number(w.payeeAccount)}-${w.payeeAccountDigit}`,
        accountType: 'checkingAccount',
      })),
    );
  });

  it("the Itaú credit file's accounts: the one with a 4-digit branch read, the others none", () => {
    const r = readRemittance(text('itau-sispag-credito.rem'), 'itau-sispag-credito.rem').remittance!;
    expect(r.titles.map((t) => t.account)).toEqual([null, null, { bank: '237', branch: '9750', account: '218177-8', accountType: 'checkingAccount' }, null, null, null, null, null, null]);
  });
});

/**
 * Writes a CNAB 240 payment remittance as an ERP does, for the tests: FEBRABAN 240 positions as the manual prints
 * them (Santander, file layout 060), typed here by hand — not read from paybatch's layout tables.
 */
export interface TitleSpec {
  readonly yourNumber: string;
  readonly name: string;
  readonly cents: number;
  /** YYYY-MM-DD. */
  readonly date: string;
  /** FEBRABAN's "forma de iniciação": 01 phone, 02 e-mail, 03 CPF/CNPJ, 04 random key, 05 account data. */
  readonly keyKind: '01' | '02' | '03' | '04' | '05';
  readonly key: string;
  /** The payee's CPF (11 digits) or CNPJ (14); absent: none written. */
  readonly document?: string;
  /** The payee's account (segment A: bank 21-23, branch 24-28, account 30-41, its check digit 42); absent: bank 000, none. */
  readonly account?: { readonly bank: string; readonly branch: string; readonly number: string; readonly digit: string };
}

/** A bill (segment J and its J-52) in a lot of its own (payment form 31, other banks' bills). */
export interface BillSpec {
  readonly yourNumber: string;
  readonly name: string;
  readonly cents: number;
  readonly date: string;
  /** The 44-digit bar code. */
  readonly barcode: string;
}

export interface RemittanceSpec {
  readonly bank?: string;
  /** The company's CNPJ. */
  readonly company: string;
  readonly companyName?: string;
  /** Generation date, YYYY-MM-DD. */
  readonly generatedOn: string;
  readonly titles: readonly TitleSpec[];
  readonly bills?: readonly BillSpec[];
  readonly lineEnding?: '\r\n' | '\n';
  /** Changes the lot trailer's sum by this many centavos (a damaged file). */
  readonly trailerSumOff?: number;
}

const blank = () => ' '.repeat(240);
const ddmmyyyy = (iso: string) => `${iso.slice(8, 10)}${iso.slice(5, 7)}${iso.slice(0, 4)}`;

/** `value` at positions `from`-`to` (1-based): digits zero-filled to the right edge, text blank-filled. */
function at(line: string, from: number, to: number, value: string | number): string {
  const width = to - from + 1;
  const text = typeof value === 'number' ? String(value).padStart(width, '0') : value.padEnd(width, ' ');
  if (text.length !== width) throw new Error(`${value} does not fit ${from}-${to}`);
  return line.slice(0, from - 1) + text + line.slice(to);
}

export function remittanceText(spec: RemittanceSpec): string {
  const bank = spec.bank ?? '033';
  const name = spec.companyName ?? 'EMPRESA EXEMPLO LTDA';
  const lines: string[] = [];
  let h = blank();
  for (const [f, t, v] of [[1, 3, bank], [4, 7, '0000'], [8, 8, '0'], [18, 18, '2'], [19, 32, spec.company], [73, 102, name], [143, 143, '1'],
    [144, 151, ddmmyyyy(spec.generatedOn)], [152, 157, '090000'], [158, 163, '000001'], [164, 166, '060']] as const) h = at(h, f, t, v);
  lines.push(h);
  let lh = blank();
  for (const [f, t, v] of [[1, 3, bank], [4, 7, '0001'], [8, 8, '1'], [9, 9, 'C'], [10, 11, '20'], [12, 13, '45'], [14, 16, '031'], [18, 18, '2'],
    [19, 32, spec.company], [73, 102, name]] as const) lh = at(lh, f, t, v);
  lines.push(lh);
  let seq = 0;
  let sum = 0;
  for (const title of spec.titles) {
    let a = blank();
    for (const [f, t, v] of [[1, 3, bank], [4, 7, '0001'], [8, 8, '3'], [9, 13, ++seq], [14, 14, 'A'], [15, 15, '0'], [16, 17, '00'], [18, 20, '009'],
      [21, 23, title.account?.bank ?? '000'], [24, 28, Number(title.account?.branch ?? 0)], [30, 41, Number(title.account?.number ?? 0)],
      [42, 42, title.account?.digit ?? ' '], [44, 73, title.name], [74, 93, title.yourNumber], [94, 101, ddmmyyyy(title.date)], [102, 104, 'BRL'], [105, 119, 0],
      [120, 134, title.cents], [155, 162, 0], [163, 177, 0]] as const) a = at(a, f, t, v);
    lines.push(a);
    let b = blank();
    const doc = title.document;
    for (const [f, t, v] of [[1, 3, bank], [4, 7, '0001'], [8, 8, '3'], [9, 13, ++seq], [14, 14, 'B'], [15, 17, title.keyKind],
      [18, 18, doc === undefined ? '0' : doc.length === 11 ? '1' : '2'], [19, 32, doc === undefined ? 0 : doc.padStart(14, '0')], [128, 226, title.key]] as const) b = at(b, f, t, v);
    lines.push(b);
    sum += title.cents;
  }
  let lt = blank();
  for (const [f, t, v] of [[1, 3, bank], [4, 7, '0001'], [8, 8, '5'], [18, 23, seq + 2], [24, 41, sum + (spec.trailerSumOff ?? 0)]] as const) lt = at(lt, f, t, v);
  lines.push(lt);
  const lots = spec.bills?.length ? 2 : 1;
  if (spec.bills?.length) {
    let bh = blank();
    for (const [f, t, v] of [[1, 3, bank], [4, 7, '0002'], [8, 8, '1'], [9, 9, 'C'], [10, 11, '20'], [12, 13, '31'], [14, 16, '040'], [18, 18, '2'],
      [19, 32, spec.company], [73, 102, name]] as const) bh = at(bh, f, t, v);
    lines.push(bh);
    let bseq = 0;
    let bsum = 0;
    for (const bill of spec.bills) {
      let j = blank();
      for (const [f, t, v] of [[1, 3, bank], [4, 7, '0002'], [8, 8, '3'], [9, 13, ++bseq], [14, 14, 'J'], [15, 15, '0'], [16, 17, '00'], [18, 61, bill.barcode],
        [62, 91, bill.name], [92, 99, ddmmyyyy(bill.date)], [100, 114, bill.cents], [115, 129, 0], [130, 144, 0], [145, 152, ddmmyyyy(bill.date)],
        [153, 167, bill.cents], [168, 182, 0], [183, 202, bill.yourNumber], [223, 224, '09']] as const) j = at(j, f, t, v);
      lines.push(j);
      let j52 = blank();
      for (const [f, t, v] of [[1, 3, bank], [4, 7, '0002'], [8, 8, '3'], [9, 13, ++bseq], [14, 14, 'J'], [15, 15, '0'], [16, 17, '00'], [18, 19, '52'],
        [20, 20, '2'], [21, 35, `0${spec.company}`], [36, 75, name], [76, 76, '0'], [77, 91, 0], [92, 131, bill.name]] as const) j52 = at(j52, f, t, v);
      lines.push(j52);
      bsum += bill.cents;
    }
    let bt = blank();
    for (const [f, t, v] of [[1, 3, bank], [4, 7, '0002'], [8, 8, '5'], [18, 23, bseq + 2], [24, 41, bsum]] as const) bt = at(bt, f, t, v);
    lines.push(bt);
  }
  let ft = blank();
  for (const [f, t, v] of [[1, 3, bank], [4, 7, '9999'], [8, 8, '9'], [18, 23, lots], [24, 29, lines.length + 1]] as const) ft = at(ft, f, t, v);
  lines.push(ft);
  const eol = spec.lineEnding ?? '\r\n';
  return lines.join(eol) + eol;
}

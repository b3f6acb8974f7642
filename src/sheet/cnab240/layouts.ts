/**
 * The CNAB 240 payment layouts paybatch reads and writes, one table per bank and manual (layout.ts). FEBRABAN's
 * standard is the base; a bank's table lists only where it differs. To add a bank: a table here naming its bank code
 * and versions, and a sample file under test/fixtures/cnab240/ read by test/sheet/cnab240-samples.test.ts.
 */
import { alfa, num, type Cnab240Layout } from './layout.js';

const common = { bank: num(1, 3), lot: num(4, 7), recordType: num(8, 8) };
const detail = { ...common, sequence: num(9, 13), segment: alfa(14, 14) };

/**
 * FEBRABAN CNAB 240 "Pagamentos", version 10.11 (the Pix fields of segment B came with 10.9). Read by default for the
 * banks whose files and published layouts were checked against it (Santander, Bradesco Multipag); other banks that
 * follow it are read by pinning it (`cnabLayout`), once their manual is checked.
 */
export const FEBRABAN: Cnab240Layout = {
  id: 'febraban-240',
  banks: ['033', '237'],
  title: 'FEBRABAN 240 Pagamentos v10.11 (Santander, Bradesco Multipag)',
  versions: ['060', '080', '081', '082', '083', '084', '085', '086', '087', '088', '089', '103'],
  fileHeader: {
    ...common,
    companyDocType: num(18, 18),
    companyDoc: alfa(19, 32),
    companyName: alfa(73, 102),
    direction: num(143, 143),
    generatedOn: num(144, 151),
    generatedAt: num(152, 157),
    sequence: num(158, 163),
    version: num(164, 166),
  },
  lotHeader: {
    ...common,
    operation: alfa(9, 9),
    service: num(10, 11),
    form: num(12, 13),
    version: num(14, 16),
    companyDocType: num(18, 18),
    companyDoc: alfa(19, 32),
    occurrences: alfa(231, 240),
  },
  segmentA: {
    ...detail,
    chamber: num(18, 20),
    payeeBank: num(21, 23),
    payeeAccount: alfa(24, 43),
    payeeBranch: num(24, 28),
    payeeAccountNumber: num(30, 41),
    // 43 is the "DV agência/conta", left blank by most banks; the account's own check digit is 42.
    payeeAccountDigit: alfa(42, 42),
    payeeName: alfa(44, 73),
    yourNumber: alfa(74, 93),
    paymentDate: num(94, 101),
    amount: num(120, 134),
    bankNumber: alfa(135, 154),
    paidOn: num(155, 162),
    paidAmount: num(163, 177),
    occurrences: alfa(231, 240),
  },
  segmentB: {
    ...detail,
    keyKind: alfa(15, 17),
    payeeDocType: num(18, 18),
    payeeDoc: alfa(19, 32),
    pixKey: alfa(128, 226),
  },
  segmentJ: {
    ...detail,
    barcode: alfa(18, 61),
    payeeName: alfa(62, 91),
    dueDate: num(92, 99),
    faceAmount: num(100, 114),
    discount: num(115, 129),
    charges: num(130, 144),
    paymentDate: num(145, 152),
    amount: num(153, 167),
    yourNumber: alfa(183, 202),
    bankNumber: alfa(203, 222),
    occurrences: alfa(231, 240),
  },
  segmentJ52: {
    ...detail,
    code: num(18, 19),
    beneficiaryDocType: num(76, 76),
    beneficiaryDoc: alfa(77, 91),
    beneficiaryName: alfa(92, 131),
  },
  segmentZ: { ...detail, authentication: alfa(15, 78), occurrences: alfa(231, 240) },
  lotTrailer: { ...common, recordCount: num(18, 23), amountSum: num(24, 41), occurrences: alfa(231, 240) },
  fileTrailer: { ...common, lotCount: num(18, 23), recordCount: num(24, 29) },
  forms: {
    '01': 'account', // crédito em conta corrente no banco
    '03': 'account', // DOC/TED
    '05': 'account', // crédito em conta poupança
    '41': 'account', // TED outra titularidade
    '43': 'account', // TED mesma titularidade
    '45': 'pix-key', // Pix transferência (the key, or account data, in segment B)
    '30': 'bill', // liquidação de títulos do próprio banco
    '31': 'bill', // pagamento de títulos de outros bancos
  },
  keyKinds: { '01': 'phone', '02': 'email', '03': 'document', '04': 'evp', '05': 'account' },
  // G059: 00 "crédito efetivado", BD "inclusão efetuada com sucesso", and the Pix codes of version 10 (PA "Pix não
  // efetivado", PB "erro no PSP do recebedor", PC conta encerrada, PD tipo de conta incorreto, PE transação não
  // suportada na conta, PF CPF/CNPJ inconsistente com o titular, PG CPF/CNPJ incorreto, PH ordem rejeitada pelo PSP
  // do recebedor); 01 "insuficiência de fundos". A return of a paid Pix has no code of its own: PA.
  returnCodes: {
    paid: '00', open: 'BD', failed: 'PA', returned: 'PA',
    byReason: {
      AB03: 'PB', AB09: 'PB', AB11: 'PB', ED05: 'PB', AC03: 'PC', AC06: 'PC', AC07: 'PC', AC14: 'PD', AG03: 'PE',
      BE01: 'PF', CH11: 'PG', BE17: 'PH', DS27: 'PH', AM04: '01',
    },
    // Bills, from the G059 list as Santander publishes it: Z4 "registro inconsistente (título)" for a payment the
    // provider refused, ZA "transferência devolvida" for one the beneficiary's bank returned.
    bills: { paid: '00', open: 'BD', failed: 'Z4', returned: 'ZA' },
  },
};

/**
 * Itaú SISPAG (CNAB 240, "SISPAG — Pagamentos Diversos", file layout 080/081, lots 040 and 030): the version sits at
 * 15-17 of the file header, the payee's document in segment A (204-217), the key type in segment B at 15-16.
 */
export const ITAU_SISPAG: Cnab240Layout = {
  ...FEBRABAN,
  id: 'itau-sispag',
  banks: ['341'],
  title: 'Itaú SISPAG (layout de arquivo 080/081)',
  versions: ['080', '081'],
  fileHeader: { ...FEBRABAN.fileHeader, version: num(15, 17) },
  segmentA: {
    ...FEBRABAN.segmentA,
    bankNumber: alfa(135, 149),
    payeeDoc: num(204, 217),
    // Itaú's note 11: the account's check character at 43 (an Itaú account) or 42-43 (another bank's, one or two).
    payeeAccountDigit: alfa(42, 43),
  },
  segmentB: { ...FEBRABAN.segmentB, keyKind: alfa(15, 16), pixKey: alfa(128, 227) },
  segmentJ: { ...FEBRABAN.segmentJ, bankNumber: alfa(216, 230) },
  segmentZ: { ...FEBRABAN.segmentZ, yourNumber: alfa(79, 98) },
  // Itaú's note 8: 00 "pagamento efetuado", BD "pagamento agendado", NR "operação não realizada", DV "devolvido".
  returnCodes: { paid: '00', open: 'BD', failed: 'NR', returned: 'DV', byReason: {}, bills: { paid: '00', open: 'BD', failed: 'NR', returned: 'DV' } },
};

/** Every layout, the first whose bank matches a file's being the one it is read with (unless pinned). */
export const LAYOUTS: readonly Cnab240Layout[] = [ITAU_SISPAG, FEBRABAN];

/** The layout named `id`, or undefined. */
export function layoutNamed(id: string): Cnab240Layout | undefined {
  return LAYOUTS.find((l) => l.id === id);
}

/** The layout a file of `bank` is read with by default, or undefined when no table names that bank. */
export function layoutOfBank(bank: string): Cnab240Layout | undefined {
  return LAYOUTS.find((l) => l.banks.includes(bank));
}

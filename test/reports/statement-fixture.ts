import type { Lineage, PeriodStatement, RowPayment, StatementPayment } from '../../src/reports/period-statement.js';

/**
 * A hand-built statement of November 2026 for profile "empresa" (ACME Pagamentos Ltda, CNPJ 11.222.333/0001-81,
 * bank 341 branch 1234 account 56789-0). Batch #2 "Folha nov" paid seven rows:
 *
 * - line 2 Ana Souza (CPF), R$ 1.500,00, paid in #2;
 * - line 3 Padaria Pão Quente Ltda (CNPJ), R$ 980,50, paid in #2;
 * - line 4 Carla Dias, R$ 2.100,00, failed in #2 (AC06), paid later by `batch retry` in #4;
 * - line 5 Diego Rocha, R$ 450,00, paid in #2, then returned (MD06): returned;
 * - line 6 Elisa Prado, R$ 300,00, still processing in #2: open;
 * - line 7 Fábio Nunes, R$ 800,00, failed in #2 (AC03), retried in #4, failed again (AC03): failed;
 * - line 8 Gustavo Reis, R$ 750,00, paid in #2, returned by Pix instability (BE08), reprocessed and paid in #3.
 *
 * Pix: 7 rows, R$ 6.880,50 = paid 4 (R$ 5.330,50) + failed 1 (R$ 800,00) + returned 1 (R$ 450,00) + open 1 (R$ 300,00).
 * Two bills, both paid: energy R$ 459,90 less a R$ 9,20 discount = R$ 450,70; rent R$ 1.000,00 plus R$ 3,30
 * interest and a R$ 20,00 fine = R$ 1.023,30. Bills: 2, R$ 1.474,00, all paid.
 */
const step = (itemId: number, batchId: number, kind: RowPayment['kind'], status: string, at: string, reason: string | null = null): RowPayment => ({ itemId, batchId, kind, status, reason, at });
const lineage = (line: number, payments: RowPayment[], paidIn: number | null): Lineage => ({ batchId: 2, line, payments, paidIn });
const folha = { id: 2, kind: 'sheet', name: 'Folha nov' };

function payment(p: Omit<StatementPayment, 'batch' | 'sentAt' | 'paidAt' | 'returnedAt' | 'failedAt' | 'reason' | 'endToEndId'> & Partial<StatementPayment>): StatementPayment {
  return { batch: folha, sentAt: '2026-11-05T12:00:00Z', paidAt: null, returnedAt: null, failedAt: null, reason: null, endToEndId: null, ...p };
}

export const NOVEMBER: PeriodStatement = {
  period: { from: '2026-11-01', to: '2026-11-30' },
  profile: 'empresa',
  payer: { name: 'ACME Pagamentos Ltda', document: '11222333000181' },
  account: { bank: '341', branch: '1234', account: '56789-0' },
  generatedAt: '2026-12-01T12:00:00Z',
  payments: [
    payment({
      rowId: 11, line: 2, payee: { name: 'Ana Souza', document: '52998224725', key: 'ana@example.com', keyType: 'email' }, amountCents: 150000, outcome: 'paid',
      paidAt: '2026-11-05T12:01:30Z', endToEndId: 'E11222333202611051201ANA00000011',
      lineage: lineage(2, [step(11, 2, 'sheet', 'paid', '2026-11-05T12:01:30Z')], 2),
    }),
    payment({
      rowId: 12, line: 3, payee: { name: 'Padaria Pão Quente Ltda', document: '11444777000161', key: '11444777000161', keyType: 'cnpj' }, amountCents: 98050, outcome: 'paid',
      paidAt: '2026-11-05T12:02:10Z', endToEndId: 'E11222333202611051202PAO00000012',
      lineage: lineage(3, [step(12, 2, 'sheet', 'paid', '2026-11-05T12:02:10Z')], 2),
    }),
    payment({
      rowId: 13, line: 4, payee: { name: 'Carla Dias', document: '39053344705', key: '+5511987654321', keyType: 'phone' }, amountCents: 210000, outcome: 'paid',
      paidAt: '2026-11-10T14:00:00Z', endToEndId: 'E11222333202611101400CAR00000041',
      lineage: lineage(4, [step(13, 2, 'sheet', 'failed', '2026-11-05T12:02:40Z', 'AC06'), step(41, 4, 'retry', 'paid', '2026-11-10T14:00:00Z')], 4),
    }),
    payment({
      rowId: 14, line: 5, payee: { name: 'Diego Rocha', document: null, key: '123e4567-e89b-12d3-a456-426614174000', keyType: 'evp' }, amountCents: 45000, outcome: 'returned',
      reason: 'MD06', paidAt: '2026-11-05T12:03:00Z', returnedAt: '2026-11-12T18:30:00Z', endToEndId: 'E11222333202611051203DIE00000014',
      lineage: lineage(5, [step(14, 2, 'sheet', 'returned', '2026-11-12T18:30:00Z', 'MD06')], null),
    }),
    payment({
      rowId: 15, line: 6, payee: { name: 'Elisa Prado', document: '***.111.222-**', key: 'elisa@example.com', keyType: 'email' }, amountCents: 30000, outcome: 'open',
      sentAt: '2026-11-28T20:00:00Z',
      lineage: lineage(6, [step(15, 2, 'sheet', 'processing', '2026-11-28T20:00:00Z')], null),
    }),
    payment({
      rowId: 16, line: 7, payee: { name: 'Fábio Nunes', document: '11144477735', key: 'fabio@example.com', keyType: 'email' }, amountCents: 80000, outcome: 'failed',
      reason: 'AC03', failedAt: '2026-11-10T14:01:00Z',
      lineage: lineage(7, [step(16, 2, 'sheet', 'failed', '2026-11-05T12:04:00Z', 'AC03'), step(42, 4, 'retry', 'failed', '2026-11-10T14:01:00Z', 'AC03')], null),
    }),
    payment({
      rowId: 17, line: 8, payee: { name: 'Gustavo Reis', document: null, key: 'gustavo@example.com', keyType: 'email' }, amountCents: 75000, outcome: 'paid',
      paidAt: '2026-11-07T11:00:00Z', returnedAt: '2026-11-06T13:00:00Z', endToEndId: 'E11222333202611071100GUS00000031',
      lineage: lineage(8, [step(17, 2, 'sheet', 'returned', '2026-11-06T13:00:00Z', 'BE08'), step(31, 3, 'reprocess', 'paid', '2026-11-07T11:00:00Z')], 3),
    }),
  ],
  bills: [
    {
      id: 1, description: 'Energia novembro', beneficiary: 'Companhia de Luz SA', beneficiaryDocument: '33000167000101',
      line: '23793381286000782713695000063305975520000045990', dueDate: '2026-11-20',
      originalCents: 45990, discountCents: 920, interestCents: 0, fineCents: 0, amountCents: 45070, paidCents: 45070,
      outcome: 'paid', status: 'paid', reason: null, sentAt: '2026-11-18T13:00:00Z', paidOn: '2026-11-18', returnedAt: null, transactionId: 'tx-bill-1',
    },
    {
      id: 2, description: 'Aluguel', beneficiary: 'Imobiliária Centro Ltda', beneficiaryDocument: '60701190000104',
      line: '34191790010104351004791020150008291070026000123', dueDate: '2026-11-10',
      originalCents: 100000, discountCents: 0, interestCents: 330, fineCents: 2000, amountCents: 102330, paidCents: 102330,
      outcome: 'paid', status: 'paid', reason: null, sentAt: '2026-11-12T15:00:00Z', paidOn: '2026-11-12', returnedAt: null, transactionId: 'tx-bill-2',
    },
  ],
  totals: {
    pix: {
      all: { count: 7, cents: 688050 },
      paid: { count: 4, cents: 533050 },
      failed: { count: 1, cents: 80000 },
      returned: { count: 1, cents: 45000 },
      open: { count: 1, cents: 30000 },
    },
    bills: {
      all: { count: 2, cents: 147400 },
      paid: { count: 2, cents: 147400 },
      failed: { count: 0, cents: 0 },
      returned: { count: 0, cents: 0 },
      open: { count: 0, cents: 0 },
    },
  },
  movements: [
    { kind: 'pix', id: 'pix-11', direction: 'debit', cents: 150000, at: '2026-11-05T12:01:30Z', name: 'Ana Souza', memo: 'Pix #2 linha 2' },
    { kind: 'pix', id: 'pix-12', direction: 'debit', cents: 98050, at: '2026-11-05T12:02:10Z', name: 'Padaria Pão Quente Ltda', memo: 'Pix #2 linha 3' },
    { kind: 'pix', id: 'pix-14', direction: 'debit', cents: 45000, at: '2026-11-05T12:03:00Z', name: 'Diego Rocha', memo: 'Pix #2 linha 5' },
    { kind: 'pix', id: 'pix-17', direction: 'debit', cents: 75000, at: '2026-11-05T12:05:00Z', name: 'Gustavo Reis', memo: 'Pix #2 linha 8' },
    { kind: 'pix', id: 'pix-17-return', direction: 'credit', cents: 75000, at: '2026-11-06T13:00:00Z', name: 'Gustavo Reis', memo: 'Devolução BE08' },
    { kind: 'pix', id: 'pix-31', direction: 'debit', cents: 75000, at: '2026-11-07T11:00:00Z', name: 'Gustavo Reis', memo: 'Pix #3 linha 8' },
    { kind: 'pix', id: 'pix-41', direction: 'debit', cents: 210000, at: '2026-11-10T14:00:00Z', name: 'Carla Dias', memo: 'Pix #4 linha 4' },
    { kind: 'bill', id: 'bill-2', direction: 'debit', cents: 102330, at: '2026-11-12T15:00:00Z', name: 'Imobiliária Centro Ltda', memo: 'Boleto Aluguel' },
    { kind: 'pix', id: 'pix-14-return', direction: 'credit', cents: 45000, at: '2026-11-12T18:30:00Z', name: 'Diego Rocha', memo: 'Devolução MD06' },
    { kind: 'bill', id: 'bill-1', direction: 'debit', cents: 45070, at: '2026-11-18T13:00:00Z', name: 'Companhia de Luz SA', memo: 'Boleto Energia novembro' },
  ],
  balance: { cents: 1234567, at: '2026-11-28T20:05:00Z' },
};

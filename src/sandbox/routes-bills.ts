import type { FastifyInstance, FastifyRequest } from 'fastify';
import { saoPauloDate } from '../domain/bank-calendar.js';
import { decodeBoleto } from '../domain/boleto.js';
import { boletoProblemsText } from '../words/bills.js';
import { centsToReais } from '../domain/money.js';
import { conflict, invalidInput, notFound, ruleBroken } from './api-error.js';
import type { AccountOf, AppParts } from './app-parts.js';
import { detailsBody, notInRegistry, registeredBill, type RegisteredBill } from './bill-registry.js';
import type { Runtime } from './runtime.js';
import { objectBody, Problems } from './validate.js';

/**
 * Endpoints 12 and 13: bill details (by the methods the dialect takes, SPEC rule 4; any other is an unknown route)
 * and payment. Codes are decoded with the domain rules (400 when invalid, 404 when the registry does not know them);
 * payment amounts are read by the dialect (SPEC rule 5: every dialect takes reais as a number or a quoted number).
 */
export function registerBillRoutes(app: FastifyInstance, { rt, billPayments }: AppParts, accountOf: AccountOf): void {
  const details = async (request: FastifyRequest<{ Params: { number: string } }>) => detailsBody(lookUp(rt, request.params.number, 'number'), rt.dialect);
  for (const method of rt.dialect.billDetailsMethods) app.route({ method, url: '/cashout/boleto/details/:number', handler: details });

  app.post('/cashout/boleto', async (request) => {
    const account = accountOf(request);
    const body = objectBody(request.body);
    const problems = new Problems();
    const code = problems.text(body, 'code', 'code', { required: true, max: 100 });
    const amount = rt.dialect.billPaymentAmount(body.amount);
    if (!amount.ok) problems.add('amount', amount.error);
    const amountCents = amount.ok ? amount.value : undefined;
    problems.throwIfAny();
    const bill = lookUp(rt, code as string, 'code');
    const paid = rt.bills.outstanding(account, bill.barcode);
    if (paid) throw conflict('bill_already_paid', `this bill was already ${paid.status} (transaction ${paid.transaction_id})`);
    checkAmount(bill, amountCents as number);
    return billPayments.pay(account, bill, amountCents as number);
  });
}

function lookUp(rt: Runtime, code: string, field: string): RegisteredBill {
  const now = rt.clock.now();
  const decoded = decodeBoleto(code, saoPauloDate(new Date(now)));
  if (!decoded.valid || decoded.barcode === null || decoded.line === null) {
    throw invalidInput([{ field, problem: decoded.problems.length ? boletoProblemsText(decoded.problems, 'en') : 'is not a bill line or barcode' }]);
  }
  if (notInRegistry(decoded.barcode)) throw notFound('bill');
  return registeredBill({ ...decoded, barcode: decoded.barcode, line: decoded.line }, now);
}

function checkAmount(bill: RegisteredBill, cents: number): void {
  const reais = (c: number): string => centsToReais(c).toFixed(2);
  if (!bill.canChangeAmount && cents !== bill.amountCents) {
    throw ruleBroken('amount_mismatch', `this bill's amount cannot change: pay ${reais(bill.amountCents)}`, [
      { field: 'amount', problem: `must be ${reais(bill.amountCents)}` },
    ]);
  }
  if (cents < bill.minCents || cents > bill.maxCents) {
    throw ruleBroken('amount_out_of_range', `the amount must be between ${reais(bill.minCents)} and ${reais(bill.maxCents)}`, [
      { field: 'amount', problem: `must be between ${reais(bill.minCents)} and ${reais(bill.maxCents)}` },
    ]);
  }
}

import type { FastifyInstance, FastifyRequest } from 'fastify';
import { saoPauloDateTime } from '../domain/bank-calendar.js';
import { checkPixKey, parsePixKeyType } from '../domain/pix-key.js';
import { sayValidation } from '../words/validation.js';
import { BILL_RETURN_REASONS, matchBillReturnReason } from '../domain/reasons.js';
import { ApiError, conflict, invalidInput, notFound } from './api-error.js';
import type { AppParts } from './app-parts.js';
import { accountOf, sameText } from './auth.js';
import { accountsReport, batchesReport, billsReport, paymentsReport, webhooksReport } from './inspection.js';
import { objectBody } from './validate.js';

const MAX_ADVANCE_SECONDS = 10 * 366 * 86_400;

/**
 * The inspection routes under /_sandbox/, for tests and curious people; they need `Authorization: Bearer
 * <adminToken>` and are never subject to faults. Reports cover every account, or one when the request carries
 * that account's `Service-ApiKey`.
 */
export function registerAdminRoutes(app: FastifyInstance, { rt, credentials, billPayments, runDueNow }: AppParts): void {
  app.addHook('onRequest', async (request) => {
    const token = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '')?.[1];
    if (!token || !sameText(token, credentials.adminToken)) {
      throw new ApiError(401, 'invalid_admin_token', 'the inspection routes need Authorization: Bearer <adminToken>');
    }
  });
  const only = (request: FastifyRequest): string | null => {
    const key = request.headers['service-apikey'];
    return typeof key === 'string' ? accountOf(key) : null;
  };
  const clock = () => {
    const now = rt.clock.now();
    return { now: new Date(now).toISOString(), unix: Math.floor(now / 1000), saoPaulo: saoPauloDateTime(new Date(now)), speed: rt.clock.speed };
  };

  app.get('/_sandbox/clock', async () => clock());

  app.post('/_sandbox/clock/advance', async (request) => {
    const seconds = objectBody(request.body).seconds;
    if (typeof seconds !== 'number' || !(seconds >= 0 && seconds <= MAX_ADVANCE_SECONDS)) {
      throw invalidInput([{ field: 'seconds', problem: `must be a number of seconds from 0 to ${MAX_ADVANCE_SECONDS}` }]);
    }
    rt.clock.advance(Math.round(seconds * 1000));
    runDueNow();
    return clock();
  });

  app.get('/_sandbox/accounts', async () => accountsReport(rt.db));
  app.get('/_sandbox/payments', async (request) => paymentsReport(rt.db, only(request)));
  app.get('/_sandbox/batches', async (request) => batchesReport(rt.db, only(request)));
  app.get('/_sandbox/webhooks', async (request) => webhooksReport(rt.db, only(request)));
  app.get('/_sandbox/bills', async (request) => billsReport(rt.db, only(request)));

  app.post<{ Params: { transactionId: string } }>('/_sandbox/bills/:transactionId/return', async (request, reply) => {
    const body = objectBody(request.body);
    const reason = typeof body.reason === 'string' ? matchBillReturnReason(body.reason) : null;
    const after = body.afterSeconds ?? 60;
    if (reason === null) throw invalidInput([{ field: 'reason', problem: `must be a reason of SPEC.md's table, e.g. "${BILL_RETURN_REASONS[0]?.received}"` }]);
    if (typeof after !== 'number' || !(after >= 0 && after <= MAX_ADVANCE_SECONDS)) throw invalidInput([{ field: 'afterSeconds', problem: 'must be a number of seconds' }]);
    const bill = rt.bills.byTransaction(request.params.transactionId);
    if (!bill) throw notFound('bill payment');
    if (bill.status !== 'paid') throw conflict('bill_not_paid', `only a paid bill can be returned; this one is ${bill.status}`);
    const at = rt.clock.now() + Math.round(after * 1000);
    billPayments.scheduleReturn(bill.transaction_id, reason.received, at);
    return reply.code(202).send({ transactionId: bill.transaction_id, reason: reason.received, returnAt: new Date(at).toISOString() });
  });

  app.post('/_sandbox/keys', async (request, reply) => {
    const body = objectBody(request.body);
    const type = typeof body.type === 'string' ? parsePixKeyType(body.type) : undefined;
    const check = typeof body.key === 'string' && type !== null ? checkPixKey(body.key, type) : null;
    if (!check?.valid || check.normalized === null || check.type === null) throw invalidInput([{ field: 'key', problem: check?.reason ? sayValidation(check.reason, 'en') : 'must be a valid Pix key (and type, if given)' }]);
    if (typeof body.exists !== 'boolean') throw invalidInput([{ field: 'exists', problem: 'must be true or false' }]);
    rt.pix.setKeyOverride(`${check.type}:${check.normalized}`, body.exists);
    return reply.code(201).send({ key: check.normalized, type: check.type, exists: body.exists });
  });
}

import type { FastifyInstance } from 'fastify';
import { conflict, notFound, ruleBroken } from './api-error.js';
import type { AccountOf, AppParts } from './app-parts.js';
import { decodeCursor, pageOf } from './cursor.js';
import { objectBody, Problems } from './validate.js';

type BatchParams = { Params: { batchId: string } };

/** Endpoints 1, 5, 6, 7 and 8: create, delete, start and list batches (bodies and statuses in the dialect's words). */
export function registerBatchRoutes(app: FastifyInstance, { rt, processor }: AppParts, accountOf: AccountOf): void {
  const listPage = (account: string, afterSeq: number) => {
    const size = rt.dialect.pageSize(rt.settings.pageSize);
    const page = pageOf(rt.pix.batchesAfter(account, afterSeq, size + 1), size, `batches:${account}`, rt.dialect.cursors);
    return { cursor: page.cursor, data: page.rows.map(rt.dialect.batchBody) };
  };

  app.post('/pix/batch', async (request, reply) => {
    const body = objectBody(request.body);
    const problems = new Problems();
    const name = problems.text(body, 'name', 'name', { required: true, max: 200 });
    problems.throwIfAny();
    const batch = rt.pix.createBatch(accountOf(request), rt.nextId('batch'), name as string, rt.clock.now());
    return reply.code(rt.dialect.createdStatus).send(rt.dialect.batchBody(batch));
  });

  app.get('/pix/batch', async (request) => listPage(accountOf(request), 0));

  app.get<{ Params: { cursor: string } }>('/pix/batch/:cursor', async (request) => {
    const account = accountOf(request);
    return listPage(account, decodeCursor(request.params.cursor, `batches:${account}`, rt.dialect.cursors));
  });

  app.delete<BatchParams>('/pix/batch/:batchId', async (request, reply) => {
    const batch = rt.pix.batch(accountOf(request), request.params.batchId);
    if (!batch) throw notFound('batch');
    if (batch.status !== 'pending') throw conflict('batch_not_pending', `only a pending batch can be deleted; this one is ${batch.status}`);
    rt.db.transaction(() => rt.pix.deleteBatch(batch.id))();
    return reply.code(202).send(rt.dialect.deletedBody({ id: batch.id, status: 'deleted' }));
  });

  app.post<BatchParams>('/pix/batch/:batchId/start-process', async (request) => {
    const account = accountOf(request);
    const found = rt.pix.batch(account, request.params.batchId);
    if (!found) throw notFound('batch');
    if (found.status === 'pending') {
      if (found.quantity === 0) throw ruleBroken('batch_empty', 'a batch without items cannot be started');
      rt.db.transaction(() => processor.start(found.id, account))();
    }
    const batch = rt.pix.batch(account, found.id) ?? found;
    return { status: rt.dialect.batchStatus(batch.status), timestamp: Math.floor((batch.started_at ?? batch.created_at) / 1000), id: batch.id, name: batch.name };
  });
}

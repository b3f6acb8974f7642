import type { FastifyInstance } from 'fastify';
import type { AccountOf, AppParts } from './app-parts.js';
import { objectBody, Problems } from './validate.js';

/**
 * Endpoint 14, `POST /subscribe/event {url, secret}`: the account's one subscription (a new one replaces the old;
 * pending deliveries go to the new one). The answer is the dialect's (paybatch: 201 `{id, url, createdAt}`); the
 * secret is never echoed.
 */
export function registerWebhookRoutes(app: FastifyInstance, { rt }: AppParts, accountOf: AccountOf): void {
  app.post('/subscribe/event', async (request, reply) => {
    const body = objectBody(request.body);
    const problems = new Problems();
    const url = problems.text(body, 'url', 'url', { required: true, max: 2_000 });
    if (url !== undefined && !isHttpUrl(url)) problems.add('url', 'must be an absolute http:// or https:// URL');
    const secret = problems.text(body, 'secret', 'secret', { required: true, max: 500 });
    const weak = secret === undefined ? null : rt.dialect.secretProblem(secret);
    if (weak !== null) problems.add('secret', weak);
    problems.throwIfAny();
    const row = { account: accountOf(request), id: rt.nextId('subscription'), url: url as string, secret: secret as string, created_at: rt.clock.now() };
    rt.webhooks.subscribe(row);
    return reply.code(rt.dialect.createdStatus).send(rt.dialect.subscribedBody({ id: row.id, url: row.url, createdAtMs: row.created_at }));
  });
}

function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import { ApiError } from './api-error.js';
import type { AccountOf, AppParts } from './app-parts.js';
import { authenticate } from './auth.js';
import { installHttpFaults } from './http-faults.js';
import { registerAdminRoutes } from './routes-admin.js';
import { registerBatchRoutes } from './routes-batches.js';
import { registerBillRoutes } from './routes-bills.js';
import { registerItemRoutes } from './routes-items.js';
import { registerKeyRoutes } from './routes-keys.js';
import { registerOAuthRoutes } from './routes-oauth.js';
import { registerReceiptRoutes } from './routes-receipts.js';
import { registerWebhookRoutes } from './routes-webhooks.js';
import type { Runtime } from './runtime.js';

/** Largest request body: 1 MiB (413 above). */
const BODY_LIMIT = 1024 * 1024;

/**
 * The sandbox's HTTP application: the 14 endpoints of SPEC.md (faults and authentication apply), the OAuth token
 * endpoint, and the inspection routes under /_sandbox/ (admin token). Errors of the 14 endpoints and unknown routes
 * answer as the dialect chooses; the inspection routes always answer `{"error":{"code","message","details"}}`
 * (they are the sandbox's own, not the provider's). Bodies are JSON (415 otherwise), at most BODY_LIMIT bytes (413).
 */
export function buildApp(parts: AppParts): FastifyInstance {
  const { dialect } = parts.rt;
  const tls = parts.tls;
  const https = tls ? { cert: tls.cert, key: tls.key, ...(tls.clientCa ? { ca: tls.clientCa, requestCert: true, rejectUnauthorized: true } : {}) } : null;
  const app = Fastify({ bodyLimit: BODY_LIMIT, forceCloseConnections: 'idle', return503OnClosing: true, ...(https ? { https } : {}) }) as unknown as FastifyInstance;
  app.removeContentTypeParser(['application/json', 'text/plain']);
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = String(body);
    if (text.trim() === '') return done(null, undefined);
    try {
      done(null, JSON.parse(text));
    } catch {
      done(new ApiError(400, 'invalid_json', 'the body is not valid JSON'), undefined);
    }
  });
  app.setErrorHandler((error, _request, reply) => {
    const answer = asApiError(error, parts.rt);
    return reply.code(answer.status).headers(answer.headers).send(answer.body());
  });
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    const answer = path.startsWith('/_sandbox/')
      ? { status: 404, body: new ApiError(404, 'not_found', `no route ${request.method} ${path}`).body() }
      : dialect.unknownRoute(request.method, path);
    return reply.code(answer.status).send(answer.body);
  });

  app.register(async (oauth) => registerOAuthRoutes(oauth, parts));
  app.register(async (admin) => registerAdminRoutes(admin, parts));
  app.register(async (api) => {
    api.setErrorHandler((error, _request, reply) => {
      const failure = asApiError(error, parts.rt);
      const answer = dialect.errorAnswer(failure);
      return reply.code(answer.status).headers(failure.headers).send(answer.body);
    });
    const accounts = new WeakMap<FastifyRequest, string>();
    installHttpFaults(api, parts.rt, parts.held);
    api.addHook('onRequest', async (request) => {
      accounts.set(request, authenticate(request.headers, parts.credentials, parts.tokens));
    });
    const accountOf: AccountOf = (request) => accounts.get(request) as string;
    registerBatchRoutes(api, parts, accountOf);
    registerItemRoutes(api, parts, accountOf);
    registerKeyRoutes(api, parts);
    registerReceiptRoutes(api, parts, accountOf);
    registerBillRoutes(api, parts, accountOf);
    registerWebhookRoutes(api, parts, accountOf);
  });
  return app;
}

function asApiError(error: unknown, rt: Runtime): ApiError {
  if (error instanceof ApiError) return error;
  const e = error as { code?: string; statusCode?: number; message?: string };
  if (e.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') return new ApiError(415, 'unsupported_media_type', 'the body must be JSON (Content-Type: application/json)');
  if (e.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return new ApiError(413, 'payload_too_large', `the body is larger than ${BODY_LIMIT} bytes`);
  if (e.statusCode !== undefined && e.statusCode >= 400 && e.statusCode < 500) return new ApiError(e.statusCode, 'bad_request', e.message ?? 'bad request');
  rt.log(`internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  return new ApiError(500, 'internal_error', 'the sandbox failed unexpectedly; see its log');
}

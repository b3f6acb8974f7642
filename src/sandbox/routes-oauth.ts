import type { FastifyInstance, FastifyReply } from 'fastify';
import type { AppParts } from './app-parts.js';
import { sameText } from './auth.js';
import { isObject } from './validate.js';

/**
 * `POST /oauth/token`: OAuth 2.0 client credentials (RFC 6749 §4.4). The body is form-encoded with
 * `grant_type=client_credentials`; the client authenticates with `client_id` and `client_secret` fields, or by HTTP
 * Basic, and a JSON body is read like the form, where the dialect allows. Errors follow RFC 6749 §5.2
 * (`{"error","error_description"}`) in every dialect, not the API's shape.
 */
export function registerOAuthRoutes(app: FastifyInstance, parts: AppParts): void {
  const rules = parts.rt.dialect.oauth;
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(String(body))));
  });

  app.post('/oauth/token', async (request, reply) => {
    if (!rules.json && !/^application\/x-www-form-urlencoded\b/i.test(request.headers['content-type'] ?? '')) {
      return oauthError(reply, 400, 'invalid_request', 'the body must be application/x-www-form-urlencoded');
    }
    const basic = basicCredentials(request.headers.authorization);
    if (basic && !rules.basic) {
      return oauthError(reply, 401, 'invalid_client', 'HTTP Basic is not accepted: send client_id and client_secret in the form body');
    }
    const form = isObject(request.body) ? request.body : {};
    const clientId = basic?.id ?? stringOf(form.client_id);
    const clientSecret = basic?.secret ?? stringOf(form.client_secret);
    if (form.grant_type === undefined) return oauthError(reply, 400, 'invalid_request', 'grant_type is required');
    if (form.grant_type !== 'client_credentials') return oauthError(reply, 400, 'unsupported_grant_type', 'only client_credentials is supported');
    const known =
      clientId !== undefined && clientSecret !== undefined &&
      sameText(clientId, parts.credentials.clientId) && sameText(clientSecret, parts.credentials.clientSecret);
    if (!known) {
      if (rules.basic) reply.header('www-authenticate', 'Basic realm="paybatch sandbox"');
      return oauthError(reply, 401, 'invalid_client', 'unknown client or wrong secret');
    }
    return reply.header('cache-control', 'no-store').send(rules.answer(parts.tokens.issue(parts.credentials.clientId)));
  });
}

function oauthError(reply: FastifyReply, status: number, error: string, description: string): FastifyReply {
  return reply.code(status).header('cache-control', 'no-store').send({ error, error_description: description });
}

/** Client id and secret of an `Authorization: Basic` header (RFC 6749 §2.3.1: form-encoded, then base64). */
function basicCredentials(header: string | undefined): { id: string; secret: string } | undefined {
  const encoded = header && /^Basic\s+(\S+)$/i.exec(header)?.[1];
  if (!encoded) return undefined;
  const text = Buffer.from(encoded, 'base64').toString('utf8');
  const colon = text.indexOf(':');
  if (colon < 0) return undefined;
  const decode = (s: string): string => decodeURIComponent(s.replace(/\+/g, ' '));
  try {
    return { id: decode(text.slice(0, colon)), secret: decode(text.slice(colon + 1)) };
  } catch {
    return undefined;
  }
}

function stringOf(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

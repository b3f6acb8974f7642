import { createHmac } from 'node:crypto';

/**
 * The HMAC key of a webhook secret, as Standard Webhooks reads it: for a `whsec_`-prefixed secret the base64-decoded
 * rest, otherwise the secret's UTF-8 bytes.
 */
export function webhookKey(secret: string): Buffer {
  return secret.startsWith('whsec_') ? Buffer.from(secret.slice('whsec_'.length), 'base64') : Buffer.from(secret, 'utf8');
}

/** A `whsec_` secret must carry base64 after its prefix; any other non-empty secret is used as text. */
export function secretProblem(secret: string): string | null {
  if (secret.length < 8) return 'must have at least 8 characters';
  if (!secret.startsWith('whsec_')) return null;
  const rest = secret.slice('whsec_'.length);
  return /^[A-Za-z0-9+/]+={0,2}$/.test(rest) && rest.length % 4 === 0 ? null : 'a whsec_ secret must be followed by base64';
}

/**
 * The `webhook-signature` header of a delivery: `v1,<base64 HMAC-SHA256 of "id.timestamp.body">`, where id is the
 * `webhook-id` header and timestamp the `webhook-timestamp` header (Unix seconds, real time).
 */
export function signWebhook(secret: string, id: string, timestampSeconds: number, body: string): string {
  const mac = createHmac('sha256', webhookKey(secret)).update(`${id}.${timestampSeconds}.${body}`).digest('base64');
  return `v1,${mac}`;
}

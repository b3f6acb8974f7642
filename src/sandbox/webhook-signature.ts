import { createHmac } from 'node:crypto';
import { signStandardWebhook, webhookSecretProblem, webhookSigningKey } from '../domain/webhook-proof.js';

/**
 * The HMAC key the sandbox signs with: for a `whsec_`-prefixed secret the base64-decoded rest, otherwise the secret's
 * UTF-8 bytes.
 */
export function webhookKey(secret: string): Buffer {
  return webhookSigningKey(secret);
}

/**
 * Why the sandbox refuses a subscription secret, or null. Stricter than the receiver on purpose: like a provider, the
 * sandbox asks for at least 8 characters; the `whsec_` rule is the receiver's own.
 */
export function secretProblem(secret: string): string | null {
  if (secret.length < 8) return 'must have at least 8 characters';
  return webhookSecretProblem(secret);
}

/**
 * The `webhook-signature` header of a delivery: `v1,<base64 HMAC-SHA256 of "id.timestamp.body">`, where id is the
 * `webhook-id` header and timestamp the `webhook-timestamp` header (Unix seconds, real time).
 */
export function signWebhook(secret: string, id: string, timestampSeconds: number, body: string): string {
  return signStandardWebhook(secret, id, timestampSeconds, body);
}

/**
 * The `X-Webhook-Signature` of the iso dialect: hex HMAC-SHA256, keyed by the secret's UTF-8 bytes, of
 * "timestamp.nonce.body", where timestamp is the `X-Webhook-Timestamp` header (real ms) and nonce `X-Webhook-Nonce`.
 */
export function signTimestampNonce(secret: string, timestampMs: number, nonce: string, body: string): string {
  return createHmac('sha256', secret).update(`${timestampMs}.${nonce}.${body}`).digest('hex');
}

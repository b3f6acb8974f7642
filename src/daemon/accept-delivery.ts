import { parseWebhookEvent, type EventReading, type WebhookEvent } from '../domain/webhook-event.js';
import { verifyDelivery, type WebhookMethod, type WebhookMethodSetting } from '../domain/webhook-proof.js';

/** Request headers with lower-case names, as node:http gives them (`headersDistinct` or `headers`). */
export type DeliveryHeaders = Readonly<Record<string, string | string[] | undefined>>;

/** One HTTP request to the receiver, as received. */
export interface DeliveryRequest {
  readonly method: string;
  /** The path without its query string. */
  readonly path: string;
  readonly headers: DeliveryHeaders;
  /** The body exactly as received: signatures cover these bytes. */
  readonly body: Buffer;
  /** Clock, ms since the epoch. */
  readonly now: number;
}

/** How deliveries are judged (see ReceiverOptions). */
export interface DeliveryPolicy {
  readonly method: WebhookMethodSetting;
  readonly secret: string;
  readonly header?: string | undefined;
  /** Seconds; default 300. */
  readonly toleranceSeconds?: number | undefined;
  /** Larger bodies are refused with 413. */
  readonly maxBodyBytes: number;
  /** How Pix events are read under the profile (defaults: amounts in centavos, the usual reason fields). */
  readonly reading?: Partial<EventReading> | undefined;
}

/** A refused request: the HTTP status, the reason (counted and logged), and headers of the answer. */
export interface Refusal {
  readonly ok: false;
  readonly status: number;
  readonly reason: string;
  readonly detail?: string;
  readonly headers?: Readonly<Record<string, string>>;
  /** The sender's delivery id, once the delivery is proved authentic (refusals after the proof carry it). */
  readonly deliveryId: string | null;
  /** The method that proved the secret, for refusals after the proof (bad UTF-8, JSON or event shape). */
  readonly proof?: WebhookMethod;
}

/** An authentic delivery of a well-formed event, to be stored. */
export interface Acceptance {
  readonly ok: true;
  readonly event: WebhookEvent;
  readonly deliveryId: string | null;
  /** The method that proved the secret. */
  readonly proof: WebhookMethod;
  /** The delivery id differs from the body's eventId (the eventId is the dedupe key). */
  readonly idMismatch: boolean;
  /** The body as text: the bytes the proof covered, decoded. */
  readonly body: string;
}

export type DeliveryVerdict = Acceptance | Refusal;

const UTF8 = new TextDecoder('utf-8', { fatal: true });

const refusal = (status: number, reason: string, extra: Omit<Refusal, 'ok' | 'status' | 'reason' | 'deliveryId'> & { deliveryId?: string | null } = {}): Refusal => ({
  ok: false,
  status,
  reason,
  deliveryId: null,
  ...extra,
});

/** 413: the connection is closed after it, since the rest of the body is not read. */
export const BODY_TOO_LARGE: Refusal = Object.freeze({ ok: false, status: 413, reason: 'body too large', headers: { connection: 'close' }, deliveryId: null });

/**
 * Whether `method path` is a delivery: only `POST /webhooks` is (404 elsewhere, 405 with Allow for other methods).
 * `/healthz` serves GET and HEAD, which the receiver answers itself before asking this.
 */
export function routeDelivery(method: string, path: string): Refusal | null {
  if (path === '/healthz') return refusal(405, 'method not allowed', { headers: { allow: 'GET, HEAD' } });
  if (path !== '/webhooks') return refusal(404, 'not found');
  if (method !== 'POST') return refusal(405, 'method not allowed', { headers: { allow: 'POST' } });
  return null;
}

/** What the headers alone refuse, before the body is read: the content type (415) and a declared size (413). */
export function checkDeliveryHead(headers: DeliveryHeaders, maxBodyBytes: number): Refusal | null {
  if (!isJsonContentType(first(headers, 'content-type'))) return refusal(415, 'content type must be application/json');
  if (Number(first(headers, 'content-length') ?? 0) > maxBodyBytes) return BODY_TOO_LARGE;
  return null;
}

/**
 * The receiver's verdict on a delivery, in order: route (404/405), content type (415), size (413), proof of the
 * secret on the raw bytes (401, or 400 for unreadable signature headers), UTF-8 (400), JSON (400), event shape (422).
 * Pure: the receiver streams the body and applies the same checks to what it cannot see before reading it.
 */
export function acceptDelivery(req: DeliveryRequest, policy: DeliveryPolicy): DeliveryVerdict {
  return routeDelivery(req.method, req.path) ?? checkDeliveryHead(req.headers, policy.maxBodyBytes) ?? acceptDeliveryBody(req, policy);
}

/** acceptDelivery's checks from the size on, for a receiver that made the route and head checks before reading the body. */
export function acceptDeliveryBody(req: Omit<DeliveryRequest, 'method' | 'path'>, policy: DeliveryPolicy): DeliveryVerdict {
  if (req.body.length > policy.maxBodyBytes) return BODY_TOO_LARGE;

  const verified = verifyDelivery(
    { headers: req.headers, rawBody: req.body, nowSeconds: Math.floor(req.now / 1000) },
    { secret: policy.secret, method: policy.method, header: policy.header, toleranceSeconds: policy.toleranceSeconds },
  );
  if (!verified.ok) return refusal(verified.status, verified.reason);
  const deliveryId = verified.eventId;
  const proof = verified.method;

  // Lossy decoding would turn bytes the sender signed into U+FFFD and parse an event it never sent.
  let text: string;
  try {
    text = UTF8.decode(req.body);
  } catch {
    return refusal(400, 'invalid UTF-8', { deliveryId, proof });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return refusal(400, 'invalid JSON', { deliveryId, proof });
  }
  // 422 rather than 400: the delivery is authentic and well-formed JSON, only its shape is not an event we know.
  const parsed = parseWebhookEvent(json, policy.reading);
  if (!parsed.ok) return refusal(422, 'invalid event', { detail: parsed.reason, deliveryId, proof });
  const event = parsed.event;
  return { ok: true, event, deliveryId, proof, idMismatch: deliveryId !== null && deliveryId !== event.eventId, body: text };
}

function first(headers: DeliveryHeaders, name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/** application/json, with no charset or a UTF-8 one. */
function isJsonContentType(value: string | undefined): boolean {
  if (value === undefined) return false;
  if (value === 'application/json') return true; // what nearly every delivery says
  const [type = '', ...params] = value.split(';');
  if (type.trim().toLowerCase() !== 'application/json') return false;
  return params.every((param) => {
    const [name = '', v = ''] = param.split('=');
    return name.trim().toLowerCase() !== 'charset' || /^"?utf-?8"?$/i.test(v.trim());
  });
}

import { reaisToCents } from './money.js';
import { DEFAULT_REASON_CODE_FIELDS, DEFAULT_REASON_MESSAGE_FIELDS, reasonOf } from './provider-choices.js';
import type { Result } from './result.js';

/**
 * A verified webhook delivery, read into one of the two shapes of SPEC.md: the Pix payment event (envelope
 * `serviceId` + `payload`) or the generic callback. `raw` keeps the parsed body as received.
 */
export type WebhookEvent =
  | {
      kind: 'pix';
      eventId: string;
      /** The payload's `id`: the Pix id of the receipt path. */
      pixId: string;
      /** The item identifier the payment belongs to. */
      identifier: string;
      /** Centavos. */
      amountCents: number;
      endToEndId: string | null;
      isRefund: boolean;
      accepted: boolean;
      transactionStatus: string;
      /** "CODE - description" text for rejections and refunds, as sent. */
      reason: string | null;
      /** Unix seconds. */
      timestamp: number | null;
      /** The payer's balance after this movement, in centavos: only when the event carries a readable one (statements). */
      balanceAfterCents?: number;
      raw: unknown;
    }
  | {
      kind: 'callback';
      eventId: string;
      type: string;
      category: string;
      timestamp: string | null;
      title: string | null;
      detail: Record<string, unknown>;
      raw: unknown;
    };

export type ParseEventResult = { ok: true; event: WebhookEvent } | { ok: false; reason: string };

/** Ids are dedupe keys and log fields: bounded. */
const MAX_ID_LENGTH = 256;

/**
 * Reads a parsed JSON body as a webhook event. A body with a `payload` member is a Pix payment event; any other
 * object is a generic callback. Fields the daemon acts on are checked strictly (an event without eventId or
 * identifier is refused); unknown extra fields are tolerated. `reason` names the field, never its value.
 */
export function parseWebhookEvent(body: unknown, reading: Partial<EventReading> = {}): ParseEventResult {
  if (!isRecord(body)) return fail('body is not a JSON object');
  try {
    const read: EventReading = {
      amountUnit: reading.amountUnit ?? DEFAULT_READING.amountUnit,
      reasonCodeFields: reading.reasonCodeFields ?? DEFAULT_READING.reasonCodeFields,
      reasonMessageFields: reading.reasonMessageFields ?? DEFAULT_READING.reasonMessageFields,
    };
    return { ok: true, event: Object.hasOwn(body, 'payload') ? pixEvent(body, read) : callbackEvent(body) };
  } catch (error) {
    if (error instanceof EventShapeError) return fail(error.message);
    throw error;
  }
}

function pixEvent(body: Record<string, unknown>, reading: EventReading): WebhookEvent {
  optionalServiceId(body, 'serviceId');
  const payload = body['payload'];
  if (!isRecord(payload)) throw new EventShapeError('payload must be an object');
  const amount = eventAmount(payload['amount'], reading.amountUnit);
  // Checked as before for its type; the reason itself may be a code and a text in fields of the provider's own.
  optionalString(payload, 'reason', 'payload.');
  return {
    kind: 'pix',
    eventId: id(payload, 'eventId', 'payload.'),
    pixId: id(payload, 'id', 'payload.'),
    identifier: id(payload, 'identifier', 'payload.'),
    amountCents: amount,
    endToEndId: optionalString(payload, 'endToEndId', 'payload.', MAX_ID_LENGTH),
    isRefund: boolean(payload, 'isRefund', 'payload.'),
    accepted: boolean(payload, 'transactionAccepted', 'payload.'),
    transactionStatus: requiredString(payload, 'transactionStatus', 'payload.'),
    reason: reasonOf(payload, reading.reasonCodeFields, reading.reasonMessageFields) ?? null,
    timestamp: unixSeconds(payload, 'timestamp', 'payload.'),
    ...balanceAfter(payload['balanceAfter'], reading.amountUnit),
    raw: body,
  };
}

/** Informative only: a balance that is absent or unreadable never refuses the event that carries it. */
function balanceAfter(v: unknown, unit: AmountUnit): { balanceAfterCents?: number } {
  if (v === undefined || v === null) return {};
  try {
    return { balanceAfterCents: eventAmount(v, unit) };
  } catch (e) {
    if (e instanceof EventShapeError) return {};
    throw e;
  }
}

function callbackEvent(body: Record<string, unknown>): WebhookEvent {
  optionalServiceId(body, 'serviceId');
  const detail = body['detail'];
  if (detail !== undefined && detail !== null && !isRecord(detail)) throw new EventShapeError('detail must be an object');
  const timestamp = body['timestamp'];
  if (timestamp !== undefined && timestamp !== null && typeof timestamp !== 'string' && typeof timestamp !== 'number') {
    throw new EventShapeError('timestamp must be a string');
  }
  return {
    kind: 'callback',
    eventId: id(body, 'eventId', ''),
    type: requiredString(body, 'type', ''),
    category: requiredString(body, 'category', ''),
    timestamp: timestamp === undefined || timestamp === null ? null : String(timestamp),
    title: optionalString(body, 'title', ''),
    detail: isRecord(detail) ? detail : {},
    raw: body,
  };
}

/** The unit of a Pix event's amount when it is a JSON number or whole text (the `eventAmountUnit` setting). */
export type AmountUnit = 'cents' | 'reais';

/** How Pix events are read under the profile: the amount's unit, where a failure's code and text are. */
export interface EventReading {
  readonly amountUnit: AmountUnit;
  readonly reasonCodeFields: readonly string[];
  readonly reasonMessageFields: readonly string[];
}

const DEFAULT_READING: EventReading = { amountUnit: 'cents', reasonCodeFields: DEFAULT_REASON_CODE_FIELDS, reasonMessageFields: DEFAULT_REASON_MESSAGE_FIELDS };

/**
 * A Pix event's amount in centavos. Text with a decimal point (`"110.07"`, `"110.00"`) is reais whatever the unit:
 * providers that write reais write them so, and a JSON number would have lost `110.00`'s fraction when parsed. A
 * number, or whole text, follows `unit`: centavos (as the documented events were observed) or reais.
 */
function eventAmount(v: unknown, unit: AmountUnit): number {
  if (typeof v === 'string' && /^\s*\d+\.\d+\s*$/.test(v)) return centsOr(reaisToCents(v));
  const n = typeof v === 'string' && /^\s*\d+\s*$/.test(v) ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isFinite(n) || n < 0) throw new EventShapeError('payload.amount must be a non-negative number, or reais as text with a decimal point');
  if (unit === 'reais') return centsOr(reaisToCents(n));
  if (!Number.isSafeInteger(n)) throw new EventShapeError('payload.amount must be a whole number of centavos, unless eventAmountUnit is reais');
  return n;
}

/** Refusals name the field, never its value. */
function centsOr(r: Result<number>): number {
  if (!r.ok) throw new EventShapeError('payload.amount has more than two decimals, or is too large');
  return r.value;
}

class EventShapeError extends Error {}

function fail(reason: string): ParseEventResult {
  return { ok: false, reason };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function id(o: Record<string, unknown>, key: string, at: string): string {
  const value = o[key];
  if (typeof value !== 'string' || value.trim() === '') throw new EventShapeError(`${at}${key} must be a non-empty string`);
  if (value.length > MAX_ID_LENGTH) throw new EventShapeError(`${at}${key} is longer than ${MAX_ID_LENGTH} characters`);
  return value;
}

function requiredString(o: Record<string, unknown>, key: string, at: string): string {
  const value = o[key];
  if (typeof value !== 'string') throw new EventShapeError(`${at}${key} must be a string`);
  return value;
}

/** A string, or null when absent, null or empty. */
function optionalString(o: Record<string, unknown>, key: string, at: string, maxLength = Number.POSITIVE_INFINITY): string | null {
  const value = o[key];
  if (value === undefined || value === null || value === '') return null;
  if (typeof value !== 'string') throw new EventShapeError(`${at}${key} must be a string or null`);
  if (value.length > maxLength) throw new EventShapeError(`${at}${key} is longer than ${maxLength} characters`);
  return value;
}

function boolean(o: Record<string, unknown>, key: string, at: string): boolean {
  const value = o[key];
  if (typeof value !== 'boolean') throw new EventShapeError(`${at}${key} must be a boolean`);
  return value;
}

/** SPEC.md sends Unix seconds as text; a number is read the same way. */
function unixSeconds(o: Record<string, unknown>, key: string, at: string): number | null {
  const value = o[key];
  if (value === undefined || value === null || value === '') return null;
  const seconds = typeof value === 'string' && /^[0-9]{1,12}$/.test(value) ? Number(value) : value;
  if (typeof seconds !== 'number' || !Number.isSafeInteger(seconds) || seconds < 0) {
    throw new EventShapeError(`${at}${key} must be Unix seconds`);
  }
  return seconds;
}

/** Not used by the daemon, but a present serviceId of another type says the body is not what it claims. */
function optionalServiceId(o: Record<string, unknown>, key: string): void {
  const value = o[key];
  if (value !== undefined && value !== null && typeof value !== 'number' && typeof value !== 'string') {
    throw new EventShapeError(`${key} must be a number or a string`);
  }
}

import type { Destination } from '../domain/destination.js';
import type { PixKeyType } from '../domain/pix-key.js';
import { ACCOUNT_KEY_TYPE } from './account-pix.js';
import { destinationForKey } from './key-directory.js';
import { payerOf, serviceIdOf } from './payer.js';
import type { ItemRow } from './pix-store.js';
import { hashUuid } from './random.js';

/** What happened to an item, as one Pix payment event tells it. */
export interface PixOutcome {
  /** `accepted`: taken for processing, not paid yet (only where the dialect tells acceptance). */
  readonly kind: 'accepted' | 'paid' | 'rejected' | 'refund';
  /** The Pix id (the receipt path's pixId): the payment's, or the refund's own. */
  readonly pixId: string;
  readonly eventId: string;
  readonly transactionId: string;
  readonly endToEndId: string;
  /** Why, as the dialect stores it (Dialect.pixReason), for rejections and refunds. */
  readonly reason: string | null;
  readonly balanceAfter: number;
  /** Simulated ms. */
  readonly at: number;
}

/** The words of a Pix payment event that are the dialect's to choose. */
export interface PixEventStyle {
  /**
   * Whether an item entering processing gets its Pix id and end-to-end id at once and is told by an `accepted`
   * event before the final one.
   */
  readonly accepted: boolean;
  title(kind: PixOutcome['kind']): string;
  /** e.g. "R$ 1,00 to Ana Souza"; `payee` is the destination's name. */
  subtitle(kind: PixOutcome['kind'], amountCents: number, payee: string): string;
  /** The `transactionStatus` of each kind. */
  status(kind: PixOutcome['kind']): string;
  /** `amount`, `fee` and `balanceAfter`, from centavos. */
  amount(cents: number): number | string;
  /** The fields that say why, from the stored reason (null for none). */
  reason(stored: string | null): Record<string, unknown>;
  /** Whether the payload carries the sandbox extras `itemId` and `batchId`. */
  readonly extras: boolean;
}

/**
 * The Pix payment event of SPEC.md (envelope `serviceId` + `payload`), times as Unix-seconds text. Payments are
 * `output`/`pix_out` debits; a refund is a new Pix (`isRefund`, `input`/`pix_in`, credit). `to` is the item's payee
 * (payeeOf); words, amounts, reasons and the extras come from the dialect's style.
 */
export function pixEvent(item: ItemRow, outcome: PixOutcome, style: PixEventStyle): { serviceId: number; payload: Record<string, unknown> } {
  const serviceId = serviceIdOf(item.account);
  const to = payeeOf(item);
  const refund = outcome.kind === 'refund';
  const seconds = String(Math.floor(outcome.at / 1000));
  return {
    serviceId,
    payload: {
      id: outcome.pixId,
      eventId: outcome.eventId,
      serviceId,
      transactionId: outcome.transactionId,
      endToEndId: outcome.endToEndId,
      identifier: item.identifier,
      amount: style.amount(item.amount),
      fee: style.amount(0),
      balanceAfter: style.amount(outcome.balanceAfter),
      title: style.title(outcome.kind),
      subtitle: style.subtitle(outcome.kind, item.amount, to.name ?? ''),
      description: item.description,
      timestamp: seconds,
      eventTimestamp: seconds,
      type: refund ? 'input' : 'output',
      category: refund ? 'pix_in' : 'pix_out',
      transactionStatus: style.status(outcome.kind),
      transactionType: refund ? 'credit' : 'debit',
      transactionAccepted: outcome.kind !== 'rejected',
      isRefund: refund,
      from: payerOf(item.account),
      to,
      delayNotify: null,
      deviceType: null,
      txId: null,
      ...style.reason(outcome.reason),
      extraInfo: null,
      ...(style.extras ? { itemId: item.id, batchId: item.batch_id } : {}),
    },
  };
}

/**
 * Who an item pays, as its events and receipts show it: its key's destination in the directory, or for a Pix by
 * account data the `to` as the item gave it (no key).
 */
export function payeeOf(item: Pick<ItemRow, 'key_norm' | 'key_type' | 'to_json'>): Partial<Destination> {
  if (item.key_type === ACCOUNT_KEY_TYPE) return JSON.parse(item.to_json) as Partial<Destination>;
  return destinationForKey(item.key_norm, item.key_type as PixKeyType);
}

/**
 * An end-to-end id in the SPI's format: "E", the payer's ISPB (8), the UTC date and time yyyyMMddHHmm (12), then
 * 11 alphanumerics taken from `unique`.
 */
export function endToEndId(ispb: string, atMs: number, unique: string): string {
  const stamp = new Date(atMs).toISOString().replace(/[-T:]/g, '').slice(0, 12);
  const tail = unique.replace(/[^0-9a-z]/gi, '').slice(0, 11).padEnd(11, '0');
  return `E${ispb}${stamp}${tail}`;
}

/**
 * The transaction id of a Pix whose ids were given when it was accepted: tied to its (unique) Pix id, so the item
 * page, the accepted event and the final event agree without storing it.
 */
export function acceptedTransactionId(pixId: string): string {
  return hashUuid(`transaction:${pixId}`);
}

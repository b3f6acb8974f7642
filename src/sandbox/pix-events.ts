import type { PixKeyType } from '../domain/pix-key.js';
import { destinationForKey } from './key-directory.js';
import { payerOf, serviceIdOf } from './payer.js';
import type { ItemRow } from './pix-store.js';

/** What happened to an item, as one Pix payment event tells it. */
export interface PixOutcome {
  readonly kind: 'paid' | 'rejected' | 'refund';
  /** The Pix id (the receipt path's pixId): the payment's, or the refund's own. */
  readonly pixId: string;
  readonly eventId: string;
  readonly transactionId: string;
  readonly endToEndId: string;
  /** Why, as the dialect words it, for rejections and refunds. */
  readonly reason: string | null;
  readonly balanceAfter: number;
  /** Simulated ms. */
  readonly at: number;
}

/** The words of a Pix payment event that are the dialect's to choose. */
export interface PixEventStyle {
  title(kind: PixOutcome['kind']): string;
  /** e.g. "R$ 1,00 to Ana Souza"; `payee` is the destination's name. */
  subtitle(kind: PixOutcome['kind'], amountCents: number, payee: string): string;
  /** Whether the payload carries the sandbox extras `itemId` and `batchId`. */
  readonly extras: boolean;
}

/**
 * The Pix payment event of SPEC.md (envelope `serviceId` + `payload`), amounts in centavos, times as Unix-seconds
 * text. Payments are `output`/`pix_out` debits; a refund is a new Pix (`isRefund`, `input`/`pix_in`, credit).
 * `to` is the key's destination in the directory; titles and the extras come from the dialect's style.
 */
export function pixEvent(item: ItemRow, outcome: PixOutcome, style: PixEventStyle): { serviceId: number; payload: Record<string, unknown> } {
  const serviceId = serviceIdOf(item.account);
  const to = destinationForKey(item.key_norm, item.key_type as PixKeyType);
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
      amount: item.amount,
      fee: 0,
      balanceAfter: outcome.balanceAfter,
      title: style.title(outcome.kind),
      subtitle: style.subtitle(outcome.kind, item.amount, to.name),
      description: item.description,
      timestamp: seconds,
      eventTimestamp: seconds,
      type: refund ? 'input' : 'output',
      category: refund ? 'pix_in' : 'pix_out',
      transactionStatus: outcome.kind === 'rejected' ? 'rejected' : 'approved',
      transactionType: refund ? 'credit' : 'debit',
      transactionAccepted: outcome.kind !== 'rejected',
      isRefund: refund,
      from: payerOf(item.account),
      to,
      delayNotify: null,
      deviceType: null,
      txId: null,
      reason: outcome.reason,
      extraInfo: null,
      ...(style.extras ? { itemId: item.id, batchId: item.batch_id } : {}),
    },
  };
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

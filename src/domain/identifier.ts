import { createHash } from 'node:crypto';

// paybatch's own UUIDv5 namespace (a random UUID fixed forever: changing it would change every derived identifier).
const PAYBATCH_NAMESPACE = '5f2c7a1e-9d4b-4c0e-8a63-b1f0d2e4c6a8';

/** RFC 9562 UUID version 5 of `name` in `namespace` (paybatch's by default): the same input always gives the same identifier. */
export function uuidV5(name: string, namespace: string = PAYBATCH_NAMESPACE): string {
  const hash = createHash('sha1').update(Buffer.from(namespace.replace(/-/g, ''), 'hex')).update(name, 'utf8').digest();
  const b = hash.subarray(0, 16);
  b[6] = (b[6]! & 0x0f) | 0x50;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const h = b.toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** The idempotency key of a sheet row without its own identifier: from the import (sheet hash) and the row's line. */
export function rowIdentifier(sheetHash: string, line: number): string {
  return uuidV5(`row:${sheetHash}:${line}`);
}

/** The identifier of reprocess attempt `attempt` (2, 3, …) of an item, linked to its original identifier. */
export function reprocessIdentifier(originalIdentifier: string, attempt: number): string {
  return uuidV5(`reprocess:${originalIdentifier}:${attempt}`);
}

/**
 * The idempotency key of a remittance's title: the company's document and the title's "seu número" (the ERP's id),
 * so a title is paid at most once whichever file carries it. Attempt 2, 3, … sends again a title whose earlier
 * attempt the provider's record shows failed or returned.
 */
export function titleIdentifier(companyDocument: string, yourNumber: string, attempt = 1): string {
  return uuidV5(attempt === 1 ? `cnab240:${companyDocument}:${yourNumber}` : `cnab240:${companyDocument}:${yourNumber}:${attempt}`);
}

export { isUuid } from './uuid.js';

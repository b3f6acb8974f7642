import { createHash } from 'node:crypto';

/**
 * The content digest an approval signs: SHA-256 over a canonical text of what the payment will pay, so any change
 * after an approval (an amount, a key, a row added or removed) gives another digest and voids the approval.
 */

/** One payment of a batch as the ledger holds it. */
export interface DigestItem {
  readonly identifier: string;
  readonly key: string;
  /** The document the sheet gave (CPF/CNPJ), or null. */
  readonly document: string | null;
  readonly amountCents: number;
  /** The resolved destination the provider is sent (the account the money goes to), as stored; null before lookup. */
  readonly destination: string | null;
}

/** Text fields may hold `|` (an e-mail key may) or line breaks: escaped so one text reads back one way only. */
const field = (s: string) => s.replace(/[%|\r\n]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/**
 * The canonical text of a batch: `batch <id>`, then one line per item sorted by identifier,
 * `identifier|key|document|amount_cents|sha256(destination)`, then `items <count>` and `total <centavos>`. The
 * destination is in it because it is what the provider pays: a key left alone with its account edited must void an
 * approval too.
 */
export function batchCanonicalText(batchId: number, items: readonly DigestItem[]): string {
  const sorted = [...items].sort((a, b) => (a.identifier < b.identifier ? -1 : a.identifier > b.identifier ? 1 : 0));
  const lines = sorted.map((it) =>
    [field(it.identifier), field(it.key), field(it.document ?? ''), String(it.amountCents), it.destination === null ? '' : sha256(it.destination)].join('|'),
  );
  const total = items.reduce((sum, it) => sum + it.amountCents, 0);
  return [`batch ${batchId}`, ...lines, `items ${items.length}`, `total ${total}`].join('\n') + '\n';
}

/** The content digest of a batch: SHA-256 hex of its canonical text. */
export function batchDigest(batchId: number, items: readonly DigestItem[]): string {
  return sha256(batchCanonicalText(batchId, items));
}

/**
 * The content digest of a bill's next payment: its digit line, the amount to pay in centavos, its due date (or `-`)
 * and which payment of that line it is (1 for the first, 2 once the ledger holds one attempt, …). The attempt makes
 * an approval good for one payment: paying the same bill again (`--force`, or after a failure) needs a new one.
 */
export function billDigest(line: string, amountCents: number, dueDate: string | null, attempt: number): string {
  return sha256(`bill ${line}\namount ${amountCents}\ndue ${dueDate ?? '-'}\nattempt ${attempt}\n`);
}

/** What an approval is about: `batch:<local id>` or `bill:<digit line>`. */
export const batchSubject = (batchId: number) => `batch:${batchId}`;
export const billSubject = (line: string) => `bill:${line}`;

/** The exact bytes an approver signs: a version tag, the subject and the digest, one per line. */
export function approvalMessage(subject: string, digest: string): Buffer {
  return Buffer.from(`paybatch-approval-v1\n${subject}\n${digest}`, 'utf8');
}

/** The exact bytes a maker signs: another version tag than an approval's, so neither signature passes for the other. */
export function makerMessage(subject: string, digest: string): Buffer {
  return Buffer.from(`paybatch-maker-v1\n${subject}\n${digest}`, 'utf8');
}

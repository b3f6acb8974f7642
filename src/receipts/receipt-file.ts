import { join } from 'node:path';
import { writePrivateFile } from '../private-files.js';

/** A file-name-safe form of a name: no accents, no path separators, no control characters, bounded length. */
export function fileSafe(name: string, max = 60): string {
  const safe = name
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^[-.]+|[-.]+$/g, '');
  return safe.slice(0, max) || 'unnamed';
}

/** True when the bytes look like a whole PDF: the header at the start and an end-of-file marker near the end. */
export function looksLikePdf(bytes: Uint8Array): boolean {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return buf.subarray(0, 5).toString('latin1') === '%PDF-' && buf.subarray(Math.max(0, buf.length - 1024)).toString('latin1').includes('%%EOF');
}

/** `<receiptsDir>/<batch name>/<row>-<recipient>-<endToEndId>.pdf`, each part made file-name safe. */
export async function writePixReceipt(
  receiptsDir: string,
  o: { batchName: string; row: number; recipient: string | null; endToEndId: string | null; pdf: Uint8Array },
): Promise<string> {
  const path = join(receiptsDir, fileSafe(o.batchName), `${o.row}-${fileSafe(o.recipient ?? 'recipient', 40)}-${fileSafe(o.endToEndId ?? 'no-e2e', 40)}.pdf`);
  // Private (0600 in 0700 folders): a receipt names the recipient, their document and the amount.
  await writePrivateFile(path, o.pdf);
  return path;
}

import { createHash } from 'node:crypto';
import { basename, join, resolve } from 'node:path';
import { isPostgresUrl, shownUrl } from '../domain/ledger-location.js';
import { fileSafe } from './receipt-file.js';

/**
 * The receipts folder of one profile, or of one ledger given explicitly (`--ledger`), under the `receiptsDir`
 * setting: `<receiptsDir>/<profile>/`, or `<receiptsDir>/<profile>--<ledger name>-<8 hex of its path>/`. Sandbox
 * rehearsals, real payments and other ledgers never share a folder: batch folders are named by the batch, and two
 * ledgers have batches of the same name. The hash keeps apart ledgers of the same file name in different folders;
 * `--` cannot occur in a profile's folder (fileSafe collapses dashes), so no profile's folder is a ledger's.
 * Receipts written before keep their place: each item and bill records its own path.
 */
export function receiptsFolder(receiptsDir: string, o: { profile: string; ledgerFile?: string }): string {
  const profile = fileSafe(o.profile, 40);
  if (o.ledgerFile === undefined) return join(receiptsDir, profile);
  const path = isPostgresUrl(o.ledgerFile) ? shownUrl(o.ledgerFile) : resolve(o.ledgerFile);
  const hash = createHash('sha256').update(path).digest('hex').slice(0, 8);
  return join(receiptsDir, `${profile}--${fileSafe(basename(path).replace(/\.db$/i, ''), 40)}-${hash}`);
}

import { billDocumentWriter } from '../../src/receipts/bill-receipt.js';

/** A follow-up's receipts folder, with the bills' documents written there in English (as the daemon's edge binds them). */
export function receiptsIn(dir: string, sandbox = true) {
  return { receiptsDir: dir, billDocuments: billDocumentWriter({ receiptsDir: dir, locale: 'en', sandbox }) };
}

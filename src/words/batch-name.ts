import type { Locale } from './locale.js';
import { localDay } from './local-time.js';

/** The name the engine stores for a batch of new attempts (kind `reprocess`), its São Paulo day: `Reprocess 2026-11-27`. */
const REPROCESS_NAME = /^Reprocess (\d{4}-\d{2}-\d{2})$/;
/** The name `batch retry` stores: the source batch's name, then its São Paulo day: `Folha nov retry 2026-11-28`. */
const RETRY_NAME = /^(.*) retry (\d{4}-\d{2}-\d{2})$/;

/**
 * A batch's name as people read it. A sheet's batch keeps the name it was given; the batches paybatch names itself —
 * one that pays again what Pix instability returned (kind `reprocess`), one `batch retry` made — are said for their
 * São Paulo day in the locale's words: "Reprocessamento 27/11/2026", "Folha nov — nova tentativa 28/11/2026".
 * `--json` and the provider keep the stored name.
 */
export function batchName(b: { readonly kind: string; readonly name: string }, locale: Locale): string {
  if (locale === 'en') return b.name;
  const reprocess = b.kind === 'reprocess' ? REPROCESS_NAME.exec(b.name) : null;
  if (reprocess) return `Reprocessamento ${localDay(reprocess[1]!, locale)}`;
  const retry = b.kind === 'sheet' ? RETRY_NAME.exec(b.name) : null;
  if (retry) return `${batchName({ kind: b.kind, name: retry[1]! }, locale)} — nova tentativa ${localDay(retry[2]!, locale)}`;
  return b.name;
}

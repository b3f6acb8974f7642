import type { Locale } from './locale.js';
import { localDay } from './local-time.js';

/** The name the engine stores for a batch of new attempts (kind `reprocess`), its São Paulo day: `Reprocess 2026-11-27`. */
const REPROCESS_NAME = /^Reprocess (\d{4}-\d{2}-\d{2})$/;

/**
 * A batch's name as people read it. A sheet's batch keeps the name it was given; a batch paybatch made itself to pay
 * again what Pix instability returned (kind `reprocess`) is named for its São Paulo day in the locale's words:
 * "Reprocessamento 27/11/2026", "Reprocess 2026-11-27". `--json` keeps the stored name.
 */
export function batchName(b: { readonly kind: string; readonly name: string }, locale: Locale): string {
  const day = b.kind === 'reprocess' ? REPROCESS_NAME.exec(b.name)?.[1] : undefined;
  if (day === undefined) return b.name;
  return locale === 'pt-BR' ? `Reprocessamento ${localDay(day, locale)}` : `Reprocess ${day}`;
}

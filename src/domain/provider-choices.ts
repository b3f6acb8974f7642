/**
 * The values of the provider profile's settings (see provider/dialect.ts for what each one decides), and the parsing
 * of its list settings. Kept here, below config/ and provider/, because both read them.
 */
import type { ItemState } from './item-state.js';
import { normaliseWord } from './provider-words.js';
import { fail, ok, type Result } from './result.js';

/** Unit of Pix item amounts on the wire: centavos (`1050`) or reais (`10.50`). */
export type PixAmountUnit = 'cents' | 'reais';
/** How the client authenticates at the OAuth token endpoint (RFC 6749 §2.3.1): HTTP Basic, form fields, or try both. */
export type TokenAuth = 'auto' | 'basic' | 'body';
/** Method of the bill details query, which the provider's documentation gives both ways. */
export type BillDetailsMethod = 'auto' | 'POST' | 'GET';
/** How a bill payment's amount is written: a JSON number (`123.45`) or a quoted one (`"123.45"`). */
export type BillAmountForm = 'number' | 'string';

/**
 * Item fields that may carry the Pix id of the receipt path, in the order they are tried. Never `transactionId` (the
 * documented API names it as a field apart from the Pix id) nor `id` (often the item's own): a receipt asked for by
 * the wrong id is a 404 for every item; a provider that does use such a field pins it in `pixIdFields`.
 */
export const DEFAULT_PIX_ID_FIELDS: readonly string[] = Object.freeze(['pixId', 'pix_id', 'idPix', 'pixTransactionId']);

const MAPPABLE: readonly ItemState[] = ['submitted', 'processing', 'paid', 'failed', 'returned'];

/** `EM_PROCESSAMENTO=processing, LIQUIDATED=paid` → normalised word → state; the error names the pair at fault. */
export function parseStatusWords(text: string): Result<Record<string, ItemState>> {
  const map: Record<string, ItemState> = {};
  for (const pair of parseList(text)) {
    const eq = pair.lastIndexOf('=');
    const word = eq > 0 ? normaliseWord(pair.slice(0, eq)) : '';
    const state = pair.slice(eq + 1).trim().toLowerCase() as ItemState;
    if (word === '') return fail(`"${pair}" must be WORD=state`);
    if (!MAPPABLE.includes(state)) return fail(`"${pair}": the state must be one of ${MAPPABLE.join(', ')}`);
    map[word] = state;
  }
  return ok(map);
}

/** A comma-separated list, trimmed, without empty entries. */
export function parseList(text: string): string[] {
  return text
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

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

/** Fields that may carry a failure's or return's code (ISO 20022: AB03, AC06, …) apart from its text, in order. */
export const DEFAULT_REASON_CODE_FIELDS: readonly string[] = Object.freeze(['errorCode', 'reasonCode', 'error_code', 'reason_code', 'code']);
/** Fields that may carry a failure's or return's text, in order. */
export const DEFAULT_REASON_MESSAGE_FIELDS: readonly string[] = Object.freeze(['reason', 'errorMessage', 'reasonMessage', 'error_message', 'reason_message', 'message']);

/**
 * The reason of a failure or return wherever the provider puts it: a code field and a text field together read
 * "AB03 - Settlement interrupted" (the form the return rules read codes in), either alone as it is; undefined when
 * neither holds text.
 */
export function reasonOf(o: Readonly<Record<string, unknown>>, codeFields: readonly string[], messageFields: readonly string[]): string | undefined {
  const first = (fields: readonly string[]) => {
    for (const f of fields) {
      const v = o[f];
      if (typeof v === 'string' && v.trim() !== '') return v.trim();
    }
    return undefined;
  };
  const code = first(codeFields);
  const message = first(messageFields);
  if (code === undefined || message === undefined) return code ?? message;
  return message.toUpperCase().includes(code.toUpperCase()) ? message : `${code} - ${message}`;
}

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

/**
 * The words providers use for the status of a payment item (SPEC.md shows only `waiting`), read into paybatch's item
 * states. Providers write them in upper case with underscores, camel case, Portuguese with or without accents, or
 * as a numeric code followed by a name (PROVIDERS.md, "Status words of an outgoing Pix").
 */
import type { ItemState } from './item-state.js';

/** The item states a provider's status word can mean (the others are paybatch's own). */
export type ProviderItemState = Extract<ItemState, 'submitted' | 'processing' | 'paid' | 'failed' | 'returned'>;

/** The default meaning of provider status words, by state, each word in `normaliseWord` form. For docs and tests. */
export const DEFAULT_STATUS_WORDS: Readonly<Record<ProviderItemState, readonly string[]>> = Object.freeze({
  submitted: Object.freeze([
    'waiting', 'pending', 'created', 'queued', 'scheduled', 'agendado', 'agendada', 'aguardando', 'pendente', 'ativa',
    'em_espera',
  ]),
  processing: Object.freeze([
    'processing', 'in_progress', 'in_process', 'em_processamento', 'processando', 'em_andamento', 'authorized', 'sending',
  ]),
  paid: Object.freeze([
    'approved', 'paid', 'settled', 'success', 'successful', 'completed', 'done', 'executed', 'liquidated', 'realizado',
    'realizada', 'concluido', 'concluida', 'pago', 'paga', 'aprovado', 'aprovada', 'liquidado', 'liquidada', 'efetivado',
    'efetuado', 'confirmed', 'payment_confirmed',
  ]),
  failed: Object.freeze([
    'rejected', 'failed', 'denied', 'refused', 'error', 'canceled', 'cancelled', 'expired', 'nao_realizado',
    'nao_realizada', 'recusado', 'recusada', 'rejeitado', 'rejeitada', 'falhou', 'cancelado', 'cancelada', 'expirado',
    'aborted', 'not_finished', 'removida_pelo_psp',
  ]),
  returned: Object.freeze([
    'refunded', 'returned', 'reversed', 'devolvido', 'devolvida', 'estornado', 'estornada', 'chargeback',
    'charged_back', 'partially_refunded', 'devolucao',
  ]),
});

/**
 * The words of a text: accents removed, lower case, camel case split ("PaymentConfirmed" → payment, confirmed;
 * "SPITimeout" → spi, timeout), every run of characters other than ASCII letters and digits a boundary.
 */
export function splitWords(text: string): string[] {
  return text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z])([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w !== '');
}

/**
 * A status word in canonical form: its words (see `splitWords`) joined by `_`, without a leading numeric code
 * ("2 - PaymentConfirmed" → `payment_confirmed`; "EM PROCESSAMENTO" → `em_processamento`; "Não realizado" →
 * `nao_realizado`). A code with no name after it stays ("2" → `2`); an empty word gives "".
 */
export function normaliseWord(word: string): string {
  const words = splitWords(word);
  const named = words.length > 1 && /^\d+$/.test(words[0] ?? '') ? words.slice(1) : words;
  return named.join('_');
}

/** The lookup key of a word: its normal form without separators, so `in_progress` and `INPROGRESS` meet. */
function keyOf(word: string): string {
  return normaliseWord(word).replaceAll('_', '');
}

/** Made on first use: normalising every word at load cost each start that loads this module, most never look one up. */
let defaultByKey: ReadonlyMap<string, ProviderItemState> | undefined;
const defaultStateOf = (key: string): ProviderItemState | undefined =>
  (defaultByKey ??= new Map(Object.entries(DEFAULT_STATUS_WORDS).flatMap(([state, list]) => list.map((w) => [keyOf(w), state as ProviderItemState] as const)))).get(key);

/**
 * The item state a provider's status word means, or null when unknown. Case, accents, surrounding spaces, `_`, `-`
 * and spaces (or none) between words, camel case and a leading numeric code ("2 PaymentConfirmed") do not matter.
 * `overrides` (from the user's settings; keys in any of those forms) win over `DEFAULT_STATUS_WORDS`.
 */
export function itemStateFromWord(word: string, overrides: Readonly<Record<string, ItemState>> = {}): ItemState | null {
  const key = keyOf(word);
  if (key === '') return null;
  const override = Object.entries(overrides).find(([k]) => keyOf(k) === key);
  return override?.[1] ?? defaultStateOf(key) ?? null;
}

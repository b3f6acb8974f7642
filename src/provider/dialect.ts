/**
 * The provider profile: every choice the provider's API documentation leaves open, in one place. Each has a lenient
 * default that recognises the common choices of real providers without configuration, and a profile setting that
 * pins it once `paybatch provider check` has told which one the provider makes (docs/provider.md).
 *
 * Choices of the webhook receiver (how a delivery proves the secret) live with the other delivery rules in
 * `domain/webhook-proof.ts`; how callbacks are read, in `domain/callback-classifier.ts`; status words and dates, in
 * `domain/provider-words.ts` and `domain/provider-dates.ts`.
 */
import type { ItemState } from '../domain/item-state.js';
import {
  DEFAULT_PIX_ID_FIELDS,
  DEFAULT_REASON_CODE_FIELDS,
  DEFAULT_REASON_MESSAGE_FIELDS,
  parseList,
  parseStatusWords,
  type BillAmountForm,
  type BillDetailsMethod,
  type PixAmountUnit,
  type TokenAuth,
} from '../domain/provider-choices.js';
import { centsToReais } from '../domain/money.js';
import { itemStateFromWord } from '../domain/provider-words.js';

export type { BillAmountForm, BillDetailsMethod, PixAmountUnit, TokenAuth };

export interface ProviderDialect {
  /** `auto`: HTTP Basic first; on `invalid_client` the form body once, and whichever worked from then on. */
  readonly tokenAuth: TokenAuth;
  /** Null: not set, and money does not move (pages are read in centavos, as earlier versions sent them). */
  readonly pixAmountUnit: PixAmountUnit | null;
  /** Null: not set, and no bill is paid (amounts are read in reais, checked against each bill's own code). */
  readonly billAmountUnit: PixAmountUnit | null;
  /** Item status words beyond the default table (normalised word → state); they win over the table. */
  readonly statusWords: Readonly<Record<string, ItemState>>;
  /** Item fields that may carry the Pix id of the receipt path, tried in order. */
  readonly pixIdFields: readonly string[];
  /** Item and event fields that may carry a failure's code (ISO 20022) and its text, tried in order. */
  readonly reasonCodeFields: readonly string[];
  readonly reasonMessageFields: readonly string[];
  /** `auto`: POST, then GET when the provider does not serve POST; the method that worked is kept. */
  readonly billDetailsMethod: BillDetailsMethod;
  readonly billAmountForm: BillAmountForm;
  /** Words that mark a return as caused by instability of the Pix scheme, beyond the built-in ones. */
  readonly instabilityWords: readonly string[];
}

export const DEFAULT_DIALECT: ProviderDialect = Object.freeze({
  tokenAuth: 'auto',
  pixAmountUnit: null,
  billAmountUnit: null,
  statusWords: Object.freeze({}),
  pixIdFields: DEFAULT_PIX_ID_FIELDS,
  reasonCodeFields: DEFAULT_REASON_CODE_FIELDS,
  reasonMessageFields: DEFAULT_REASON_MESSAGE_FIELDS,
  billDetailsMethod: 'auto',
  billAmountForm: 'number',
  instabilityWords: Object.freeze([]),
});

/** The profile's text settings as a dialect; the texts were checked when they were set (`parseStatusWords`, `parseList`). */
export function dialectOf(s: {
  readonly tokenAuth?: TokenAuth;
  readonly pixAmountUnit?: PixAmountUnit;
  readonly billAmountUnit?: PixAmountUnit;
  readonly statusWords?: string;
  readonly pixIdFields?: string;
  readonly reasonCodeFields?: string;
  readonly reasonMessageFields?: string;
  readonly billDetailsMethod?: BillDetailsMethod;
  readonly billAmountForm?: BillAmountForm;
  readonly instabilityWords?: string;
}): ProviderDialect {
  const words = s.statusWords === undefined ? null : parseStatusWords(s.statusWords);
  return {
    tokenAuth: s.tokenAuth ?? DEFAULT_DIALECT.tokenAuth,
    pixAmountUnit: s.pixAmountUnit ?? null,
    billAmountUnit: s.billAmountUnit ?? null,
    statusWords: words?.ok ? words.value : DEFAULT_DIALECT.statusWords,
    pixIdFields: s.pixIdFields === undefined ? DEFAULT_PIX_ID_FIELDS : parseList(s.pixIdFields),
    reasonCodeFields: s.reasonCodeFields === undefined ? DEFAULT_REASON_CODE_FIELDS : parseList(s.reasonCodeFields),
    reasonMessageFields: s.reasonMessageFields === undefined ? DEFAULT_REASON_MESSAGE_FIELDS : parseList(s.reasonMessageFields),
    billDetailsMethod: s.billDetailsMethod ?? DEFAULT_DIALECT.billDetailsMethod,
    billAmountForm: s.billAmountForm ?? DEFAULT_DIALECT.billAmountForm,
    instabilityWords: s.instabilityWords === undefined ? DEFAULT_DIALECT.instabilityWords : parseList(s.instabilityWords),
  };
}

/** The ledger state a provider's item status word stands for under this dialect; null for a word nobody knows. */
export function itemStateOf(dialect: ProviderDialect, word: string): ItemState | null {
  return itemStateFromWord(word, dialect.statusWords);
}

/** The first of `fields` that holds a non-empty string or number in `o`, as text; undefined when none does. */
export function firstField(o: Readonly<Record<string, unknown>>, fields: readonly string[]): string | undefined {
  for (const f of fields) {
    const v = o[f];
    if (typeof v === 'string' && v.trim() !== '') return v.trim();
    if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  }
  return undefined;
}

/** An item's `amount` as it goes on the wire in `unit`: whole centavos (1107) or reais (11.07). */
export function wireItemAmount(cents: number, unit: PixAmountUnit): number {
  return unit === 'cents' ? cents : centsToReais(cents);
}

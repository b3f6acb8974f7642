import { setTimeout as delay } from 'node:timers/promises';
import { isAccountDestination } from '../domain/account-destination.js';
import { formatReais } from '../domain/money.js';
import { ConfigError, ProviderError, type ProviderUrlProblem } from '../errors.js';
import {
  decodeAddedItems,
  decodeBatch,
  decodeBillDetails,
  decodeBillPayment,
  decodeDestination,
  decodeItem,
  decodePage,
  decodeReceipt,
  decodeStartResult,
  type ItemReading,
} from './decode.js';
import { ApiCalls, buildPath, withNote } from './api-calls.js';
import { DEFAULT_TIMEOUTS, HttpTransport } from './http-transport.js';
import { mayBeWrongMethod } from './error-meaning.js';
import { DEFAULT_DIALECT, itemStateOf, wireItemAmount, type PixAmountUnit, type ProviderDialect } from './dialect.js';
import { cursorPages } from './pages.js';
import { Redactor } from './redact.js';
import { proxySecrets } from '../network/proxy-rules.js';
import { isRetryableStatus, resolveRetrySettings, retrying, type RetryLoopOptions } from './retry-policy.js';
import { TokenSource } from './token-source.js';
import type {
  Batch,
  BillDetails,
  BillPayment,
  Destination,
  Item,
  NewItem,
  ProviderClientOptions,
  ProviderEvent,
  Receipt,
  StartResult,
  WireNewItem,
  WirePage,
} from './types.js';

export type { ProviderClientOptions, ProviderEvent } from './types.js';

const DEFAULT_CONNECTIONS = 8;
const DEFAULT_MAX_RESPONSE_BYTES = 32 * 1024 * 1024;

/**
 * The typed client of the provider API (SPEC.md endpoints 1–14): one method per endpoint, over ApiCalls (api-calls.ts:
 * authentication, the 401 refresh, retries and error mapping). Every failure is a ProviderError, and no secret (API
 * key, client secret, access token, webhook secret) ever appears in an error, an event or this object's inspection.
 * Amounts are centavos on the paybatch side.
 */
export class ProviderClient {
  readonly #dialect: ProviderDialect;
  readonly #reading: ItemReading;
  readonly #onEvent: ((e: ProviderEvent) => void) | undefined;
  readonly #redactor = new Redactor();
  readonly #transport: HttpTransport;
  readonly #tokens: TokenSource;
  readonly #api: ApiCalls;
  /** The client's retry loop settings; a call that gives up says why in its error. */
  readonly #retryLoop: RetryLoopOptions;
  /** Method the bill details query is served with: pinned by the dialect, or learnt from the first answer; null until then. */
  #detailsMethod: 'POST' | 'GET' | null;

  constructor(o: ProviderClientOptions) {
    const base = parseUrl(o.baseUrl, 'baseUrl');
    const tokenUrl = parseUrl(o.tokenUrl, 'tokenUrl');
    for (const [name, setting, v] of [['API key', 'apiKey', o.apiKey], ['OAuth client id', 'clientId', o.clientId], ['OAuth client secret', 'clientSecret', o.clientSecret]] as const) {
      if (typeof v !== 'string' || v === '') throw new ConfigError(`The provider ${name} is empty.`, { reason: { code: 'setting_invalid', setting, rule: 'not_empty', values: '' } });
    }
    const dialect: ProviderDialect = {
      ...DEFAULT_DIALECT,
      ...o.dialect,
      ...(o.pixAmountUnit === undefined ? {} : { pixAmountUnit: o.pixAmountUnit }),
      ...(o.billAmountUnit === undefined ? {} : { billAmountUnit: o.billAmountUnit }),
    };
    for (const setting of ['pixAmountUnit', 'billAmountUnit'] as const) {
      const unit = dialect[setting];
      if (unit !== null && unit !== 'cents' && unit !== 'reais') {
        throw new ConfigError(`${setting} must be "cents" or "reais", not "${String(unit)}".`, { reason: { code: 'setting_invalid', setting, rule: 'one_of', values: 'cents, reais' } });
      }
    }
    this.#dialect = dialect;
    // Pages are read in centavos while the unit is unset: what earlier versions sent, for batches they started.
    this.#reading = { unit: dialect.pixAmountUnit ?? 'cents', pixIdFields: dialect.pixIdFields, reasonCodeFields: dialect.reasonCodeFields, reasonMessageFields: dialect.reasonMessageFields, stateOf: (word) => itemStateOf(dialect, word) };
    this.#detailsMethod = dialect.billDetailsMethod === 'auto' ? null : dialect.billDetailsMethod;
    const retry = resolveRetrySettings(o.retry);
    const random = o.random ?? Math.random;
    const sleep = o.sleep ?? ((ms: number) => delay(ms));
    const now = o.now ?? Date.now;
    const userAgent = o.userAgent ?? 'paybatch';
    const emit = (e: ProviderEvent) => this.#emit(e);
    this.#onEvent = o.onEvent;
    this.#retryLoop = { settings: retry, random, sleep, giveUp: (e, why) => (e instanceof ProviderError ? withNote(e, why) : e) };
    this.#redactor.add(o.apiKey);
    this.#redactor.add(o.clientSecret);
    for (const secret of o.reach ? proxySecrets(o.reach.proxy) : []) this.#redactor.add(secret);
    this.#transport = new HttpTransport({
      timeouts: { ...DEFAULT_TIMEOUTS, ...definedOnly(o.timeouts ?? {}) },
      connections: o.connections ?? DEFAULT_CONNECTIONS,
      maxResponseBytes: o.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
      redactor: this.#redactor,
      reach: o.reach ?? { tls: null, proxy: { env: {} } },
    });
    this.#tokens = new TokenSource({
      transport: this.#transport,
      redactor: this.#redactor,
      tokenUrl,
      clientId: o.clientId,
      clientSecret: o.clientSecret,
      ...(o.scope === undefined ? {} : { scope: o.scope }),
      auth: dialect.tokenAuth,
      // The API key goes to the token endpoint only when it belongs to the API's own origin: never to a third party.
      extraHeaders: tokenUrl.origin === base.origin ? { 'service-apikey': o.apiKey } : {},
      userAgent,
      retry,
      random,
      sleep,
      now,
      emit,
    });
    this.#api = new ApiCalls({
      origin: base.origin,
      basePath: base.pathname.replace(/\/+$/, ''),
      apiKey: o.apiKey,
      userAgent,
      transport: this.#transport,
      tokens: this.#tokens,
      redactor: this.#redactor,
      retryLoop: this.#retryLoop,
      now,
      emit,
    });
  }

  /** The profile's dialect in force. */
  get dialect(): ProviderDialect {
    return this.#dialect;
  }

  /** What was learnt of the provider's open choices so far (for `provider check`): null where nothing was tried yet. */
  learnt(): { tokenAuth: 'basic' | 'body' | null; billDetailsMethod: 'POST' | 'GET' | null } {
    return { tokenAuth: this.#tokens.method, billDetailsMethod: this.#detailsMethod };
  }

  /** Gets an access token (learning how the token endpoint wants the client authenticated); calls nothing else. */
  /** Whether the provider answered the last call, none waiting `withinMs` for its answer (see ApiCalls.answering). */
  answering(withinMs: number): boolean {
    return this.#api.answering(withinMs);
  }

  async authenticate(): Promise<'basic' | 'body'> {
    await this.#tokens.get();
    return this.#tokens.method ?? 'basic';
  }

  /** Creates a batch (endpoint 1) with one POST, never retried: a lost answer could hide a created batch. */
  async createBatch(name: string): Promise<Batch> {
    const { res, path } = await this.#api.call({ method: 'POST', segments: ['pix', 'batch'], body: JSON.stringify({ name }), mode: 'once' });
    return this.#api.decode(res, 'POST', path, true, decodeBatch);
  }

  /**
   * The batch named exactly `name`, creating it only when the provider has none. Walks the batch pages first; after a
   * create that failed with an unknown outcome or a retryable status, walks them again before another POST, so a
   * batch created by a lost request is found instead of duplicated. `name` should carry `[pb:<local id>]`.
   */
  async ensureBatch(name: string): Promise<{ batch: Batch; created: boolean }> {
    return retrying(
      async ({ retryable }) => {
        const found = await this.findBatchByName(name);
        if (found) return { batch: found, created: false };
        let batch: Batch;
        try {
          batch = await this.createBatch(name);
        } catch (e) {
          // Only the create is retried here; a failed lookup (after its own retries) ends the call.
          if (e instanceof ProviderError && (e.outcomeUnknown || e.status === null || isRetryableStatus(e.status))) {
            throw retryable(e, { retryAfterMs: this.#api.retryAfterOf(e), reason: `${e.code ?? `HTTP ${e.status}`}; looking for the batch by name first` });
          }
          throw e;
        }
        if (batch.name !== name) {
          this.#emit({ type: 'warning', message: `the provider stored batch ${batch.id} under another name than the one sent; it cannot be found by name after an interruption` });
        }
        return { batch, created: true };
      },
      {
        ...this.#retryLoop,
        onRetry: ({ attempt, delayMs, reason, error }) => {
          if (error instanceof ProviderError) this.#emit({ type: 'retry', method: 'POST', path: error.path, attempt, delayMs, reason });
        },
      },
    );
  }

  /**
   * The batch whose name is exactly `name`, walking every page (endpoints 7 and 8); null when there is none.
   * When several match (duplicates made before paybatch guarded against them), the oldest is returned and a warning
   * event is emitted.
   */
  async findBatchByName(name: string): Promise<Batch | null> {
    const matches: Batch[] = [];
    for await (const page of this.batches()) for (const b of page) if (b.name === name) matches.push(b);
    if (matches.length > 1) {
      this.#emit({ type: 'warning', message: `${matches.length} remote batches share one name (${matches.map((b) => b.id).join(', ')}); using the oldest` });
      matches.sort((a, b) => a.timestamp - b.timestamp || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    }
    return matches[0] ?? null;
  }

  /** Looks up a Pix key (endpoint 2): its destination, or null when the provider answers 404. A 400 is a ProviderError. */
  async lookupKey(key: string): Promise<Destination | null> {
    const { res, path } = await this.#api.call({ method: 'GET', segments: ['pix', 'keys', key], mode: 'repeatable', accept: [404] });
    if (res.status === 404) return null;
    return this.#api.decode(res, 'GET', path, false, (v) => decodeDestination(v));
  }

  /**
   * Adds items to a pending batch (endpoint 3), amounts in centavos (sent in the profile's `pixAmountUnit`). Retried
   * with the very same body, since the provider treats each identifier as an idempotency key; a 409 (an identifier
   * already held with other data) is surfaced, never retried. Each returned item's amount is checked against what was
   * sent for its identifier, which catches a wrong unit before the batch is started.
   */
  async addItems(batchId: string, items: readonly NewItem[]): Promise<Item[]> {
    if (items.length === 0) return [];
    const unit = this.#unitToSend();
    const sent = new Map<string, number>();
    const wire: WireNewItem[] = items.map((it, i) => {
      if (!Number.isSafeInteger(it.amountCents) || it.amountCents <= 0) throw new RangeError(`items[${i}].amountCents must be a positive whole number of centavos`);
      if (typeof it.identifier !== 'string' || it.identifier === '') throw new RangeError(`items[${i}].identifier is empty`);
      if (sent.has(it.identifier)) throw new RangeError(`items[${i}].identifier ${it.identifier} appears twice in one call`);
      sent.set(it.identifier, it.amountCents);
      const amount = wireItemAmount(it.amountCents, unit);
      return { amount, identifier: it.identifier, description: it.description, to: wireDestination(it.to) };
    });
    // Serialised once: every attempt sends byte for byte the same body.
    const body = JSON.stringify(wire);
    const { res, path } = await this.#api.call({ method: 'POST', segments: ['pix', 'batch', batchId, 'items'], body, mode: 'repeatable' });
    const added = this.#api.decode(res, 'POST', path, true, (v) => decodeAddedItems(v, this.#reading));
    for (const item of added) {
      const expected = sent.get(item.identifier);
      if (expected !== undefined && expected !== item.amountCents) {
        throw new ProviderError(
          `POST ${path}: the provider holds item ${item.identifier} with amount ${formatReais(item.amountCents)} (read as ${unit}), but ${formatReais(expected)} was sent`,
          {
            status: res.status, method: 'POST', path, code: 'amount_mismatch', body: null,
            hint: `Do not start this batch. Check the profile's pixAmountUnit (now "${unit}") against the provider's documentation.`,
          },
        );
      }
    }
    return added;
  }

  /** Deletes an item of a pending batch (endpoint 4). A 404 after an attempt with an unknown outcome counts as done. */
  async deleteItem(batchId: string, itemId: string): Promise<void> {
    await this.#api.call({ method: 'DELETE', segments: ['pix', 'batch', batchId, 'items', itemId], mode: 'repeatable', deleteSemantics: true });
  }

  /** Refuses (ConfigError naming `pixAmountUnit`) while the unit Pix amounts go out in is not set: before anything is written. */
  requirePixAmountUnit(): void {
    this.#unitToSend();
  }

  /**
   * The unit Pix amounts go out in. The documented API does not say whether an item's `amount` is centavos or reais,
   * and providers differ: a wrong guess pays 100 times too much or too little, and the provider's echo of the amount
   * cannot tell (it is read back in the same unit). So money moves only once the profile sets it.
   */
  #unitToSend(): PixAmountUnit {
    if (this.#dialect.pixAmountUnit !== null) return this.#dialect.pixAmountUnit;
    throw new ConfigError("The unit of this provider's Pix amounts is not set, and paybatch does not guess it: a wrong unit pays 100 times too much or too little.", {
      hint: "Read in the provider's documentation whether an item's amount is in centavos (1107 for R$ 11,07) or in reais (11.07), then set it: paybatch config set pixAmountUnit cents (or reais), or PAYBATCH_PIX_AMOUNT_UNIT.",
      reason: { code: 'amount_unit_unset', of: 'pix' },
    });
  }

  /** Deletes a pending batch (endpoint 5). A 404 after an attempt with an unknown outcome counts as done. */
  async deleteBatch(batchId: string): Promise<void> {
    await this.#api.call({ method: 'DELETE', segments: ['pix', 'batch', batchId], mode: 'repeatable', deleteSemantics: true });
  }

  /** Starts processing a batch (endpoint 6). Repeatable: starting a processing batch gives the same answer. */
  async startBatch(batchId: string): Promise<StartResult> {
    // Items added under a unit left to a default (earlier versions) are paid in whatever unit the provider reads.
    this.#unitToSend();
    const { res, path } = await this.#api.call({ method: 'POST', segments: ['pix', 'batch', batchId, 'start-process'], mode: 'repeatable' });
    return this.#api.decode(res, 'POST', path, true, decodeStartResult);
  }

  /** Every batch, one page at a time (endpoints 7, then 8 with each cursor). */
  batches(): AsyncIterable<Batch[]> {
    return cursorPages(
      (cursor) => this.#page(cursor === null ? ['pix', 'batch'] : ['pix', 'batch', cursor], (v, w) => decodeBatch(v, w)),
      { method: 'GET', path: '/pix/batch' },
    );
  }

  /** Every item of a batch, one page at a time (endpoints 9, then 10 with each cursor); amounts in centavos. */
  items(batchId: string): AsyncIterable<Item[]> {
    const first = ['pix', 'batch', batchId, 'items'];
    return cursorPages(
      (cursor) => this.#page(cursor === null ? first : [...first, cursor], (v, w) => decodeItem(v, this.#reading, w)),
      { method: 'GET', path: buildPath(first) },
    );
  }

  /** The receipt of a Pix payment (endpoint 11), decoded from base64; a ProviderError when it is not a PDF. */
  async receipt(pixId: string): Promise<Receipt> {
    const { res, path } = await this.#api.call({ method: 'GET', segments: ['pix', pixId, 'receipt'], mode: 'repeatable' });
    return this.#api.decode(res, 'GET', path, false, decodeReceipt);
  }

  /**
   * Details of a bill (endpoint 12), amounts in centavos. The provider's documentation gives the method both ways:
   * unless the dialect pins one, POST is tried first and GET after an answer that says "not this way" rather than
   * "not this bill" (see `mayBeWrongMethod`); the method that first answers a success is kept for the life of the
   * client. When GET fails too in a way that says it is not served either, the POST's error is the one reported.
   */
  async boletoDetails(code: string): Promise<BillDetails> {
    const segments = ['cashout', 'boleto', 'details', code];
    const known = this.#detailsMethod;
    if (known !== null) return this.#details(known, segments);
    try {
      return await this.#details('POST', segments);
    } catch (e) {
      if (!(e instanceof ProviderError) || !mayBeWrongMethod(e)) throw e;
      this.#emit({ type: 'warning', message: `POST ${e.path} answered HTTP ${e.status}; trying GET for bill details` });
      try {
        return await this.#details('GET', segments);
      } catch (second) {
        if (second instanceof ProviderError && (second.status === 404 || second.status === 405 || second.status === 501) && e.status !== 404) throw e;
        throw second;
      }
    }
  }

  async #details(method: 'POST' | 'GET', segments: readonly string[]): Promise<BillDetails> {
    // The details' amounts are read in the same unit as the payment's: unset, they would be a guess (and a
    // mismatch with the code would be blamed on a mistyped digit).
    this.#billUnitToSend();
    const { res, path } = await this.#api.call({ method, segments, mode: 'repeatable' });
    const details = this.#api.decode(res, method, path, false, (v) => decodeBillDetails(v, this.#dialect.billAmountUnit));
    this.#detailsMethod = method;
    return details;
  }

  /**
   * Pays a bill (endpoint 13): `{amount, code}` with the amount in the profile's `billAmountUnit` — reais with two
   * decimals (`1234.50`) or whole centavos — and refused while it is unset. NEVER retried.
   * A communication failure after the request may have been sent (timeout, connection lost), or an answer of 500, 502
   * or 504, gives a ProviderError with `outcomeUnknown: true`: the bill may be paid. A 2xx whose body cannot be read
   * also has `outcomeUnknown: true`, with the body attached.
   */
  async payBoleto(code: string, amountCents: number): Promise<BillPayment> {
    if (!Number.isSafeInteger(amountCents) || amountCents <= 0) throw new RangeError('amountCents must be a positive whole number of centavos');
    if (code === '') throw new RangeError('the bill code is empty');
    // Written by hand so the amount keeps its two decimals on the wire (JSON.stringify would send 1234.5).
    const value = this.#billUnitToSend() === 'cents' ? String(amountCents) : formatReais(amountCents);
    const amount = this.#dialect.billAmountForm === 'string' ? `"${value}"` : value;
    const body = `{"amount":${amount},"code":${JSON.stringify(code)}}`;
    const { res, path } = await this.#api.call({ method: 'POST', segments: ['cashout', 'boleto'], body, mode: 'once' });
    return this.#api.decode(res, 'POST', path, true, (v) => decodeBillPayment(v, this.#dialect.billAmountUnit));
  }

  /** The unit bill amounts go out in: not documented, so set by the profile, never guessed (see `#unitToSend`). */
  #billUnitToSend(): PixAmountUnit {
    if (this.#dialect.billAmountUnit !== null) return this.#dialect.billAmountUnit;
    throw new ConfigError("The unit of this provider's bill amounts is not set, and paybatch does not guess it: a wrong unit pays 100 times too much or too little.", {
      hint: "Read in the provider's documentation whether a bill payment's amount is in reais (159.90 for R$ 159,90) or in centavos (15990), then set it: paybatch config set billAmountUnit reais (or cents), or PAYBATCH_BILL_AMOUNT_UNIT.",
      reason: { code: 'amount_unit_unset', of: 'bill' },
    });
  }

  /** Subscribes a URL to event notifications (endpoint 14). The secret is masked in anything the client reports. */
  async subscribe(url: string, secret: string): Promise<unknown> {
    this.#redactor.add(secret);
    const { res } = await this.#api.call({ method: 'POST', segments: ['subscribe', 'event'], body: JSON.stringify({ url, secret }), mode: 'repeatable' });
    // The answer is not specified (SPEC.md rule 7): JSON when it is JSON, otherwise nothing.
    try {
      return this.#redactor.value(JSON.parse(res.body.toString('utf8')));
    } catch {
      return null;
    }
  }

  /** Closes the connections; calls after this fail. */
  async close(): Promise<void> {
    await this.#transport.close();
  }

  async #page<T>(segments: string[], decodeOne: (v: unknown, where: string) => T): Promise<WirePage<T>> {
    const { res, path } = await this.#api.call({ method: 'GET', segments, mode: 'repeatable' });
    return this.#api.decode(res, 'GET', path, false, (v) => decodePage(v, decodeOne));
  }

  #emit(e: ProviderEvent): void {
    if (!this.#onEvent) return;
    try {
      this.#onEvent(e);
    } catch {
      // A failing logger must not change what the client does.
    }
  }
}

function parseUrl(text: string, setting: 'baseUrl' | 'tokenUrl'): URL {
  const what = setting === 'baseUrl' ? 'base URL' : 'token URL';
  const refuse = (problem: ProviderUrlProblem, message: string) => new ConfigError(`The provider ${what} ${message}.`, { reason: { code: 'provider_url_invalid', setting, problem } });
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw refuse('not_url', 'is not a valid URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw refuse('scheme', 'must start with https:// or http://');
  if (url.username || url.password) throw refuse('credentials', 'must not carry credentials; set them as the API key and OAuth client settings');
  if (url.search || url.hash) throw refuse('query', 'must not have a query or fragment');
  return url;
}

function definedOnly<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** The destination as sent: a Pix by account data leaves `key` and `type` out rather than sending them empty. */
function wireDestination(to: Destination): WireNewItem['to'] {
  if (!isAccountDestination(to)) return to;
  const { key: _key, type: _type, ...account } = to;
  return account;
}

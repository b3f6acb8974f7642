import { fail, ok, type Result } from '../domain/result.js';

/** Rates (0 to 1) of every fault the sandbox can inject; all 0 unless asked for. */
export interface FaultRates {
  /** Answer 500, 502 or 503 before applying the request. */
  readonly http5xx: number;
  /** Apply the request, hold the answer longer than a client waits, then drop the connection. */
  readonly timeout: number;
  /** Drop the connection before applying the request. */
  readonly reset: number;
  /** Apply the request, then drop the connection without answering. */
  readonly lostResponse: number;
  /** Answer 429 with Retry-After before applying the request. */
  readonly r429: number;
  /** Deliver a webhook event a second time. */
  readonly dupWebhook: number;
  /** Hold a webhook event back so that later events overtake it. */
  readonly reorderWebhook: number;
  /** A delivery attempt fails as if the receiver were down (then it is retried). */
  readonly webhookDown: number;
  /** A webhook event is never delivered, as if the provider lost it (the item pages still tell what happened). */
  readonly lostWebhook: number;
  /** An item gets no update until its batch's item list is queried after the stale delay. */
  readonly stale: number;
  /** An item is paid, then refunded for instability of the instant-payment scheme. */
  readonly instabilityReturn: number;
  /** An item is rejected with a Pix rejection code. */
  readonly failed: number;
  /** An item is rejected for instability of the instant-payment scheme (AB03, AB09, AB11, ED05): to be paid again. */
  readonly instabilityRejection: number;
  /** A paid bill is returned by its beneficiary within 5 business days. */
  readonly billReturn: number;
}

export type FaultName = keyof FaultRates;

const NO_FAULTS: FaultRates = Object.freeze({
  http5xx: 0,
  timeout: 0,
  reset: 0,
  lostResponse: 0,
  r429: 0,
  dupWebhook: 0,
  reorderWebhook: 0,
  webhookDown: 0,
  lostWebhook: 0,
  stale: 0,
  instabilityReturn: 0,
  failed: 0,
  instabilityRejection: 0,
  billReturn: 0,
});

const FAULT_NAMES = Object.keys(NO_FAULTS) as FaultName[];

/** Faults drawn once per API request; their rates together may not exceed 1. */
export const HTTP_FAULTS = ['reset', 'http5xx', 'r429', 'lostResponse', 'timeout'] as const satisfies readonly FaultName[];
export type HttpFault = (typeof HTTP_FAULTS)[number];

/** Faults drawn once per item; their rates together may not exceed 1. */
export const ITEM_FAULTS = ['failed', 'instabilityRejection', 'stale', 'instabilityReturn'] as const satisfies readonly FaultName[];

/**
 * Reads a fault spec: `name=rate` pairs separated by commas ("http5xx=0.05,lostResponse=0.02"), rates from 0 to 1.
 * Empty text, or `none`, means no faults (not even a dialect's default ones). Unknown names, bad rates, repeated
 * names, and HTTP or item faults whose rates add up to more than 1 are refused with a reason.
 */
export function parseFaults(spec: string): Result<FaultRates> {
  if (spec.trim().toLowerCase() === 'none') return ok(NO_FAULTS);
  const rates: Record<string, number> = { ...NO_FAULTS };
  const seen = new Set<string>();
  for (const part of spec.split(',').map((p) => p.trim()).filter(Boolean)) {
    const match = /^([A-Za-z0-9]+)\s*=\s*([0-9.]+)$/.exec(part);
    if (!match) return fail(`"${part}" is not name=rate`);
    const [, name = '', text = ''] = match;
    if (!(FAULT_NAMES as string[]).includes(name)) return fail(`unknown fault "${name}"; known: ${FAULT_NAMES.join(', ')}`);
    if (seen.has(name)) return fail(`fault "${name}" is given twice`);
    const rate = Number(text);
    if (!Number.isFinite(rate) || rate < 0 || rate > 1) return fail(`rate of "${name}" must be a number from 0 to 1, got ${text}`);
    seen.add(name);
    rates[name] = rate;
  }
  return checkSums(rates as unknown as FaultRates);
}

/** Checks rates given as an object (the programmatic API) with the same rules as parseFaults. */
export function checkFaults(given: Partial<FaultRates>): Result<FaultRates> {
  const rates = { ...NO_FAULTS, ...given };
  for (const name of Object.keys(rates)) {
    if (!(FAULT_NAMES as string[]).includes(name)) return fail(`unknown fault "${name}"`);
    const rate = rates[name as FaultName];
    if (!(rate >= 0 && rate <= 1)) return fail(`rate of "${name}" must be a number from 0 to 1`);
  }
  return checkSums(rates);
}

function checkSums(rates: FaultRates): Result<FaultRates> {
  for (const group of [HTTP_FAULTS, ITEM_FAULTS]) {
    const sum = group.reduce((s, name) => s + rates[name], 0);
    if (sum > 1 + 1e-9) return fail(`rates of ${group.join(', ')} add up to ${sum}, more than 1`);
  }
  return ok(Object.freeze(rates));
}

/** Which fault of a group (or none) a uniform draw `u` in [0, 1) selects. */
export function pickFault<N extends FaultName>(group: readonly N[], rates: FaultRates, u: number): N | null {
  let edge = 0;
  for (const name of group) {
    edge += rates[name];
    if (u < edge) return name;
  }
  return null;
}

/** The spec text of some rates, listing only those above 0 ("" for none). */
export function formatFaults(rates: FaultRates): string {
  return FAULT_NAMES.filter((n) => rates[n] > 0).map((n) => `${n}=${rates[n]}`).join(',');
}

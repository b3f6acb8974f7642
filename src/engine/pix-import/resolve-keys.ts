import type { ProviderClient } from '../../provider/client.js';
import type { Destination } from '../../provider/types.js';
import { ProviderError } from '../../errors.js';
import type { LookupFailure } from './import-refusal.js';
import { NO_RETRY, retrying, type RetrySettings, type RetryVerdict } from '../../provider/retry-policy.js';
import { isLastingFailure } from '../../network/lasting-failure.js';
import { crashPoint } from '../crash-point.js';
import type { OnProgress } from '../progress.js';

/** What the provider said about one Pix key: its destination, or why it cannot be paid. */
export type KeyResolution = { readonly destination: Destination; readonly error: null } | { readonly destination: null; readonly error: LookupFailure };

/**
 * Looks up each distinct key of a list once, at most `concurrency` at a time (a sheet often pays the same key twice):
 * lookKeysUp over a list held in memory.
 */
export async function resolveKeys(
  provider: Pick<ProviderClient, 'lookupKey'>,
  keys: readonly string[],
  o: { concurrency?: number; onProgress?: OnProgress } = {},
): Promise<Map<string, KeyResolution>> {
  const distinct = [...new Set(keys)];
  const results = new Map<string, KeyResolution>();
  await lookKeysUp(provider, distinct, {
    concurrency: o.concurrency,
    onResolved: (key, resolution) => {
      results.set(key, resolution);
      o.onProgress?.({ phase: 'lookup', done: results.size, total: distinct.length });
    },
  });
  return results;
}

/**
 * Looks keys up as they come (an import stages each distinct key once, while its sheet is still being read), at
 * most `concurrency` at a time, handing each answer to `onResolved`. A key the provider does not know, or refuses as
 * malformed, becomes an error for its rows; a provider that cannot be reached (after the client's retries) stops the
 * lookups, since nothing can be checked: the lookups in flight finish, then the failure is thrown.
 */
export async function lookKeysUp(
  provider: Pick<ProviderClient, 'lookupKey'>,
  keys: Iterable<string> | AsyncIterable<string>,
  o: { concurrency?: number | undefined; onResolved: (key: string, resolution: KeyResolution) => void },
): Promise<void> {
  const iterator = Symbol.asyncIterator in keys ? keys[Symbol.asyncIterator]() : keys[Symbol.iterator]();
  let failed = false;
  const worker = async () => {
    while (!failed) {
      const next = await iterator.next();
      if (next.done) return;
      try {
        const resolution = await resolveOne(provider, next.value);
        crashPoint('lookup');
        o.onResolved(next.value, resolution);
      } catch (e) {
        failed = true;
        throw e;
      }
    }
  };
  const settled = await Promise.allSettled(Array.from({ length: o.concurrency ?? 8 }, worker));
  const failure = settled.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failure) throw failure.reason;
}

// Rounds of the client's own retries per key: a lookup is a free GET, and one unlucky key must not sink a whole sheet.
// The rounds follow one another at once (the client already waited between its own attempts), and any failure but a
// refused key or a lasting one starts another.
const LOOKUP_ROUNDS: RetrySettings = Object.freeze({ attempts: 3, baseMs: 0, capMs: 0, maxRetryAfterMs: 0 });
const ANOTHER_ROUND: RetryVerdict = Object.freeze({ retry: true, retryAfterMs: null, reason: 'lookup failed' });

async function resolveOne(provider: Pick<ProviderClient, 'lookupKey'>, key: string): Promise<KeyResolution> {
  return retrying(
    async () => {
      try {
        const destination = await provider.lookupKey(key);
        return destination ? { destination, error: null } : { destination: null, error: { code: 'key_lookup_failed', why: 'unknown_key' } };
      } catch (e) {
        if (e instanceof ProviderError && e.status !== null && e.status >= 400 && e.status < 500 && e.status !== 429 && e.status !== 408) {
          return { destination: null, error: { code: 'key_lookup_failed', why: 'refused_key', message: e.message } };
        }
        throw e;
      }
    },
    // A failure no retry can mend (a refused client certificate, a proxy wanting credentials) ends the rounds at once.
    { settings: LOOKUP_ROUNDS, random: () => 0, sleep: async () => {}, classify: (e) => (e instanceof ProviderError && isLastingFailure(e) ? NO_RETRY : ANOTHER_ROUND) },
  );
}

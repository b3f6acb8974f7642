import type { ProviderClient } from '../provider/client.js';
import type { Destination } from '../provider/types.js';
import { ProviderError } from '../errors.js';
import { retrying, type RetrySettings, type RetryVerdict } from '../provider/retry-policy.js';
import { forEachConcurrent } from './concurrency.js';
import { crashPoint } from './crash-point.js';
import type { OnProgress } from './progress.js';

/** What the provider said about one Pix key: its destination, or why it cannot be paid. */
export type KeyResolution = { readonly destination: Destination; readonly error: null } | { readonly destination: null; readonly error: string };

/**
 * Looks up each distinct key once (a sheet often pays the same key twice), at most `concurrency` at a time.
 * A key the provider does not know, or refuses as malformed, becomes an error for its rows; a provider that cannot
 * be reached (after the client's retries) stops the whole lookup, since nothing can be checked.
 */
export async function resolveKeys(
  provider: Pick<ProviderClient, 'lookupKey'>,
  keys: readonly string[],
  o: { concurrency?: number; onProgress?: OnProgress } = {},
): Promise<Map<string, KeyResolution>> {
  const distinct = [...new Set(keys)];
  const results = new Map<string, KeyResolution>();
  await forEachConcurrent(distinct, o.concurrency ?? 8, async (key) => {
    results.set(key, await resolveOne(provider, key));
    crashPoint('lookup');
    o.onProgress?.({ phase: 'lookup', done: results.size, total: distinct.length });
  });
  return results;
}

// Rounds of the client's own retries per key: a lookup is a free GET, and one unlucky key must not sink a whole sheet.
// The rounds follow one another at once (the client already waited between its own attempts), and any failure but a
// refused key starts another.
const LOOKUP_ROUNDS: RetrySettings = Object.freeze({ attempts: 3, baseMs: 0, capMs: 0, maxRetryAfterMs: 0 });
const ANOTHER_ROUND: RetryVerdict = Object.freeze({ retry: true, retryAfterMs: null, reason: 'lookup failed' });

async function resolveOne(provider: Pick<ProviderClient, 'lookupKey'>, key: string): Promise<KeyResolution> {
  return retrying(
    async () => {
      try {
        const destination = await provider.lookupKey(key);
        return destination ? { destination, error: null } : { destination: null, error: 'the provider does not know this Pix key' };
      } catch (e) {
        if (e instanceof ProviderError && e.status !== null && e.status >= 400 && e.status < 500 && e.status !== 429 && e.status !== 408) {
          return { destination: null, error: `the provider refused this key: ${e.message}` };
        }
        throw e;
      }
    },
    { settings: LOOKUP_ROUNDS, random: () => 0, sleep: async () => {}, classify: () => ANOTHER_ROUND },
  );
}

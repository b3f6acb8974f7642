import { describe, expect, it } from 'vitest';
import { ProviderError } from '../../src/errors.js';
import type { ProviderEvent } from '../../src/provider/types.js';
import { DEST, json, miniProvider, rejection, useFakeProviders, type Handler } from './fake-provider.js';

// What every retrying place reports, event by event: attempt numbers, delays, reasons, and the final error.
const fake = useFakeProviders({ retry: { attempts: 3, baseMs: 100, capMs: 10_000 } });

/** Events without their timings and request ids. */
function trace(events: ProviderEvent[]): string[] {
  return events.map((e) => {
    switch (e.type) {
      case 'request':
        return `request ${e.method} ${e.path} #${e.attempt}`;
      case 'response':
        return `response ${e.status} #${e.attempt}`;
      case 'failure':
        return `failure ${e.cause} #${e.attempt}${e.outcomeUnknown ? ' unknown' : ''}`;
      case 'retry':
        return `retry ${e.method} ${e.path} #${e.attempt} after ${e.delayMs} (${e.reason})`;
      case 'token':
        return `token ${e.action}`;
      default:
        return e.type;
    }
  });
}

/** Answers `steps` in order ('lose' destroys the socket), then `rest` for every later request. */
function steps(list: (number | 'lose' | [number, Record<string, string>])[], rest: Handler): Handler {
  let n = 0;
  return (q, res, raw) => {
    const s = list[n++];
    if (s === undefined) return rest(q, res, raw);
    if (s === 'lose') return void raw.socket.destroy();
    const [status, headers] = Array.isArray(s) ? s : [s, {}];
    json(res, status, { error: { code: `e${status}`, message: 'scripted' } }, headers);
  };
}

const ok: Handler = (_q, res) => json(res, 200, DEST);

describe('retry events and final errors', () => {
  it('a 401 refresh takes an attempt number but no retry; Retry-After and communication failures are retried', async () => {
    const { client, events, sleeps } = await fake.setup(steps([401, [503, { 'retry-after': '2' }], 'lose'], ok), {}, { retry: { attempts: 3 } });
    expect(await client.lookupKey('k')).toEqual(DEST);
    expect(sleeps).toEqual([2_000, 250]);
    expect(trace(events).filter((t) => !t.startsWith('failure'))).toEqual([
      'token fetched',
      'request GET /pix/keys/k #1',
      'response 401 #1',
      'token invalidated',
      'token fetched',
      'request GET /pix/keys/k #2',
      'response 503 #2',
      'retry GET /pix/keys/k #3 after 2000 (HTTP 503)',
      'request GET /pix/keys/k #3',
      'retry GET /pix/keys/k #4 after 250 (UND_ERR_SOCKET)',
      'request GET /pix/keys/k #4',
      'response 200 #4',
    ]);
  });

  it('refreshes the token once per call, even across retries', async () => {
    const { client, events } = await fake.setup(steps([503, 401, 401], ok));
    const e = (await rejection(client.lookupKey('k'))) as ProviderError;
    expect(e.message).toMatch(/refused the credentials on GET \/pix\/keys\/k \(HTTP 401\), even with a new access token/);
    const again = await fake.setup(steps([401, 503, 401], ok));
    const e2 = (await rejection(again.client.lookupKey('k'))) as ProviderError;
    expect(e2.message).toMatch(/even with a new access token/);
    expect(trace(events).filter((t) => t.startsWith('retry'))).toEqual(['retry GET /pix/keys/k #2 after 50 (HTTP 503)']);
    expect(trace(again.events).filter((t) => t.startsWith('retry'))).toEqual(['retry GET /pix/keys/k #3 after 50 (HTTP 503)']);
  });

  it('a write that gives up after a lost answer says so, with the outcome unknown', async () => {
    const { client, events, sleeps } = await fake.setup(steps(['lose', 503, 503], ok));
    const e = (await rejection(client.addItems('b1', [{ amountCents: 100, identifier: 'i1', description: 'd', to: DEST }]))) as ProviderError;
    expect(e.status).toBe(503);
    expect(e.message).toMatch(/HTTP 503.*\(gave up after 3 attempts\)$/);
    expect(e.outcomeUnknown).toBe(true);
    expect(e.hint).toBe('The provider failed; try again later.');
    expect(sleeps).toEqual([50, 100]);
    expect(trace(events).filter((t) => t.startsWith('retry') || t.startsWith('failure'))).toEqual([
      'failure UND_ERR_SOCKET #1 unknown',
      'retry POST /pix/batch/b1/items #2 after 50 (UND_ERR_SOCKET)',
      'retry POST /pix/batch/b1/items #3 after 100 (HTTP 503)',
    ]);
  });

  it('a communication failure on the last attempt carries the note and the earlier outcome', async () => {
    const { client } = await fake.setup(steps([400], ok));
    // A lost answer, then a refusal: the refusal is reported, with the outcome of the first attempt unknown.
    const lost = await fake.setup(steps(['lose', 400], ok));
    const e0 = (await rejection(lost.client.addItems('b1', [{ amountCents: 100, identifier: 'i1', description: 'd', to: DEST }]))) as ProviderError;
    expect(e0.status).toBe(400);
    expect(e0.outcomeUnknown).toBe(true);
    expect(((await rejection(client.deleteBatch('b1'))) as ProviderError).outcomeUnknown).toBe(false);
    const last = await fake.setup(steps([500, 'lose'], ok), {}, { retry: { attempts: 2 } });
    const e = (await rejection(last.client.deleteBatch('b1'))) as ProviderError;
    expect(e.status).toBeNull();
    expect(e.code).toBe('UND_ERR_SOCKET');
    expect(e.message).toMatch(/\(gave up after 2 attempts\)$/);
    expect(e.outcomeUnknown).toBe(true);
  });

  it('ensureBatch numbers its own attempts, looks the batch up before each, and notes why it gave up', async () => {
    const mini = miniProvider();
    const { client, server, events, sleeps } = await fake.setup((q, res, raw) =>
      q.method === 'POST' ? json(res, 503, { error: { code: 'unavailable', message: 'x' } }, { 'retry-after': '1' }) : mini.handler(q, res, raw),
    );
    const e = (await rejection(client.ensureBatch('n [pb:1]'))) as ProviderError;
    expect(e.status).toBe(503);
    expect(e.message).toMatch(/\(gave up after 3 attempts\)$/);
    expect(e.outcomeUnknown).toBe(false);
    expect(server.seen.map((s) => s.method)).toEqual(['GET', 'POST', 'GET', 'POST', 'GET', 'POST']);
    expect(sleeps).toEqual([1_000, 1_000]);
    expect(trace(events).filter((t) => t.startsWith('retry'))).toEqual([
      'retry POST /pix/batch #2 after 1000 (unavailable; looking for the batch by name first)',
      'retry POST /pix/batch #3 after 1000 (unavailable; looking for the batch by name first)',
    ]);
  });

  it('ensureBatch does not retry when the lookup by name fails', async () => {
    const { client, server, sleeps } = await fake.setup((q, res) => json(res, 503, { error: { code: 'unavailable', message: 'x' } }), {}, { retry: { attempts: 2 } });
    const e = (await rejection(client.ensureBatch('n [pb:1]'))) as ProviderError;
    expect(e.message).toMatch(/\(gave up after 2 attempts\)$/);
    expect(server.seen.map((s) => s.method)).toEqual(['GET', 'GET']);
    expect(sleeps).toEqual([125]);
  });

  it('the token endpoint retries with its own numbering and gives up with its own message', async () => {
    const { client, server, events, sleeps } = await fake.setup(ok, { tokenAnswer: () => ({ status: 503, body: { error: 'temporarily_unavailable' } }) });
    const e = (await rejection(client.lookupKey('k'))) as ProviderError;
    expect(e.status).toBe(503);
    expect(e.message).toMatch(/^Could not get an access token: the token endpoint answered HTTP 503/);
    expect(e.message).not.toMatch(/gave up/);
    expect(server.tokenRequests).toHaveLength(3);
    expect(sleeps).toEqual([50, 100]);
    expect(trace(events)).toEqual(['retry POST /oauth/token #2 after 50 (HTTP 503)', 'retry POST /oauth/token #3 after 100 (HTTP 503)']);
  });

  it('the token endpoint does not wait for a Retry-After beyond the limit', async () => {
    const { client, server, sleeps } = await fake.setup(ok, {
      tokenAnswer: (n) => (n === 1 ? { status: 429, body: { error: 'slow_down' } } : null),
    });
    // The fake cannot send headers with tokenAnswer: a plain 429 is retried.
    expect(await client.lookupKey('k')).toEqual(DEST);
    expect(server.tokenRequests).toHaveLength(2);
    expect(sleeps).toEqual([50]);
  });
});

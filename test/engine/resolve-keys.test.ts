import { describe, expect, it } from 'vitest';
import { ProviderError } from '../../src/errors.js';
import { resolveKeys } from '../../src/engine/pix-import/resolve-keys.js';
import { destination } from '../helpers/ledger-fixture.js';

const unavailable = () => new ProviderError('503', { status: 503, method: 'GET', path: '/pix/keys/x' });

describe('resolveKeys', () => {
  it('looks each distinct key up once, at most `concurrency` at a time', async () => {
    let inFlight = 0;
    let most = 0;
    let answered = 0;
    const calls: string[] = [];
    // Each lookup is answered only when as many are in flight as the limit allows (3, or the keys left): the answers
    // follow the lookups (events), not a moment of the clock, and never come before the limit was reached.
    const held: (() => void)[] = [];
    const answerOneWhenFull = () => {
      if (held.length > 0 && inFlight >= Math.min(3, 10 - answered)) held.shift()!();
    };
    const provider = {
      lookupKey: async (key: string) => {
        calls.push(key);
        most = Math.max(most, ++inFlight);
        await new Promise<void>((r) => {
          held.push(r);
          answerOneWhenFull();
        });
        inFlight -= 1;
        answered += 1;
        answerOneWhenFull();
        return { ...destination, key };
      },
    };
    const keys = Array.from({ length: 40 }, (_, i) => `k${i % 10}`);
    const result = await resolveKeys(provider, keys, { concurrency: 3 });
    expect(calls.sort()).toEqual(Array.from({ length: 10 }, (_, i) => `k${i}`).sort());
    expect(most).toBe(3);
    expect(result.get('k3')).toEqual({ destination: { ...destination, key: 'k3' }, error: null });
  });

  it('turns unknown and refused keys into row errors, and tries a failing lookup again before giving up', async () => {
    let flaky = 0;
    const provider = {
      lookupKey: async (key: string) => {
        if (key === 'unknown') return null;
        if (key === 'malformed') throw new ProviderError('bad key', { status: 400, method: 'GET', path: '/pix/keys/malformed' });
        if (key === 'flaky' && ++flaky < 3) throw unavailable();
        return { ...destination, key };
      },
    };
    const r = await resolveKeys(provider, ['unknown', 'malformed', 'flaky']);
    expect(r.get('unknown')).toEqual({ destination: null, error: { code: 'key_lookup_failed', why: 'unknown_key' } });
    expect(r.get('malformed')?.error).toEqual({ code: 'key_lookup_failed', why: 'refused_key', message: 'bad key' });
    expect(r.get('flaky')?.destination?.key).toBe('flaky');
    await expect(resolveKeys({ lookupKey: async () => Promise.reject(unavailable()) }, ['down'])).rejects.toThrow('503');
  });

  it('tries a failing lookup three times in all, at once, whatever the failure; a refused key once', async () => {
    const calls = new Map<string, number>();
    const failWith = (e: unknown) => ({
      lookupKey: async (key: string) => {
        calls.set(key, (calls.get(key) ?? 0) + 1);
        throw e;
      },
    });
    await expect(resolveKeys(failWith(unavailable()), ['503'])).rejects.toThrow('503');
    await expect(resolveKeys(failWith(new ProviderError('slow down', { status: 429, method: 'GET', path: '/pix/keys/x' })), ['429'])).rejects.toThrow('slow down');
    await expect(resolveKeys(failWith(new TypeError('bug')), ['bug'])).rejects.toThrow(TypeError);
    const refused = await resolveKeys(failWith(new ProviderError('gone', { status: 404, method: 'GET', path: '/pix/keys/x' })), ['404']);
    expect(refused.get('404')?.error).toEqual({ code: 'key_lookup_failed', why: 'refused_key', message: 'gone' });
    expect(Object.fromEntries(calls)).toEqual({ '503': 3, '429': 3, bug: 3, '404': 1 });
  });

  it('tries once a failure no retry can mend: a client certificate the server refuses, a proxy asking for credentials', async () => {
    const calls = new Map<string, number>();
    const failWith = (code: string) => ({
      lookupKey: async (key: string) => {
        calls.set(key, (calls.get(key) ?? 0) + 1);
        throw new ProviderError(`refused (${code})`, { status: null, method: 'POST', path: '/oauth/token', code, unreachable: true });
      },
    });
    await expect(resolveKeys(failWith('ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED'), ['no-cert'])).rejects.toThrow('CERTIFICATE_REQUIRED');
    await expect(resolveKeys(failWith('ERR_SSL_TLSV1_ALERT_UNKNOWN_CA'), ['unknown-ca'])).rejects.toThrow('UNKNOWN_CA');
    await expect(resolveKeys(failWith('PROXY_AUTH_REQUIRED'), ['proxy'])).rejects.toThrow('PROXY_AUTH_REQUIRED');
    expect(Object.fromEntries(calls)).toEqual({ 'no-cert': 1, 'unknown-ca': 1, proxy: 1 });
  });
});

import { describe, expect, it } from 'vitest';
import { formatFaults, parseFaults } from '../../src/sandbox/faults.js';
import { admin, Client, eventually, sandbox } from './helpers.js';

const batchCount = async (client: Client) => (await admin(client.sandbox, 'GET', '/batches')).body.batches.length;

describe('fault spec', () => {
  it('reads name=rate pairs and refuses unknown names, bad rates and sums above 1', () => {
    const ok = parseFaults('http5xx=0.05, lostResponse=0.02,dupWebhook=0.1');
    expect(ok.ok && formatFaults(ok.value)).toBe('http5xx=0.05,lostResponse=0.02,dupWebhook=0.1');
    expect(parseFaults('')).toMatchObject({ ok: true });
    expect(parseFaults('nope=0.1')).toMatchObject({ ok: false, error: expect.stringContaining('unknown fault "nope"') });
    expect(parseFaults('timeout=2')).toMatchObject({ ok: false, error: expect.stringContaining('from 0 to 1') });
    expect(parseFaults('timeout')).toMatchObject({ ok: false });
    expect(parseFaults('reset=0.6,http5xx=0.6')).toMatchObject({ ok: false, error: expect.stringContaining('more than 1') });
    expect(parseFaults('failed=0.6,stale=0.6')).toMatchObject({ ok: false });
    expect(parseFaults('reset=0.1,reset=0.2')).toMatchObject({ ok: false });
  });
});

describe('HTTP faults', () => {
  it('reset drops the connection before applying the request', async () => {
    const client = new Client(await sandbox({ faults: 'reset=1' }));
    await expect(client.post('/pix/batch', { name: 'x' })).rejects.toThrow();
    expect(await batchCount(client)).toBe(0);
  });

  it('http5xx answers 500, 502 or 503 before applying; r429 answers 429 with Retry-After', async () => {
    const five = new Client(await sandbox({ faults: 'http5xx=1' }));
    const statuses = new Set<number>();
    for (let i = 0; i < 12; i++) {
      const res = await five.post('/pix/batch', { name: 'x' });
      statuses.add(res.status);
      expect(res.body.error.code).toBe('injected_fault');
    }
    expect([...statuses].every((s) => [500, 502, 503].includes(s))).toBe(true);
    expect(statuses.size).toBeGreaterThan(1);
    expect(await batchCount(five)).toBe(0);

    const limited = new Client(await sandbox({ faults: 'r429=1' }));
    const res = await limited.post('/pix/batch', { name: 'x' });
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('1');
    expect(await batchCount(limited)).toBe(0);
  });

  it('lostResponse applies the request, then drops the connection without answering', async () => {
    const client = new Client(await sandbox({ faults: 'lostResponse=1' }));
    await expect(client.post('/pix/batch', { name: 'x' })).rejects.toThrow();
    expect(await batchCount(client)).toBe(1);
  });

  it('timeout applies the request and holds the answer past the client’s patience; close() releases it', async () => {
    const log: string[] = [];
    const s = await sandbox({ faults: 'timeout=1', logger: (line) => log.push(line) });
    const client = new Client(s, s.apiKey, 300);
    await expect(client.post('/pix/batch', { name: 'x' })).rejects.toThrow(/abort|timeout/i);
    // Applied before the answer was held (on a loaded machine the client may give up before it is applied).
    await eventually(async () => ((await batchCount(client)) === 1 ? true : undefined), 20_000, 'the batch to be created');
    expect(await batchCount(client)).toBe(1);
    const held = fetch(`${s.url}/pix/batch`, { headers: { 'service-apikey': s.apiKey, authorization: `Bearer ${await client.accessToken()}` } }).catch((e: Error) => e);
    // The sandbox has picked the fault for this request (its answer is held from then on, for 10 s).
    await eventually(() => (log.some((l) => /^fault timeout: GET \/pix\/batch\b/.test(l)) ? true : undefined), 20_000, 'the GET to be held');
    const started = Date.now();
    await s.close();
    expect(await held).toBeInstanceOf(Error);
    // Released by close(), not by the end of the 10 s hold.
    expect(Date.now() - started).toBeLessThan(8_000);
  });

  it('never applies to the token endpoint or the inspection routes', async () => {
    const client = new Client(await sandbox({ faults: 'http5xx=0.5,reset=0.5' }));
    for (let i = 0; i < 5; i++) {
      expect((await admin(client.sandbox, 'GET', '/clock')).status).toBe(200);
      const token = await fetch(client.sandbox.tokenUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: `grant_type=client_credentials&client_id=${client.sandbox.clientId}&client_secret=${client.sandbox.clientSecret}`,
      });
      expect(token.status).toBe(200);
    }
  });

  it('draws the same faults for the same seed', async () => {
    const run = async () => {
      const client = new Client(await sandbox({ seed: 42, faults: 'http5xx=0.3,r429=0.3' }));
      const statuses: number[] = [];
      for (let i = 0; i < 15; i++) statuses.push((await client.get('/pix/batch')).status);
      await client.sandbox.close();
      return statuses;
    };
    const [a, b] = [await run(), await run()];
    expect(a).toEqual(b);
    expect(new Set(a).size).toBeGreaterThan(1);
  });
});

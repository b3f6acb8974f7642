import { afterEach, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/server.js';
import { admin, Client, eventually, Receiver, sandbox, type Answer } from './helpers.js';
import { nthCpf } from './documents.js';

const FAULTS = 'http5xx=0.05,timeout=0.02,reset=0.02,lostResponse=0.02,r429=0.05,dupWebhook=0.1,reorderWebhook=0.1,webhookDown=0.1';
const ITEMS = 1_000;
const CHUNK = 20;

const receivers: Receiver[] = [];
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((r) => r.close()));
});

/**
 * A careful client: every failure that may be a fault (no answer, 5xx, 429) is retried with the same request,
 * honouring Retry-After; creating a batch (which has no idempotency key) first looks for it by name.
 */
class CarefulClient {
  retries = 0;
  private readonly client: Client;

  constructor(sandbox: RunningSandbox) {
    this.client = new Client(sandbox, sandbox.apiKey, 500);
  }

  async call(method: string, path: string, body?: unknown): Promise<Answer> {
    for (let attempt = 1; attempt <= 30; attempt++) {
      try {
        const answer = await this.client.call(method, path, body);
        if (answer.status < 500 && answer.status !== 429) return answer;
        const retryAfter = Number(answer.headers.get('retry-after') ?? 0);
        await sleep(retryAfter > 0 ? 20 : 10 * attempt);
      } catch {
        await sleep(10 * attempt);
      }
      this.retries++;
    }
    throw new Error(`${method} ${path}: gave up`);
  }

  async ok(method: string, path: string, body?: unknown): Promise<any> {
    const answer = await this.call(method, path, body);
    if (answer.status >= 300) throw new Error(`${method} ${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
    return answer.body;
  }

  async all(path: string): Promise<any[]> {
    const out: any[] = [];
    let page = await this.ok('GET', path);
    for (;;) {
      out.push(...page.data);
      if (page.cursor === null) return out;
      page = await this.ok('GET', `${path}/${page.cursor}`);
    }
  }

  async createBatch(name: string): Promise<{ id: string }> {
    for (;;) {
      const existing = (await this.allBatches()).find((b) => b.name === name);
      if (existing) return existing;
      try {
        const answer = await this.client.post('/pix/batch', { name });
        if (answer.status === 201) return answer.body;
      } catch {
        // The batch may or may not exist now: look again.
      }
      this.retries++;
    }
  }

  private async allBatches(): Promise<any[]> {
    const out: any[] = [];
    let page = await this.ok('GET', '/pix/batch');
    for (;;) {
      out.push(...page.data);
      if (page.cursor === null) return out;
      page = await this.ok('GET', `/pix/batch/${page.cursor}`);
    }
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('1,000 items with faults on', () => {
  it('pays each identifier exactly once, as the inspection route shows', async () => {
    const s = await sandbox({ speed: 100, faults: FAULTS, seed: 2024, pageSize: 200 });
    const receiver = await new Receiver('load-test-secret').start();
    receivers.push(receiver);
    const client = new CarefulClient(s);
    await client.ok('POST', '/subscribe/event', { url: receiver.url, secret: receiver.secret });

    const destinations: unknown[] = [];
    for (let k = 0; k < 20; k++) destinations.push(await client.ok('GET', `/pix/keys/${nthCpf(k)}`));
    const items = Array.from({ length: ITEMS }, (_, i) => ({
      amount: 100 + i,
      identifier: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
      description: `row ${i + 1}`,
      to: destinations[i % destinations.length],
    }));

    const batch = await client.createBatch('load [pb:1]');
    for (let i = 0; i < ITEMS; i += CHUNK) {
      const added = await client.ok('POST', `/pix/batch/${batch.id}/items`, items.slice(i, i + CHUNK));
      expect(added.data).toHaveLength(CHUNK);
    }
    expect((await client.ok('POST', `/pix/batch/${batch.id}/start-process`)).status).toMatch(/processing|completed/);

    const settled = await eventually(async () => {
      const list = await client.all(`/pix/batch/${batch.id}/items`);
      return list.every((i) => i.status === 'paid') ? list : undefined;
    }, 30_000, 'every item paid');
    expect(settled).toHaveLength(ITEMS);

    const report = (await admin(s, 'GET', '/payments')).body;
    expect(report.identifiers).toBe(ITEMS);
    expect(report.paidExactlyOnce).toBe(ITEMS);
    expect(report.paidMoreThanOnce).toEqual([]);
    expect(new Set(report.payments.map((p: { identifier: string }) => p.identifier))).toEqual(new Set(items.map((i) => i.identifier)));
    const batches = (await admin(s, 'GET', '/batches')).body.batches;
    expect(batches).toHaveLength(1);
    expect(batches[0].quantityItems).toBe(ITEMS);

    const events = await eventually(() => {
      const ids = new Set(receiver.deliveries.map((d) => d.json.payload.eventId));
      return ids.size === ITEMS ? ids : undefined;
    }, 30_000, 'an event for every item');
    expect(events.size).toBe(ITEMS);
    expect(receiver.deliveries.every((d) => d.verified)).toBe(true);
    expect(receiver.deliveries.length).toBeGreaterThan(ITEMS);
    expect(client.retries).toBeGreaterThan(0);
  }, 60_000);
});

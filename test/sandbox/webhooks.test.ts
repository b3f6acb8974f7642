import { afterEach, describe, expect, it } from 'vitest';
import { signWebhook } from '../../src/sandbox/webhook-signature.js';
import { admin, Client, eventually, itemFor, Receiver, sandbox } from './helpers.js';
import { nthCpf } from './documents.js';

const receivers: Receiver[] = [];
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((r) => r.close()));
});

async function receiver(secret = 'a-long-webhook-secret'): Promise<Receiver> {
  const r = await new Receiver(secret).start();
  receivers.push(r);
  return r;
}

/** A sandbox whose account pays `count` items right away. */
async function payItems(client: Client, count: number): Promise<void> {
  const batch = (await client.post('/pix/batch', { name: 'b' })).body;
  const template = await itemFor(client, nthCpf(1), 100, 'w-0');
  await client.post(`/pix/batch/${batch.id}/items`, Array.from({ length: count }, (_, i) => ({ ...template, identifier: `w-${i}` })));
  await client.post(`/pix/batch/${batch.id}/start-process`);
}

const report = async (client: Client) => (await admin(client.sandbox, 'GET', '/webhooks')).body;

describe('POST /subscribe/event', () => {
  it('answers 201 with {id, url, createdAt} and never echoes the secret; 400 with field paths', async () => {
    const client = new Client(await sandbox());
    const res = await client.post('/subscribe/event', { url: 'http://127.0.0.1:9/hooks', secret: 'whsec_c2VjcmV0LWJ5dGVz' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ id: expect.any(String), url: 'http://127.0.0.1:9/hooks', createdAt: expect.any(Number) });
    const bad = await client.post('/subscribe/event', { url: 'ftp://x', secret: 'short' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.map((d: { field: string }) => d.field)).toEqual(['url', 'secret']);
    expect((await client.post('/subscribe/event', { url: 'http://x', secret: 'whsec_not base64!' })).status).toBe(400);
  });

  it('replaces the subscription: later events go to the new URL, signed with the new secret', async () => {
    const client = new Client(await sandbox({ speed: 1000 }));
    const old = await receiver();
    const fresh = await receiver('whsec_' + Buffer.from('0123456789abcdef0123456789abcdef').toString('base64'));
    await client.post('/subscribe/event', { url: old.url, secret: old.secret });
    await client.post('/subscribe/event', { url: fresh.url, secret: fresh.secret });
    await payItems(client, 2);
    await eventually(() => (fresh.deliveries.length === 2 ? true : undefined));
    expect(old.deliveries).toEqual([]);
    expect(fresh.deliveries.every((d) => d.verified)).toBe(true);
    expect((await report(client)).subscriptions).toHaveLength(1);
  });
});

describe('webhook deliveries', () => {
  it('signs id.timestamp.body with HMAC-SHA256 (v1,<base64>) so a receiver can verify them', async () => {
    expect(signWebhook('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'msg_p5jXN8AQM9LWM0D4loKWxJek', 1614265330, '{"test": 2432232314}')).toBe(
      'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
    );
  });

  it('retries with backoff until a 2xx, with the same webhook-id, and records every attempt', async () => {
    const client = new Client(await sandbox({ speed: 1000 }));
    const r = await receiver();
    r.statuses = [500, 503];
    await client.post('/subscribe/event', { url: r.url, secret: r.secret });
    await payItems(client, 1);
    await eventually(() => (r.deliveries.length === 3 ? true : undefined));
    expect(new Set(r.deliveries.map((d) => d.headers['webhook-id'])).size).toBe(1);
    expect(new Set(r.deliveries.map((d) => d.body)).size).toBe(1);
    const [delivery] = (await eventually(async () => {
      const rep = await report(client);
      return rep.summary.delivered === 1 ? rep : undefined;
    })).deliveries;
    expect(delivery).toMatchObject({ status: 'delivered', attempts: 3, lastStatus: 204, lastError: null });
  });

  it('gives up after the configured number of attempts and records it', async () => {
    const client = new Client(await sandbox({ speed: 100_000, webhookAttempts: 3 }));
    const r = await receiver();
    r.statuses = Array(10).fill(500);
    await client.post('/subscribe/event', { url: r.url, secret: r.secret });
    await payItems(client, 1);
    const rep = await eventually(async () => {
      const x = await report(client);
      return x.summary.failed === 1 ? x : undefined;
    });
    expect(rep.deliveries[0]).toMatchObject({ status: 'failed', attempts: 3, lastStatus: 500, lastError: 'receiver answered 500', nextAttemptAt: null });
    expect(r.deliveries).toHaveLength(3);
  });

  it('keeps events of an account without a subscription, undelivered', async () => {
    const client = new Client(await sandbox({ speed: 1000 }));
    await payItems(client, 2);
    await eventually(async () => ((await report(client)).events.total === 2 ? true : undefined));
    expect((await report(client)).events).toEqual({ total: 2, withoutSubscription: 2 });
  });
});

describe('webhook faults', () => {
  it('dupWebhook delivers each event twice with the same id', async () => {
    const client = new Client(await sandbox({ speed: 1000, faults: 'dupWebhook=1' }));
    const r = await receiver();
    await client.post('/subscribe/event', { url: r.url, secret: r.secret });
    await payItems(client, 3);
    await eventually(() => (r.deliveries.length === 6 ? true : undefined));
    const ids = r.deliveries.map((d) => d.json.payload.eventId);
    expect(new Set(ids).size).toBe(3);
    expect(r.deliveries.every((d) => d.headers['webhook-id'] === d.json.payload.eventId && d.verified)).toBe(true);
  });

  it('reorderWebhook holds events back so later ones overtake them', async () => {
    const client = new Client(await sandbox({ speed: 1000, faults: 'reorderWebhook=1' }));
    const r = await receiver();
    await client.post('/subscribe/event', { url: r.url, secret: r.secret });
    // Twenty events: each held 5–30 s at random, so that they all still arrive in order is out of reach (six did,
    // now and then).
    await payItems(client, 20);
    await eventually(() => (r.deliveries.length === 20 ? true : undefined));
    const created = (await report(client)).deliveries.map((d: { eventId: string }) => d.eventId);
    const arrived = r.deliveries.map((d) => d.json.payload.eventId);
    expect(arrived).not.toEqual(created);
    expect([...arrived].sort()).toEqual([...created].sort());
  });

  it('webhookDown fails attempts as if the receiver were down; they are retried until delivered', async () => {
    const client = new Client(await sandbox({ speed: 10_000, faults: 'webhookDown=0.5' }));
    const r = await receiver();
    await client.post('/subscribe/event', { url: r.url, secret: r.secret });
    await payItems(client, 10);
    const rep = await eventually(async () => {
      const x = await report(client);
      return x.summary.delivered === 10 ? x : undefined;
    });
    expect(rep.deliveries.some((d: { attempts: number }) => d.attempts > 1)).toBe(true);
    expect(r.deliveries).toHaveLength(10);
  });
});

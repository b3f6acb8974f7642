import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { WebhookEvent } from '../../src/domain/webhook-event.js';
import { signStandardWebhook } from '../../src/domain/webhook-proof.js';
import { groupCommit, type Settled } from '../../src/daemon/group-commit.js';
import { startReceiver, type RunningReceiver } from '../../src/daemon/webhook-receiver.js';

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const NOW_MS = 1_714_000_000_000;
const NOW_S = NOW_MS / 1000;

function deferred<T>(): { promise: Promise<T>; resolve: (v: T) => void } {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((res) => (resolve = res));
  return { promise, resolve };
}

const stored = <R>(outcome: R): Settled<R> => ({ ok: true, outcome });
/** Lets pending timers, immediates and I/O callbacks run. */
const settle = () => new Promise((r) => setTimeout(r, 20));

describe('group commit', () => {
  it('commits what is submitted together as one group, and settles each only after that commit', async () => {
    const groups: string[][] = [];
    const gate = deferred<void>();
    const store = groupCommit(async (group: readonly string[]) => {
      groups.push([...group]);
      await gate.promise;
      return group.map((g) => stored(`${g}:stored`));
    });
    const settled: string[] = [];
    const a = store.submit('a').then((r) => settled.push(r));
    const b = store.submit('b').then((r) => settled.push(r));
    await settle();
    expect(groups).toEqual([['a', 'b']]);
    expect(settled).toEqual([]);
    gate.resolve();
    await Promise.all([a, b]);
    expect(settled).toEqual(['a:stored', 'b:stored']);
  });

  it('groups what arrives while a commit runs into the next commit', async () => {
    const groups: string[][] = [];
    const gates = [deferred<void>(), deferred<void>()];
    const store = groupCommit(async (group: readonly string[]) => {
      const gate = gates[groups.length]!;
      groups.push([...group]);
      await gate.promise;
      return group.map(stored);
    });
    const first = store.submit('a');
    await settle();
    const later = [store.submit('b'), store.submit('c')];
    await settle();
    expect(groups).toEqual([['a']]);
    gates[0]!.resolve();
    await first;
    await settle();
    expect(groups).toEqual([['a'], ['b', 'c']]);
    gates[1]!.resolve();
    expect(await Promise.all(later)).toEqual(['b', 'c']);
  });

  it('rejects every item of a group whose commit failed, and only the item that failed otherwise', async () => {
    let failCommit = true;
    const store = groupCommit((group: readonly string[]): Settled<string>[] => {
      if (failCommit) throw new Error('disk I/O error');
      return group.map((g) => (g === 'bad' ? { ok: false, error: new Error('no handler') } : stored(g)));
    });
    const results = await Promise.allSettled([store.submit('a'), store.submit('b')]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    failCommit = false;
    const next = await Promise.allSettled([store.submit('a'), store.submit('bad'), store.submit('c')]);
    expect(next.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
  });

  it('splits a group at maxGroup', async () => {
    const sizes: number[] = [];
    const store = groupCommit(
      (group: readonly number[]) => {
        sizes.push(group.length);
        return group.map(stored);
      },
      { maxGroup: 3 },
    );
    expect(await Promise.all([1, 2, 3, 4, 5, 6, 7].map((n) => store.submit(n)))).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(sizes).toEqual([3, 3, 1]);
  });
});

describe('group commit behind the webhook receiver', () => {
  const running: RunningReceiver[] = [];
  afterEach(async () => {
    await Promise.all(running.splice(0).map((r) => r.close()));
  });

  function delivery(eventId: string, host: string): string {
    const body = JSON.stringify({
      serviceId: 4821,
      payload: {
        id: `pix_${eventId}`, eventId, identifier: 'item-0001', amount: 1050, endToEndId: 'E12345678202404250000abcdefghijk',
        isRefund: false, transactionAccepted: true, transactionStatus: 'approved', reason: null, timestamp: String(NOW_S),
      },
    });
    const headers = [
      'POST /webhooks HTTP/1.1',
      `host: ${host}`,
      'content-type: application/json',
      `content-length: ${Buffer.byteLength(body)}`,
      `webhook-id: ${eventId}`,
      `webhook-timestamp: ${NOW_S}`,
      `webhook-signature: ${signStandardWebhook(SECRET, eventId, NOW_S, body)}`,
    ];
    return `${headers.join('\r\n')}\r\n\r\n${body}`;
  }

  it('two deliveries arriving together are committed together and both answered only after the commit', async () => {
    const groups: string[][] = [];
    const gate = deferred<void>();
    const committed = { done: false };
    const store = groupCommit(async (group: readonly WebhookEvent[]) => {
      groups.push(group.map((e) => e.eventId));
      await gate.promise; // a slow fsync
      committed.done = true;
      return group.map(() => stored('stored' as const));
    });
    const receiver = await startReceiver({ host: '127.0.0.1', port: 0, method: 'auto', secret: SECRET, now: () => NOW_MS, onEvent: (event) => store.submit(event) });
    running.push(receiver);

    // Both requests in one write (pipelined): they reach the receiver together.
    const socket = connect(receiver.port, '127.0.0.1');
    let answers = '';
    const answeredBeforeCommit: boolean[] = [];
    socket.on('data', (d: Buffer) => {
      answeredBeforeCommit.push(!committed.done);
      answers += d.toString('latin1');
    });
    await new Promise<void>((r) => socket.once('connect', () => r()));
    socket.write(delivery('evt_a', `127.0.0.1:${receiver.port}`) + delivery('evt_b', `127.0.0.1:${receiver.port}`));

    await new Promise((r) => setTimeout(r, 150));
    expect(groups).toEqual([['evt_a', 'evt_b']]);
    expect(answers).toBe('');
    gate.resolve();
    const deadline = Date.now() + 5_000;
    while ((answers.match(/HTTP\/1\.1 200/g) ?? []).length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    socket.destroy();
    expect(answers.match(/HTTP\/1\.1 200/g)).toHaveLength(2);
    expect(answeredBeforeCommit).not.toContain(true);
    expect(receiver.counters()).toMatchObject({ stored: 2, failed: 0 });
  });
});

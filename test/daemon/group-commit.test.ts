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

describe('group commit', () => {
  it('commits what is submitted together as one group, and settles each only after that commit', async () => {
    const groups: string[][] = [];
    const gate = deferred<void>();
    const committing = deferred<void>();
    let committed = false;
    const store = groupCommit(async (group: readonly string[]) => {
      groups.push([...group]);
      committing.resolve();
      await gate.promise;
      committed = true;
      return group.map((g) => stored(`${g}:stored`));
    });
    const settled: string[] = [];
    const settledBeforeCommit: boolean[] = [];
    const note = (r: string) => {
      settledBeforeCommit.push(!committed);
      settled.push(r);
    };
    const a = store.submit('a').then(note);
    const b = store.submit('b').then(note);
    await committing.promise;
    expect(groups).toEqual([['a', 'b']]);
    expect(settled).toEqual([]);
    gate.resolve();
    await Promise.all([a, b]);
    expect(settled).toEqual(['a:stored', 'b:stored']);
    expect(settledBeforeCommit).toEqual([false, false]);
  });

  it('groups what arrives while a commit runs into the next commit', async () => {
    const groups: string[][] = [];
    const gates = [deferred<void>(), deferred<void>()];
    const entered = [deferred<void>(), deferred<void>()];
    // Whether the commit before had returned when each commit began: b and c, submitted while the commit of a runs,
    // wait for it to end (whenever a flush might have run) and then go together.
    const previousDone: boolean[] = [];
    let done = 0;
    const store = groupCommit(async (group: readonly string[]) => {
      const n = groups.length;
      previousDone.push(done === n);
      groups.push([...group]);
      entered[n]!.resolve();
      await gates[n]!.promise;
      done += 1;
      return group.map(stored);
    });
    const first = store.submit('a');
    await entered[0]!.promise;
    const later = [store.submit('b'), store.submit('c')];
    expect(groups).toEqual([['a']]);
    gates[0]!.resolve();
    await first;
    await entered[1]!.promise;
    expect(groups).toEqual([['a'], ['b', 'c']]);
    gates[1]!.resolve();
    expect(await Promise.all(later)).toEqual(['b', 'c']);
    expect(previousDone).toEqual([true, true]);
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

  it('with overlap, starts the next group before the commit before returned, at most overlap at once', async () => {
    const groups: string[][] = [];
    const gates = [deferred<void>(), deferred<void>(), deferred<void>()];
    const entered = [deferred<void>(), deferred<void>(), deferred<void>()];
    const store = groupCommit(
      async (group: readonly string[]) => {
        const n = groups.length;
        groups.push([...group]);
        entered[n]!.resolve();
        await gates[n]!.promise;
        return group.map(stored);
      },
      { overlap: 2 },
    );
    const a = store.submit('a');
    await entered[0]!.promise;
    const b = store.submit('b');
    await entered[1]!.promise;
    // Two commits run: c and d wait for one of them to return, then go together.
    const later = [store.submit('c'), store.submit('d')];
    await new Promise((r) => setImmediate(r));
    expect(groups).toEqual([['a'], ['b']]);
    gates[1]!.resolve();
    expect(await b).toBe('b');
    await entered[2]!.promise;
    expect(groups).toEqual([['a'], ['b'], ['c', 'd']]);
    gates[0]!.resolve();
    gates[2]!.resolve();
    expect(await Promise.all([a, ...later])).toEqual(['a', 'c', 'd']);
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
    const committing = deferred<void>();
    const store = groupCommit(async (group: readonly WebhookEvent[]) => {
      groups.push(group.map((e) => e.eventId));
      committing.resolve();
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
    const answered = deferred<void>();
    const bothAnswered = answered.promise;
    socket.on('data', (d: Buffer) => {
      answeredBeforeCommit.push(!committed.done);
      answers += d.toString('latin1');
      if ((answers.match(/HTTP\/1\.1 200/g) ?? []).length >= 2) answered.resolve();
    });
    socket.on('close', () => answered.resolve());
    await new Promise<void>((r) => socket.once('connect', () => r()));
    socket.write(delivery('evt_a', `127.0.0.1:${receiver.port}`) + delivery('evt_b', `127.0.0.1:${receiver.port}`));

    // The commit has begun (with whatever had arrived by then): both deliveries, in one group, nothing answered.
    await committing.promise;
    expect(groups).toEqual([['evt_a', 'evt_b']]);
    expect(answers).toBe('');
    gate.resolve();
    await bothAnswered;
    socket.destroy();
    expect(answers.match(/HTTP\/1\.1 200/g)).toHaveLength(2);
    expect(answeredBeforeCommit).not.toContain(true);
    expect(receiver.counters()).toMatchObject({ stored: 2, failed: 0 });
  });
});

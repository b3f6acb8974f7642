import { describe, expect, it } from 'vitest';
import { isEventStored, listEvents, storeEvent } from '../../src/ledger/event-repository.js';
import { itemForEvent } from '../../src/ledger/item-repository.js';
import { preparedQuery } from '../../src/ledger/prepared-query.js';
import { ledgerWithStartedBatch } from '../helpers/ledger-fixture.js';
import { useTempDir } from '../helpers/temp-dir.js';

const tempDir = useTempDir();
const now = new Date('2026-11-20T12:00:00Z');

describe('a prepared query', () => {
  it('built once, runs with the values of each call', async () => {
    const { ledger, identifiers } = await ledgerWithStartedBatch(tempDir(), 2, now);
    expect(await itemForEvent(ledger, identifiers[1]!)).toMatchObject({ id: 2, amount_cents: 1002, key: 'p2@example.com', status: 'submitted', batchStatus: 'started' });
    expect(await itemForEvent(ledger, identifiers[0]!)).toMatchObject({ id: 1, amount_cents: 1001, key: 'p1@example.com' });
    expect(await itemForEvent(ledger, 'no-such-identifier')).toBeUndefined();

    const event = { kind: 'pix' as const, received_at: now.toISOString(), payload_json: '{"a":1}', effect: 'applied' };
    expect(await isEventStored(ledger, 'e1')).toBe(false);
    await storeEvent(ledger, { ...event, event_id: 'e1', topic: 'bill' });
    await storeEvent(ledger, { ...event, event_id: 'e2', delivery_id: 'd2', quarantine: 'contradicted' });
    expect([await isEventStored(ledger, 'e1'), await isEventStored(ledger, 'e2'), await isEventStored(ledger, 'e3')]).toEqual([true, true, false]);
    expect((await listEvents(ledger, { limit: 10 })).map((e) => [e.eventId, e.topic, e.effect])).toEqual([
      ['e1', 'bill', 'applied'],
      ['e2', 'unknown', 'applied'],
    ]);
    await ledger.close();
  });

  it('refuses a build that does not bind its arguments once each, in order', async () => {
    const { ledger } = await ledgerWithStartedBatch(tempDir(), 1, now);
    const swapped = preparedQuery((db, line: number, key: string) => db.selectFrom('items').select('id').where('key', '=', key).where('line', '=', line));
    expect(() => swapped(ledger, 2, 'p1@example.com')).toThrow(/must bind each of its arguments once, in order/);
    await ledger.close();
  });
});

import { describe, expect, it } from 'vitest';
import { readPages } from '../../src/engine/follow-up/reconcile.js';
import type { Item } from '../../src/provider/types.js';

describe('reading a batch\'s item pages', () => {
  it('asks for the next page as soon as one comes, so it travels while that one is applied; each keeps the moment it was asked for', async () => {
    let tick = 0;
    const now = () => new Date(Date.UTC(2026, 10, 20, 12, 0, ++tick));
    const asked: number[] = [];
    const provider = {
      async *items() {
        for (const n of [1, 2, 3]) {
          asked.push(n);
          yield [{ identifier: `item-${n}` } as unknown as Item];
        }
      },
    };
    const seen: { page: string; askedAt: string; askedSoFar: number[] }[] = [];
    for await (const page of readPages(provider, 'remote', now)) seen.push({ page: page.items[0]!.identifier, askedAt: page.askedAt.toISOString(), askedSoFar: [...asked] });
    expect(seen).toEqual([
      { page: 'item-1', askedAt: '2026-11-20T12:00:01.000Z', askedSoFar: [1, 2] },
      { page: 'item-2', askedAt: '2026-11-20T12:00:02.000Z', askedSoFar: [1, 2, 3] },
      { page: 'item-3', askedAt: '2026-11-20T12:00:03.000Z', askedSoFar: [1, 2, 3] },
    ]);
  });

  it('a caller that stops early leaves the page on its way unreported, even when it fails', async () => {
    const provider = {
      async *items() {
        yield [{ identifier: 'item-1' } as unknown as Item];
        throw new Error('socket hang up');
      },
    };
    const read: string[] = [];
    for await (const page of readPages(provider, 'remote', () => new Date(0))) {
      read.push(page.items[0]!.identifier);
      break;
    }
    expect(read).toEqual(['item-1']);
  });
});

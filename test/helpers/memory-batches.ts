import type { Item, NewItem } from '../../src/provider/types.js';

/**
 * The batch calls of a provider in memory (create or find by name, add items, start), keeping what they were sent:
 * spread into a fake ProviderClient. `beforeCreate` may throw to play a failed create.
 */
export function memoryBatches(o: { beforeCreate?: () => void } = {}) {
  const batches: { id: string; name: string; items: string[]; starts: number }[] = [];
  const calls = {
    async ensureBatch(name: string) {
      o.beforeCreate?.();
      const found = batches.find((b) => b.name === name);
      if (found) return { batch: { id: found.id, name, status: 'pending', quantityItems: found.items.length, timestamp: 0, type: 'pix' }, created: false };
      const b = { id: `r-${batches.length + 1}`, name, items: [] as string[], starts: 0 };
      batches.push(b);
      return { batch: { id: b.id, name, status: 'pending', quantityItems: 0, timestamp: 0, type: 'pix' }, created: true };
    },
    async addItems(id: string, items: readonly NewItem[]): Promise<Item[]> {
      batches.find((b) => b.id === id)!.items.push(...items.map((it) => it.identifier));
      return items.map((it) => ({ itemId: `item-${it.identifier}`, status: 'waiting', state: null, ...it }));
    },
    async startBatch(id: string) {
      const b = batches.find((x) => x.id === id)!;
      b.starts += 1;
      return { id, name: b.name, status: 'processing', timestamp: 0 };
    },
  };
  return { batches, calls };
}

/** What a commit says of one item of its group: its result, or why that item alone failed. */
export type Settled<R> = { readonly ok: true; readonly outcome: R } | { readonly ok: false; readonly error: unknown };

export interface GroupCommit<T, R> {
  /** Queues `item` for the next commit; resolves with its result only once that commit is done, rejects when it failed. */
  submit(item: T): Promise<R>;
}

/** Groups above this size are split: one commit holds at most this many items. */
const DEFAULT_MAX_GROUP = 256;

/**
 * Group commit (STYLE.md "Durable acknowledgements are grouped"): items submitted together — in the same turn of
 * the event loop, or while the commits running are at their limit — go to `commit` as one group, flushed on the next
 * setImmediate or at once when `maxGroup` are waiting. Every item's promise settles only after its group's commit
 * returned: with `commit`'s own outcome for that item, or rejected with the error when the whole commit threw
 * (nothing of the group may then be acknowledged).
 *
 * One commit runs at a time, unless `overlap` lets more start before the earlier ones returned: for a commit whose
 * wait is the disk's, shared by the commits made meanwhile (a ledger transaction with durable 'async'), so the next
 * group is written while the one before is synced. `commit` then keeps its groups' order itself where it matters.
 */
export function groupCommit<T, R>(commit: (group: readonly T[]) => readonly Settled<R>[] | Promise<readonly Settled<R>[]>, o: { maxGroup?: number; overlap?: number } = {}): GroupCommit<T, R> {
  const maxGroup = Math.max(1, o.maxGroup ?? DEFAULT_MAX_GROUP);
  const overlap = Math.max(1, o.overlap ?? 1);
  let queue: { item: T; resolve: (r: R) => void; reject: (e: unknown) => void }[] = [];
  let running = 0;
  let scheduled = false;

  async function commitGroup(group: typeof queue): Promise<void> {
    let results: readonly Settled<R>[];
    try {
      results = await commit(group.map((g) => g.item));
      if (results.length !== group.length) throw new Error(`the commit settled ${results.length} of ${group.length} items`);
    } catch (error) {
      for (const g of group) g.reject(error);
      return;
    }
    group.forEach((g, i) => {
      const r = results[i]!;
      if (r.ok) g.resolve(r.outcome);
      else g.reject(r.error);
    });
  }

  function flush(): void {
    scheduled = false;
    // Items that arrive while the commits are at their limit make up the next group.
    while (queue.length > 0 && running < overlap) {
      const group = queue.length > maxGroup ? queue.splice(0, maxGroup) : queue;
      if (group === queue) queue = [];
      running += 1;
      void commitGroup(group).finally(() => {
        running -= 1;
        flush();
      });
    }
  }

  return {
    submit(item: T): Promise<R> {
      return new Promise<R>((resolve, reject) => {
        queue.push({ item, resolve, reject });
        if (running >= overlap) return;
        if (queue.length >= maxGroup) flush();
        else if (!scheduled) {
          scheduled = true;
          setImmediate(flush);
        }
      });
    },
  };
}

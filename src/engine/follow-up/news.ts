/**
 * Word that the ledger changed in a way a waiting worker may care about (items paid by a page or by events), as a
 * count: a worker notes `count` before it reads the ledger, and waits with `since` for news after that reading. News
 * told while it read is never missed, and nothing is polled.
 */
export class News {
  #count = 0;
  #waiting = new Set<() => void>();

  /** How much news was told so far. */
  get count(): number {
    return this.#count;
  }

  tell(): void {
    this.#count += 1;
    const waiting = [...this.#waiting];
    this.#waiting.clear();
    for (const wake of waiting) wake();
  }

  /** True once news comes after `count` (at once when it came already); false when `until` settles first. */
  since(count: number, until: Promise<unknown>): Promise<boolean> {
    if (this.#count > count) return Promise.resolve(true);
    return new Promise((resolve) => {
      const wake = () => resolve(true);
      this.#waiting.add(wake);
      const end = () => {
        this.#waiting.delete(wake);
        resolve(this.#count > count);
      };
      void until.then(end, end);
    });
  }
}

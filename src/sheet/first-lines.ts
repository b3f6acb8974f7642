/**
 * The first line each key was seen on, for keys of a fixed number of 32-bit words (a payment's 64-bit hash, a UUID's
 * 128 bits): an open-addressing table in one Int32Array, each slot the key's words then the line, so a probe reads
 * one cache line and a million rows cost tens of megabytes and no garbage, where a Map of strings cost hundreds.
 * The table is kept up to 3/4 full and grows by half, so the old and new tables held together while it grows stay
 * near 30 MB at a million keys of two words (a table kept half full and doubled needed 36 MB).
 */
export class FirstLines {
  private readonly stride: number;
  private slots: Int32Array;
  private capacity = 1024;
  private size = 0;

  /** `width`: the words of a key. */
  constructor(private readonly width: number) {
    this.stride = width + 1;
    this.slots = new Int32Array(this.stride * this.capacity);
  }

  /** The line an equal key was first seen on, or null (then this key is remembered with `line`, which is ≥ 1). */
  firstLine(key: Int32Array, line: number): number | null {
    const { slots, stride, width, capacity } = this;
    for (let slot = home(spread(key, 0, width), capacity); ; slot = slot + 1 === capacity ? 0 : slot + 1) {
      const at = slot * stride;
      const first = slots[at + width] as number;
      if (first === 0) {
        for (let w = 0; w < width; w++) slots[at + w] = key[w] as number;
        slots[at + width] = line;
        if (++this.size * 4 > capacity * 3) this.grow();
        return null;
      }
      let same = true;
      for (let w = 0; w < width && same; w++) same = slots[at + w] === key[w];
      if (same) return first;
    }
  }

  private grow(): void {
    const { stride, width } = this;
    const old = this.slots;
    const capacity = Math.ceil(this.capacity * 1.5);
    const slots = new Int32Array(stride * capacity);
    for (let from = 0; from < old.length; from += stride) {
      if (old[from + width] === 0) continue;
      let slot = home(spread(old, from, width), capacity);
      while (slots[slot * stride + width] !== 0) slot = slot + 1 === capacity ? 0 : slot + 1;
      for (let w = 0, to = slot * stride; w < stride; w++) slots[to + w] = old[from + w] as number;
    }
    this.slots = slots;
    this.capacity = capacity;
  }
}

/** The slot a hash starts probing at: its 32 bits scaled to the capacity (which is not a power of two). */
function home(hash: number, capacity: number): number {
  return Math.floor(((hash >>> 0) * capacity) / 0x100000000);
}

/** A well-mixed hash of every word of the key at `from` (UUIDs from one system often share their first words). */
function spread(words: Int32Array, from: number, width: number): number {
  let h = 0;
  for (let w = from; w < from + width; w++) h = Math.imul(h ^ (words[w] as number), 0x9e3779b1) ^ (h >>> 15);
  return fmix(h);
}

/** murmur3's finaliser: spreads every input bit over the 32 output bits. */
function fmix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return h ^ (h >>> 16);
}

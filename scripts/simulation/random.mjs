// Seeded randomness for the simulation: every choice of a scenario comes from here, so a seed is a scenario.

/** 32-bit FNV-1a of a text: turns a seed and a purpose into a stream's own seed. */
function fnv1a(text) {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/** mulberry32: a tiny, good-enough PRNG with a 32-bit state. */
function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * A random stream for one purpose of one seed. Streams are independent: adding a draw to one (say, the bills) does
 * not change what another (the sheets) draws, so scenarios stay stable as the simulation grows.
 */
export function stream(seed, purpose) {
  const next = mulberry32(fnv1a(`${seed}/${purpose}`));
  const r = {
    /** [0, 1) */
    next,
    /** An integer from min to max, both included. */
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    /** true with probability p. */
    chance: (p) => next() < p,
    pick: (list) => list[Math.floor(next() * list.length)],
    /** A number from min to max, rounded to 3 decimals. */
    rate: (min, max) => Math.round((min + next() * (max - min)) * 1000) / 1000,
    digits: (n) => Array.from({ length: n }, () => Math.floor(next() * 10)).join(''),
    hex: (n) => Array.from({ length: n }, () => Math.floor(next() * 16).toString(16)).join(''),
    uuid: () => {
      const h = r.hex(32).split('');
      h[12] = '4';
      h[16] = '89ab'[Math.floor(next() * 4)];
      const s = h.join('');
      return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20)}`;
    },
    shuffle: (list) => {
      const out = [...list];
      for (let i = out.length - 1; i > 0; i--) {
        const j = Math.floor(next() * (i + 1));
        [out[i], out[j]] = [out[j], out[i]];
      }
      return out;
    },
  };
  return r;
}

import { describe, expect, it } from 'vitest';
import { News } from '../../src/engine/follow-up/news.js';

describe('news', () => {
  it('a wait ends with true at news after the count it was given, at once when that news came already', async () => {
    const news = new News();
    const seen = news.count;
    const never = new Promise<void>(() => {});
    const waiting = news.since(seen, never);
    news.tell();
    expect(await waiting).toBe(true);
    expect(await news.since(seen, never)).toBe(true);
    expect(news.count).toBe(1);
  });

  it('a wait ends with false when `until` settles first (resolved or rejected), and with true when news came before it did', async () => {
    const news = new News();
    expect(await news.since(news.count, Promise.resolve())).toBe(false);
    expect(await news.since(news.count, Promise.reject(new Error('payments failed')))).toBe(false);
    let end!: () => void;
    const until = new Promise<void>((resolve) => (end = resolve));
    const waiting = news.since(news.count, until);
    news.tell();
    end();
    expect(await waiting).toBe(true);
  });
});

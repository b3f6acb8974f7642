import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isUuid, reprocessIdentifier, rowIdentifier, uuidV5 } from '../../src/domain/identifier.js';

describe('derived identifiers', () => {
  it('are version-5 RFC 9562 UUIDs', () => {
    fc.assert(
      fc.property(fc.string(), (name) => {
        const id = uuidV5(name);
        expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      }),
    );
  });

  it('are stable: the same sheet row always gets the same identifier', () => {
    const hash = 'a'.repeat(64);
    expect(rowIdentifier(hash, 12)).toBe(rowIdentifier(hash, 12));
    // Pinned so that a change of namespace or algorithm (which would re-pay interrupted imports) fails loudly.
    expect(rowIdentifier(hash, 12)).toBe(uuidV5(`row:${hash}:12`));
    expect(uuidV5('paybatch')).toBe('884c79e6-f7e0-529f-8082-b1708f44a2f2');
  });

  it('matches the RFC 9562 / Python uuid.uuid5 vector (DNS namespace, "www.example.com")', () => {
    expect(uuidV5('www.example.com', '6ba7b810-9dad-11d1-80b4-00c04fd430c8')).toBe('2ed6657d-e927-568b-95e1-2665a8aea6a2');
  });

  it('differ between rows, sheets and attempts', () => {
    const ids = new Set([rowIdentifier('a', 1), rowIdentifier('a', 2), rowIdentifier('b', 1), reprocessIdentifier(rowIdentifier('a', 1), 2), reprocessIdentifier(rowIdentifier('a', 1), 3)]);
    expect(ids.size).toBe(5);
  });

  it('recognises UUIDs of any version', () => {
    expect(isUuid('123e4567-e89b-12d3-a456-426614174000')).toBe(true);
    expect(isUuid('123E4567-E89B-42D3-A456-426614174000')).toBe(true);
    expect(isUuid('123e4567e89b12d3a456426614174000')).toBe(false);
  });
});

import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { approvalMessage, batchCanonicalText, batchDigest, billDigest } from '../../src/domain/approval-digest.js';

const sha256 = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex');
const ana = { identifier: '00000000-0000-4000-8000-000000000002', key: 'ana|souza@example.com', document: '52998224725', amountCents: 150_000, destination: '{"branch":"0001"}' };
const bruno = { identifier: '00000000-0000-4000-8000-000000000001', key: '+5511987654321', document: null, amountCents: 99, destination: null };

describe('the content digest of a batch', () => {
  it('is the SHA-256 of the batch id, the items sorted by identifier, their count and total', () => {
    const expected =
      'batch 7\n' +
      '00000000-0000-4000-8000-000000000001|+5511987654321||99|\n' +
      `00000000-0000-4000-8000-000000000002|ana%7Csouza@example.com|52998224725|150000|${sha256('{"branch":"0001"}')}\n` +
      'items 2\n' +
      'total 150099\n';
    expect(batchCanonicalText(7, [ana, bruno])).toBe(expected);
    expect(batchDigest(7, [ana, bruno])).toBe(sha256(expected));
    expect(batchDigest(7, [bruno, ana])).toBe(sha256(expected));
  });

  it('changes with any amount, key, document, destination, row or batch', () => {
    const base = batchDigest(7, [ana, bruno]);
    const variants = [
      batchDigest(7, [{ ...ana, amountCents: 150_001 }, bruno]),
      batchDigest(7, [{ ...ana, key: 'ana@example.com' }, bruno]),
      batchDigest(7, [{ ...ana, document: '11144477735' }, bruno]),
      batchDigest(7, [{ ...ana, destination: '{"branch":"0002"}' }, bruno]),
      batchDigest(7, [ana]),
      batchDigest(8, [ana, bruno]),
    ];
    expect(new Set([base, ...variants]).size).toBe(7);
  });
});

describe('the digest of a bill', () => {
  it('covers its line, amount, due date and which payment of it this is', () => {
    const line = '23793381286000782713695000063305516560000150000';
    expect(billDigest(line, 150_000, '2026-12-10', 1)).toBe(sha256(`bill ${line}\namount 150000\ndue 2026-12-10\nattempt 1\n`));
    expect(billDigest(line, 150_000, null, 2)).toBe(sha256(`bill ${line}\namount 150000\ndue -\nattempt 2\n`));
  });
});

describe('the message an approver signs', () => {
  it('is a version tag, the subject and the digest, one per line', () => {
    expect(approvalMessage('batch:7', 'ab12').toString('utf8')).toBe('paybatch-approval-v1\nbatch:7\nab12');
  });
});

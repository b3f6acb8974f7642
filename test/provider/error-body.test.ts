import { describe, expect, it } from 'vitest';
import { describeErrorBody, errorFromResponse } from '../../src/provider/error-body.js';
import { Redactor } from '../../src/provider/redact.js';

const none = new Redactor();
const read = (body: string, ct = 'application/json') => describeErrorBody(Buffer.from(body), ct, none);

describe('describeErrorBody reads any provider’s errors', () => {
  it.each([
    ['the sandbox shape', '{"error":{"code":"conflict","message":"identifier used","details":[{"field":"items[0].identifier","problem":"taken"}]}}', 'conflict', 'identifier used', [{ field: 'items[0].identifier', problem: 'taken' }]],
    ['code and message', '{"code":"E42","message":"Saldo insuficiente"}', 'E42', 'Saldo insuficiente', []],
    ['OAuth', '{"error":"invalid_grant","error_description":"expired"}', 'invalid_grant', 'expired', []],
    ['RFC 9457', '{"type":"about:blank","title":"Bad Request","detail":"amount must be positive","errors":[{"path":"amount","message":"> 0"}]}', null, 'amount must be positive', [{ field: 'amount', problem: '> 0' }]],
    ['a framework 404', '{"message":"Route GET:/x not found","error":"Not Found","statusCode":404}', null, 'Route GET:/x not found', []],
    ['a JSON string', '"nope"', null, 'nope', []],
    ['a JSON number', '42', null, null, []],
    ['plain text', 'Service Unavailable\n  try again', null, 'Service Unavailable try again', []],
    ['empty', '', null, null, []],
  ])('%s', (_label, body, code, message, details) => {
    const info = read(body);
    expect(info.code).toBe(code);
    expect(info.message).toBe(message);
    expect(info.details).toEqual(details);
  });

  it('describes HTML pages without their markup and truncates long bodies', () => {
    const html = read(`<html><body>${'x'.repeat(5_000)}</body></html>`, 'text/html');
    expect(html.message).toBe('an HTML page');
    expect((html.body as string).length).toBeLessThan(2_100);
    const big = read(JSON.stringify({ error: { code: 'big', message: 'y'.repeat(20_000) } }));
    expect(big.code).toBe('big');
    expect(big.message!.length).toBeLessThan(400);
    expect(typeof big.body).toBe('string');
  });

  it('masks secrets, also when JSON escapes them in the raw text', () => {
    const r = new Redactor();
    r.add('pa"ss\\word-1');
    r.add('abc'); // too short to be treated as a secret
    const info = describeErrorBody(Buffer.from(JSON.stringify({ error: { code: 'x', message: 'got pa"ss\\word-1 abc' } })), 'application/json', r);
    expect(info.message).toBe('got [redacted] abc');
    expect(JSON.stringify(info.body)).not.toContain('ss\\\\word');
  });

  it('builds the ProviderError message with status, code, message and details', () => {
    const e = errorFromResponse(
      'POST',
      '/pix/batch/b1/items',
      { status: 422, headers: { 'content-type': 'application/json' }, body: Buffer.from('{"error":{"code":"invalid","message":"bad items","details":[{"field":"items[1].amount","problem":"must be positive"}]}}') },
      none,
    );
    expect(e.message).toBe('POST /pix/batch/b1/items failed with HTTP 422 (invalid: bad items) [items[1].amount: must be positive]');
    expect(e.status).toBe(422);
    expect(e.code).toBe('invalid');
    expect(e.outcomeUnknown).toBe(false);
    expect(e.hint).toMatch(/refused the data/);
  });
});

describe('Redactor', () => {
  it('masks the longest secret first and forgets old tokens', () => {
    const r = new Redactor();
    r.add('secret');
    r.add('secret-long');
    expect(r.text('a secret-long b secret')).toBe('a [redacted] b [redacted]');
    for (let i = 0; i < 20; i++) r.addToken(`token-${i}-xyz`);
    expect(r.text('token-0-xyz token-19-xyz secret')).toBe('token-0-xyz [redacted] [redacted]');
    expect(r.value({ 'secret-long': ['secret', 1, null] })).toEqual({ '[redacted]': ['[redacted]', 1, null] });
  });
});

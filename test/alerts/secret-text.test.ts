import { describe, expect, it } from 'vitest';
import { excerpt, redactSecrets, urlSecrets } from '../../src/alerts/secret-text.js';

describe('urlSecrets and redactSecrets', () => {
  it('mask a Slack webhook URL, its path and token in any message', () => {
    const url = 'https://hooks.slack.com/services/T0123456789/B1001010101/7IsoQTrixdUtE971O1xQTm4T';
    const s = urlSecrets(url);
    expect(redactSecrets(`POST ${url} failed`, s)).toBe('POST [redacted] failed');
    expect(redactSecrets('token 7IsoQTrixdUtE971O1xQTm4T echoed', s)).toBe('token [redacted] echoed');
    // Plain words of the path stay readable.
    expect(redactSecrets('no such services', s)).toBe('no such services');
  });

  it('mask a Teams Workflows signature', () => {
    const url = 'https://prod-23.westeurope.logic.azure.com:443/workflows/0f8fad5bd9cb469fa16570867728950e/triggers/manual/paths/invoke?api-version=2016-06-01&sig=AbCdEf0123456789xyz';
    expect(redactSecrets('bad sig=AbCdEf0123456789xyz', urlSecrets(url))).toBe('bad sig=[redacted]');
  });

  it('mask SMTP credentials, raw, percent-decoded and in SMTP AUTH base64', () => {
    const s = urlSecrets('smtps://ops%40corp.example:p%40ss%3Aw0rd!@mail.corp.example:465');
    const b64 = Buffer.from('\u0000ops@corp.example\u0000p@ss:w0rd!').toString('base64');
    const text = redactSecrets(`login p@ss:w0rd! / p%40ss%3Aw0rd! / ${b64} for ops@corp.example`, s);
    expect(text).toBe('login [redacted] / [redacted] / [redacted] for [redacted]');
  });

  it('ignore very short fragments and tolerate a malformed URL', () => {
    expect(redactSecrets('a b c', ['a', 'b'])).toBe('a b c');
    expect(urlSecrets('not a url')).toEqual(['not a url']);
  });

  it('excerpt makes one short line', () => {
    expect(excerpt('  a\n b\t c  ', 10)).toBe('a b c');
    expect(excerpt('abcdefghijkl', 5)).toBe('abcde…');
  });
});

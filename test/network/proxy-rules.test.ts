import { describe, expect, it } from 'vitest';
import { isLoopback, proxyFor, proxySecrets } from '../../src/network/proxy-rules.js';

/**
 * The expected values below come from curl's documented rules (curl(1) --proxy, --noproxy and its ENVIRONMENT
 * section; CURLOPT_PROXY, CURLOPT_NOPROXY, CURLOPT_PROXYPORT), with the product's own additions: HTTP_PROXY is read
 * after http_proxy, a no_proxy entry may end in `:port`, loopback targets never go through a proxy.
 */

type Env = Record<string, string>;

const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`, 'utf8').toString('base64')}`;

/** A proxy origin as `scheme://host:port`, the port spelled out even when it is the scheme's default. */
function originOf(url: URL): string {
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  return `${url.protocol}//${url.hostname}:${port}`;
}

/** What a call to proxyFor decided, in a form a table row can spell. */
type Decision = 'direct' | { readonly via: string; readonly source: string } | { readonly problem: string; readonly source: string };

function decide(target: string, env: Env, setting?: string): Decision {
  const result = proxyFor(new URL(target), setting === undefined ? { env } : { setting, env });
  if (result === null) return 'direct';
  if ('code' in result) return { problem: result.code, source: result.source };
  return { via: originOf(result.origin), source: result.source };
}

const PROXY = 'http://proxy.corp:3128';
const VIA: Decision = { via: 'http://proxy.corp:3128', source: 'https_proxy' };

describe('which proxy variable a target uses', () => {
  it.each<[string, string, Env, Decision]>([
    ['no variable at all: direct', 'https://api.example.com/', {}, 'direct'],
    ['https target, https_proxy', 'https://api.example.com/', { https_proxy: 'http://a.corp:1' }, { via: 'http://a.corp:1', source: 'https_proxy' }],
    ['https target, HTTPS_PROXY', 'https://api.example.com/', { HTTPS_PROXY: 'http://b.corp:2' }, { via: 'http://b.corp:2', source: 'HTTPS_PROXY' }],
    ['https target, both cases: lower-case wins', 'https://api.example.com/', { HTTPS_PROXY: 'http://b.corp:2', https_proxy: 'http://a.corp:1' }, { via: 'http://a.corp:1', source: 'https_proxy' }],
    ['https target, only http_proxy/HTTP_PROXY: direct', 'https://api.example.com/', { http_proxy: 'http://a.corp:1', HTTP_PROXY: 'http://b.corp:2' }, 'direct'],
    ['https target, all_proxy as the fallback', 'https://api.example.com/', { all_proxy: 'http://c.corp:3' }, { via: 'http://c.corp:3', source: 'all_proxy' }],
    ['https target, ALL_PROXY as the fallback', 'https://api.example.com/', { ALL_PROXY: 'http://d.corp:4' }, { via: 'http://d.corp:4', source: 'ALL_PROXY' }],
    ['all_proxy before ALL_PROXY', 'https://api.example.com/', { ALL_PROXY: 'http://d.corp:4', all_proxy: 'http://c.corp:3' }, { via: 'http://c.corp:3', source: 'all_proxy' }],
    ['the scheme variable before ALL_PROXY', 'https://api.example.com/', { ALL_PROXY: 'http://d.corp:4', HTTPS_PROXY: 'http://b.corp:2' }, { via: 'http://b.corp:2', source: 'HTTPS_PROXY' }],
    ['http target, http_proxy', 'http://api.example.com/', { http_proxy: 'http://a.corp:1' }, { via: 'http://a.corp:1', source: 'http_proxy' }],
    ['http target, HTTP_PROXY', 'http://api.example.com/', { HTTP_PROXY: 'http://b.corp:2' }, { via: 'http://b.corp:2', source: 'HTTP_PROXY' }],
    ['http target, both cases: lower-case wins', 'http://api.example.com/', { HTTP_PROXY: 'http://b.corp:2', http_proxy: 'http://a.corp:1' }, { via: 'http://a.corp:1', source: 'http_proxy' }],
    ['http target, only https_proxy: direct', 'http://api.example.com/', { https_proxy: 'http://a.corp:1', HTTPS_PROXY: 'http://b.corp:2' }, 'direct'],
    ['http target, ALL_PROXY as the fallback', 'http://api.example.com/', { ALL_PROXY: 'http://d.corp:4' }, { via: 'http://d.corp:4', source: 'ALL_PROXY' }],
  ])('%s', (_name, target, env, expected) => {
    expect(decide(target, env)).toEqual(expected);
  });
});

describe('no_proxy / NO_PROXY', () => {
  it.each<[string, string, string, Decision]>([
    ['`*` matches every host', '*', 'https://api.example.com/', 'direct'],
    ['a domain matches itself', 'example.com', 'https://example.com/', 'direct'],
    ['a domain matches its subdomains', 'example.com', 'https://api.example.com/', 'direct'],
    ['a domain matches subdomains at any depth', 'example.com', 'https://a.b.example.com/', 'direct'],
    ['a leading dot: still matches the subdomains', '.example.com', 'https://api.example.com/', 'direct'],
    ['a leading dot: still matches the domain itself', '.example.com', 'https://example.com/', 'direct'],
    ['a domain does not match one that merely ends with its letters', 'example.com', 'https://notexample.com/', VIA],
    ['a leading dot does not match one that merely ends with its letters', '.example.com', 'https://nonexample.com/', VIA],
    ['a domain does not match a longer name it begins', 'example.com', 'https://example.com.evil.org/', VIA],
    ['a subdomain entry does not match its parent', 'api.example.com', 'https://example.com/', VIA],
    ['a subdomain entry does not match a sibling', 'api.example.com', 'https://www.example.com/', VIA],
    ['matching ignores case', 'EXAMPLE.Com', 'https://API.example.com/', 'direct'],
    ["a trailing dot on the target's host is ignored", 'example.com', 'https://api.example.com./', 'direct'],
    ['a comma-separated list', 'foo.org,example.com', 'https://api.example.com/', 'direct'],
    ['a list with spaces after the commas', 'foo.org, example.com', 'https://api.example.com/', 'direct'],
    ['a space-separated list', 'foo.org example.com', 'https://api.example.com/', 'direct'],
    ['a list naming other hosts only', 'foo.org,bar.net', 'https://api.example.com/', VIA],
    ['an IPv4 address matches that address', '192.168.1.5', 'https://192.168.1.5/', 'direct'],
    ['an IPv4 address does not match an address it is a prefix of', '192.168.1.5', 'https://192.168.1.50/', VIA],
    ['an IPv4 CIDR range matches an address in it', '10.0.0.0/8', 'https://10.20.30.40/', 'direct'],
    ['an IPv4 CIDR range does not match an address outside it', '10.0.0.0/8', 'https://11.0.0.1/', VIA],
    ['a /16 range', '192.168.0.0/16', 'https://192.168.200.1/', 'direct'],
    ['a CIDR range matches no host name', '10.0.0.0/8', 'https://10.example.com/', VIA],
    ['an IPv6 address (no brackets) matches that address', '2001:db8::1', 'https://[2001:db8::1]/', 'direct'],
    ['an IPv6 CIDR range matches an address in it', 'fd00::/8', 'https://[fd12:3456::1]/', 'direct'],
    ['an IPv6 CIDR range does not match an address outside it', 'fd00::/8', 'https://[fe80::1]/', VIA],
    ['an entry with a port matches that port', 'example.com:8443', 'https://api.example.com:8443/', 'direct'],
    ['an entry with a port does not match another port', 'example.com:8443', 'https://api.example.com/', VIA],
    ["an entry with a port matches the scheme's default port", 'example.com:443', 'https://api.example.com/', 'direct'],
  ])('%s (%s, %s)', (_name, noProxy, target, expected) => {
    expect(decide(target, { https_proxy: PROXY, no_proxy: noProxy })).toEqual(expected);
    expect(decide(target, { https_proxy: PROXY, NO_PROXY: noProxy })).toEqual(expected);
  });

  it.each<[string, Env, Decision]>([
    ['no_proxy is read before NO_PROXY: only no_proxy counts when both are set', { no_proxy: 'foo.org', NO_PROXY: 'example.com' }, VIA],
    ['no_proxy naming the host, NO_PROXY not', { no_proxy: 'example.com', NO_PROXY: 'foo.org' }, 'direct'],
  ])('%s', (_name, noProxyEnv, expected) => {
    expect(decide('https://api.example.com/', { https_proxy: PROXY, ...noProxyEnv })).toEqual(expected);
  });

  it('applies to ALL_PROXY too', () => {
    expect(decide('https://api.example.com/', { ALL_PROXY: PROXY, NO_PROXY: 'example.com' })).toBe('direct');
  });
});

describe("the profile's proxy setting", () => {
  const SET: Decision = { via: 'http://set.corp:8080', source: 'setting' };
  it.each<[string, string, string, Env, Decision]>([
    ['overrides the environment', 'http://set.corp:8080', 'https://api.example.com/', { https_proxy: PROXY, ALL_PROXY: PROXY }, SET],
    ['is used with no environment', 'http://set.corp:8080', 'https://api.example.com/', {}, SET],
    ['is used for http targets too', 'http://set.corp:8080', 'http://api.example.com/', { http_proxy: PROXY }, SET],
    ['is not subject to NO_PROXY=*', 'http://set.corp:8080', 'https://api.example.com/', { NO_PROXY: '*' }, SET],
    ['is not subject to a no_proxy naming the host', 'http://set.corp:8080', 'https://api.example.com/', { no_proxy: 'example.com' }, SET],
    ['`none`: direct, whatever the environment', 'none', 'https://api.example.com/', { https_proxy: PROXY, HTTPS_PROXY: PROXY, ALL_PROXY: PROXY }, 'direct'],
    ['`none` for http targets too', 'none', 'http://api.example.com/', { http_proxy: PROXY, ALL_PROXY: PROXY }, 'direct'],
  ])('%s', (_name, setting, target, env, expected) => {
    expect(decide(target, env, setting)).toEqual(expected);
  });
});

describe('loopback targets never go through a proxy', () => {
  const everyVariable: Env = { https_proxy: PROXY, HTTPS_PROXY: PROXY, http_proxy: PROXY, HTTP_PROXY: PROXY, all_proxy: PROXY, ALL_PROXY: PROXY };
  it.each([
    'http://localhost:8080/',
    'https://localhost/',
    'http://LOCALHOST:9000/',
    'http://sandbox.localhost:8080/',
    'http://127.0.0.1:8080/',
    'https://127.0.0.1/',
    'http://127.8.9.10:8080/',
    'http://127.255.255.254/',
    'http://[::1]:8080/',
  ])('%s', (target) => {
    expect(decide(target, everyVariable)).toBe('direct');
    expect(decide(target, {}, 'http://set.corp:8080')).toBe('direct');
  });

  it.each([
    'http://128.0.0.1/',
    'http://localhost.example.com/',
    'http://notlocalhost/',
    'http://[::2]/',
  ])('%s is not loopback: proxied', (target) => {
    expect(decide(target, everyVariable)).toMatchObject({ via: 'http://proxy.corp:3128' });
  });
});

describe('isLoopback', () => {
  it.each<[string, boolean]>([
    ['localhost', true],
    ['api.localhost', true],
    ['a.b.localhost', true],
    ['127.0.0.1', true],
    ['127.0.0.2', true],
    ['127.1.2.3', true],
    ['127.255.255.255', true],
    ['::1', true],
    ['0:0:0:0:0:0:0:1', true],
    ['128.0.0.1', false],
    ['126.255.255.255', false],
    ['10.0.0.1', false],
    ['0.0.0.0', false],
    ['::2', false],
    ['localhost.example.com', false],
    ['notlocalhost', false],
    ['mylocalhost', false],
    ['example.com', false],
  ])('%s: %s', (host, expected) => {
    expect(isLoopback(host)).toBe(expected);
  });
});

describe('the proxy URL', () => {
  it.each<[string, string, Decision]>([
    ['no scheme: http://, with its port', 'proxy.corp:3128', { via: 'http://proxy.corp:3128', source: 'setting' }],
    ['no scheme, no port: http:// on curl’s 1080', 'proxy.corp', { via: 'http://proxy.corp:1080', source: 'setting' }],
    ['http:// without port: 1080', 'http://proxy.corp', { via: 'http://proxy.corp:1080', source: 'setting' }],
    ['http:// without port, trailing slash: 1080', 'http://proxy.corp/', { via: 'http://proxy.corp:1080', source: 'setting' }],
    ['https:// without port: 443', 'https://proxy.corp', { via: 'https://proxy.corp:443', source: 'setting' }],
    ['https:// with a port', 'https://proxy.corp:8443', { via: 'https://proxy.corp:8443', source: 'setting' }],
    ['http:// on port 80 named explicitly', 'http://proxy.corp:80', { via: 'http://proxy.corp:80', source: 'setting' }],
    ['no scheme, port 80 named explicitly', 'proxy.corp:80', { via: 'http://proxy.corp:80', source: 'setting' }],
    ['an IPv4 proxy', '10.1.2.3:3128', { via: 'http://10.1.2.3:3128', source: 'setting' }],
    ['an IPv6 proxy in brackets', 'http://[fd00::1]:3128', { via: 'http://[fd00::1]:3128', source: 'setting' }],
    ['the scheme in upper case', 'HTTP://proxy.corp:3128', { via: 'http://proxy.corp:3128', source: 'setting' }],
    ['socks5://', 'socks5://proxy.corp:1080', { problem: 'proxy_scheme_unsupported', source: 'setting' }],
    ['socks5h://', 'socks5h://proxy.corp:1080', { problem: 'proxy_scheme_unsupported', source: 'setting' }],
    ['socks4://', 'socks4://proxy.corp:1080', { problem: 'proxy_scheme_unsupported', source: 'setting' }],
    ['socks4a://', 'socks4a://proxy.corp:1080', { problem: 'proxy_scheme_unsupported', source: 'setting' }],
    ['garbage: a space in the host', 'http://pro xy.corp:3128', { problem: 'proxy_url_invalid', source: 'setting' }],
    ['garbage: a port out of range', 'http://proxy.corp:99999', { problem: 'proxy_url_invalid', source: 'setting' }],
    ['garbage: a port that is no number', 'http://proxy.corp:port', { problem: 'proxy_url_invalid', source: 'setting' }],
    ['garbage: no host', 'http://', { problem: 'proxy_url_invalid', source: 'setting' }],
  ])('%s (%s)', (_name, proxyUrl, expected) => {
    expect(decide('https://api.example.com/', {}, proxyUrl)).toEqual(expected);
  });

  it('a problem names the variable it came from', () => {
    expect(decide('https://api.example.com/', { HTTPS_PROXY: 'socks5://proxy.corp:1080' })).toEqual({ problem: 'proxy_scheme_unsupported', source: 'HTTPS_PROXY' });
    expect(decide('http://api.example.com/', { all_proxy: 'http://proxy.corp:99999' })).toEqual({ problem: 'proxy_url_invalid', source: 'all_proxy' });
  });

  it('an unsupported scheme is named in the problem', () => {
    const result = proxyFor(new URL('https://api.example.com/'), { setting: 'socks5://proxy.corp:1080', env: {} });
    expect(result).toMatchObject({ code: 'proxy_scheme_unsupported', source: 'setting' });
    expect((result as { scheme: string }).scheme).toMatch(/socks5/i);
  });
});

describe('credentials in the proxy URL', () => {
  it.each<[string, string, string | null, string]>([
    ['user and password', 'http://alice:s3cret@proxy.corp:3128', basic('alice', 's3cret'), 'http://proxy.corp:3128'],
    ['a percent-encoded @ in the password', 'http://alice:p%40ss@proxy.corp:3128', basic('alice', 'p@ss'), 'http://proxy.corp:3128'],
    ['percent-encoded characters in user and password', 'http://alice%20b:p%3Ass%2F%25@proxy.corp:3128', basic('alice b', 'p:ss/%'), 'http://proxy.corp:3128'],
    ['no scheme, with credentials: still http://', 'alice:s3cret@proxy.corp:3128', basic('alice', 's3cret'), 'http://proxy.corp:3128'],
    ['https:// with credentials, default port', 'https://alice:s3cret@proxy.corp', basic('alice', 's3cret'), 'https://proxy.corp:443'],
    ['no credentials', 'http://proxy.corp:3128', null, 'http://proxy.corp:3128'],
  ])('%s', (_name, proxyUrl, authorization, via) => {
    for (const rules of [{ setting: proxyUrl, env: {} }, { env: { HTTPS_PROXY: proxyUrl } }]) {
      const route = proxyFor(new URL('https://api.example.com/'), rules);
      expect(route).not.toBeNull();
      expect(route).not.toHaveProperty('code');
      const { origin, authorization: sent } = route as { origin: URL; authorization: string | null };
      expect(sent).toBe(authorization);
      expect(originOf(origin)).toBe(via);
      expect(origin.username).toBe('');
      expect(origin.password).toBe('');
      expect(origin.href).not.toContain('@');
      expect(origin.href).not.toContain('s3cret');
      expect(origin.href).not.toContain('p%40ss');
    }
  });
});

describe('proxySecrets', () => {
  const hasBasic = (secrets: string[], user: string, password: string) => {
    const token = basic(user, password).slice('Basic '.length);
    return secrets.some((s) => s.includes(token));
  };

  it.each<[string, { setting?: string; env: Env }, [string, string][]]>([
    ['the setting', { setting: 'http://alice:p%40ss@proxy.corp:3128', env: {} }, [['alice', 'p@ss']]],
    ['the setting, without scheme', { setting: 'alice:s3cret@proxy.corp:3128', env: {} }, [['alice', 's3cret']]],
    ['HTTPS_PROXY', { env: { HTTPS_PROXY: 'http://bob:hunter2@proxy.corp:3128' } }, [['bob', 'hunter2']]],
    ['every variable with credentials', {
      env: {
        https_proxy: 'http://bob:hunter2@a.corp:3128',
        http_proxy: 'http://carol:tr0ub4dor@b.corp:3128',
        ALL_PROXY: 'http://dave:c0rrect%2Bhorse@c.corp:3128',
        HTTP_PROXY: 'http://d.corp:3128',
      },
    }, [['bob', 'hunter2'], ['carol', 'tr0ub4dor'], ['dave', 'c0rrect+horse']]],
  ])('%s: the decoded password and its Basic credentials', (_name, rules, credentials) => {
    const secrets = proxySecrets(rules);
    for (const [user, password] of credentials) {
      expect(secrets).toContain(password);
      expect(hasBasic(secrets, user, password)).toBe(true);
    }
  });

  it.each<[string, { setting?: string; env: Env }]>([
    ['no proxy at all', { env: {} }],
    ['a setting without credentials', { setting: 'http://proxy.corp:3128', env: {} }],
    ['`none`', { setting: 'none', env: {} }],
    ['variables without credentials', { env: { HTTPS_PROXY: 'http://proxy.corp:3128', http_proxy: 'proxy.corp:3128', ALL_PROXY: 'https://proxy.corp' } }],
  ])('%s: nothing', (_name, rules) => {
    expect(proxySecrets(rules).filter((s) => s !== '')).toEqual([]);
  });
});

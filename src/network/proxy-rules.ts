import { isIP } from 'node:net';

type Env = Readonly<Record<string, string | undefined>>;

/** Where a proxy choice came from: the profile's `proxy` setting, or the variable that named it. */
export type ProxySource = 'setting' | 'HTTPS_PROXY' | 'https_proxy' | 'HTTP_PROXY' | 'http_proxy' | 'ALL_PROXY' | 'all_proxy';

/** The proxy rules of one run: the profile's `proxy` setting over the environment's variables. */
export interface ProxyRules {
  /** The profile's `proxy` setting: a proxy URL for every call, `none` for no proxy at all; unset: the environment. */
  readonly setting?: string;
  readonly env: Env;
}

/** A proxy to reach a target through (HTTP CONNECT), with the credentials its URL carries. */
export interface ProxyRoute {
  /** `http:` or `https:`, host and port; no credentials. */
  readonly origin: URL;
  /** The proxy's port (its URL's, else curl's default: 1080 for http://, 443 for https://). */
  readonly port: number;
  /** The proxy URL as given, credentials included (a secret): for clients that take a URL (the e-mail relay's). */
  readonly url: string;
  /** `Basic …` when the URL carried user and password; a secret. */
  readonly authorization: string | null;
  readonly source: ProxySource;
}

export type ProxyProblem =
  | { readonly code: 'proxy_url_invalid'; readonly source: ProxySource }
  | { readonly code: 'proxy_scheme_unsupported'; readonly source: ProxySource; readonly scheme: string };

/** curl's default port of a proxy URL that names none. */
const CURL_PROXY_PORT: Readonly<Record<string, number>> = { 'http:': 1080, 'https:': 443 };

/**
 * The proxy a call to `target` goes through, by curl's rules: the setting when the profile has one (`none`: no
 * proxy); else `https_proxy`/`HTTPS_PROXY` for https targets and `http_proxy`/`HTTP_PROXY` for http ones (the
 * lower-case name first, as curl reads them), then `all_proxy`/`ALL_PROXY` (the only one for other protocols), unless `no_proxy`/`NO_PROXY` names the
 * host. Loopback targets (localhost, 127.0.0.0/8, ::1) never go through a proxy: the embedded sandbox lives there.
 * Returns null for a direct connection; a problem when the proxy URL cannot be used.
 */
export function proxyFor(target: URL, rules: ProxyRules): ProxyRoute | ProxyProblem | null {
  const host = bareHost(target.hostname);
  if (isLoopback(host)) return null;
  const chosen = chosenProxy(target.protocol, rules);
  if (chosen === null) return null;
  if (chosen.source !== 'setting' && bypassed(host, target.port || (target.protocol === 'https:' ? '443' : '80'), noProxyList(rules.env))) return null;
  return routeOf(chosen.url, chosen.source);
}

/** The proxy URL in force for targets of `protocol` and where it came from; null when there is none. */
function chosenProxy(protocol: string, rules: ProxyRules): { url: string; source: ProxySource } | null {
  if (rules.setting !== undefined) return rules.setting === 'none' ? null : { url: rules.setting, source: 'setting' };
  // Other protocols (an SMTP relay) follow curl's rule for them: only all_proxy.
  const names: readonly ProxySource[] =
    protocol === 'https:' ? ['https_proxy', 'HTTPS_PROXY', 'all_proxy', 'ALL_PROXY']
    : protocol === 'http:' ? ['http_proxy', 'HTTP_PROXY', 'all_proxy', 'ALL_PROXY']
    : ['all_proxy', 'ALL_PROXY'];
  for (const name of names) {
    const value = rules.env[name]?.trim();
    if (value) return { url: value, source: name };
  }
  return null;
}

function routeOf(text: string, source: ProxySource): ProxyRoute | ProxyProblem {
  // curl reads a proxy without a scheme as http://.
  const written = /^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `http://${text}`;
  let url: URL;
  try {
    url = new URL(written);
  } catch {
    return { code: 'proxy_url_invalid', source };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { code: 'proxy_scheme_unsupported', source, scheme: url.protocol.replace(/:$/, '') };
  const authorization = url.username
    ? `Basic ${Buffer.from(`${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`).toString('base64')}`
    : null;
  // URL drops a port equal to its scheme's (80 for http://): only a port the text does not name gets curl's default.
  const named = /^[a-z][a-z0-9+.-]*:\/\/(?:[^@/]*@)?(?:\[[^\]]*\]|[^:/]*):(\d+)/i.exec(written)?.[1];
  const port = Number(named ?? CURL_PROXY_PORT[url.protocol]);
  const origin = new URL(`${url.protocol}//${url.host}`);
  origin.port = String(port);
  url.port = String(port);
  return { origin, port, url: url.toString(), authorization, source };
}

/** The no_proxy entries (lower-case name first, as curl): host names, domains, IP addresses, CIDR ranges, `*`. */
function noProxyList(env: Env): string[] {
  const raw = env['no_proxy'] ?? env['NO_PROXY'] ?? '';
  return raw.split(/[\s,]+/).map((s) => s.trim().toLowerCase()).filter(Boolean);
}

/**
 * curl's no_proxy match: `*` alone matches every host; a name matches itself and its subdomains (a leading dot is
 * ignored: `.example.com` and `example.com` both match `api.example.com`); an IP address or CIDR range matches the
 * addresses in it. An entry may end in `:port` to match only that port.
 */
function bypassed(host: string, port: string, entries: readonly string[]): boolean {
  return entries.some((entry) => {
    if (entry === '*') return true;
    let name = entry;
    const withPort = /^(\[[^\]]+\]|[^:]+):(\d+)$/.exec(entry);
    if (withPort) {
      if (withPort[2] !== port) return false;
      name = withPort[1]!;
    }
    name = bareHost(name);
    if (name.includes('/')) return inRange(host, name);
    if (isIP(name)) return isIP(host) !== 0 && sameAddress(host, name);
    name = name.replace(/^\.+/, '');
    return host === name || host.endsWith(`.${name}`);
  });
}

/** Whether an IP address lies in a CIDR range (`10.0.0.0/8`, `fd00::/8`); a host name lies in none. */
function inRange(host: string, cidr: string): boolean {
  const [base, bitsText] = cidr.split('/') as [string, string];
  const family = isIP(base);
  if (family === 0 || isIP(host) !== family || !/^\d+$/.test(bitsText)) return false;
  const a = addressBits(host);
  const b = addressBits(base);
  const bits = Math.min(Number(bitsText), a.length);
  return a.slice(0, bits) === b.slice(0, bits);
}

function sameAddress(a: string, b: string): boolean {
  return isIP(a) === isIP(b) && addressBits(a) === addressBits(b);
}

/** An IPv4 or IPv6 address as a string of 32 or 128 bits. */
function addressBits(address: string): string {
  if (isIP(address) === 4) return address.split('.').map((n) => Number(n).toString(2).padStart(8, '0')).join('');
  const [head, tail] = address.includes('::') ? address.split('::') as [string, string] : [address, undefined];
  const groups = (s: string | undefined) => (s ? s.split(':') : []);
  const left = groups(head);
  const right = groups(tail);
  const all = tail === undefined ? left : [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  return all.map((g) => parseInt(g, 16).toString(2).padStart(16, '0')).join('');
}

function bareHost(host: string): string {
  return host.toLowerCase().replace(/^\[(.*)\]$/, '$1').replace(/\.$/, '');
}

/** localhost, *.localhost, 127.0.0.0/8 and ::1: this machine. */
export function isLoopback(host: string): boolean {
  const h = bareHost(host);
  return h === 'localhost' || h.endsWith('.localhost') || (isIP(h) === 4 && h.startsWith('127.')) || (isIP(h) === 6 && sameAddress(h, '::1'));
}

/** The secrets of every proxy URL the rules may use (passwords, their Basic credentials), for redaction. */
export function proxySecrets(rules: ProxyRules): string[] {
  const urls = [rules.setting, ...(['https_proxy', 'HTTPS_PROXY', 'http_proxy', 'HTTP_PROXY', 'all_proxy', 'ALL_PROXY'] as const).map((n) => rules.env[n])];
  return urls.flatMap((text) => {
    if (!text?.trim() || text === 'none') return [];
    const route = routeOf(text.trim(), 'setting');
    if ('code' in route || route.authorization === null) return [];
    const { password } = new URL(route.url);
    return [route.authorization, route.authorization.slice('Basic '.length), password, decodeURIComponent(password)].filter((s) => s.length >= 3);
  });
}

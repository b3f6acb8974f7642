import buildConnector from 'undici/lib/core/connect.js';
import type { buildConnector as BuildConnector } from 'undici';
import type { TlsIdentity } from './client-identity.js';
import { proxyFor, type ProxyProblem, type ProxyRoute, type ProxyRules } from './proxy-rules.js';
import { openTunnel } from './proxy-tunnel.js';
import { HANDSHAKE_REFUSAL } from './lasting-failure.js';

/** How this run reaches the outside: its TLS identity (client certificate, CA file) and its proxy rules. */
export interface Reach {
  readonly tls: TlsIdentity | null;
  readonly proxy: ProxyRules;
}

/** No client certificate, no CA file, the environment's proxy variables: what a run without settings gets. */
export function plainReach(env: Readonly<Record<string, string | undefined>>): Reach {
  return { tls: null, proxy: { env } };
}

/**
 * The `connect` option of an undici Pool for `origin` under `reach`: connections open directly (with the identity's
 * TLS context) or through the proxy its rules choose, tunnelled with CONNECT so TLS (and the client certificate) runs
 * end to end with the target. A server's refusal of the handshake is told to `onRefusal`: under TLS 1.3 it arrives
 * after the connection is handed over, and undici reports only "other side closed".
 * Throws the proxy problem when the chosen proxy's URL cannot be used: a call never goes direct instead.
 */
export function connectOption(origin: URL, reach: Reach, timeoutMs: number, onRefusal: (code: string) => void): BuildConnector.connector {
  const tls = buildConnector({ timeout: timeoutMs, ...(origin.protocol === 'https:' ? reach.tls?.connect : {}) });
  const route = proxyFor(origin, reach.proxy);
  if (route !== null && 'code' in route) throw new ProxyRouteError(route);
  const open = route === null ? tls : tunnelled(route, tls, timeoutMs);
  return (opts, callback) =>
    open(opts, (error, socket) => {
      if (error && HANDSHAKE_REFUSAL.test((error as NodeJS.ErrnoException).code ?? '')) onRefusal((error as NodeJS.ErrnoException).code!);
      socket?.prependListener('error', (e: NodeJS.ErrnoException) => {
        if (HANDSHAKE_REFUSAL.test(e.code ?? '')) onRefusal(e.code!);
      });
      // undici's callback type is a union of its two shapes; each call here is one of them.
      (callback as (e: Error | null, s: typeof socket) => void)(error, socket);
    });
}

/** A proxy setting or variable that cannot be used (see ProxyProblem); checked before any call by the edge. */
export class ProxyRouteError extends Error {
  readonly problem: ProxyProblem;
  constructor(problem: ProxyProblem) {
    super(`${problem.code} (${problem.source})`);
    this.name = 'ProxyRouteError';
    this.problem = problem;
  }
}

function tunnelled(route: ProxyRoute, tls: BuildConnector.connector, timeoutMs: number): BuildConnector.connector {
  return (opts, callback) => {
    const host = opts.hostname.includes(':') ? `[${opts.hostname}]` : opts.hostname;
    const port = opts.port || (opts.protocol === 'https:' ? '443' : '80');
    // undici's connector is callback-style: the callback is the promise's only consumer.
    void openTunnel(route, `${host}:${port}`, { timeoutMs }).then(
      (socket) => {
        if (opts.protocol !== 'https:') callback(null, socket);
        else tls({ ...opts, httpSocket: socket }, callback);
      },
      (e: Error) => callback(e, null),
    );
  };
}

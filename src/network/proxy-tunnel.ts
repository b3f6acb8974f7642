import type { Socket } from 'node:net';
import type { ProxyRoute } from './proxy-rules.js';

/**
 * An error of the way through a proxy, before anything reached the target: `PROXY_AUTH_REQUIRED` (407: no or wrong
 * credentials in the proxy URL), `PROXY_REFUSED` (any other answer to CONNECT), `PROXY_UNREACHABLE` (the proxy itself
 * could not be reached). Carries the proxy's origin, never its credentials.
 */
export class ProxyTunnelError extends Error {
  readonly code: 'PROXY_AUTH_REQUIRED' | 'PROXY_REFUSED' | 'PROXY_UNREACHABLE';
  readonly proxy: string;
  readonly status: number | null;
  /** Why the proxy could not be reached (a system code, a timeout). */
  readonly reason: string | null;
  constructor(code: ProxyTunnelError['code'], o: { proxy: string; status: number | null; cause?: string }) {
    super(`${code} ${o.proxy}${o.status === null ? '' : ` HTTP ${o.status}`}${o.cause ? ` ${o.cause}` : ''}`);
    this.name = 'ProxyTunnelError';
    this.code = code;
    this.proxy = o.proxy;
    this.status = o.status;
    this.reason = o.cause ?? null;
  }
}

/**
 * Opens a tunnel to `target` (`host:port`) through an HTTP CONNECT proxy (RFC 9110 §9.3.6): the socket that comes
 * back is a raw byte stream to the target, so a TLS session on it runs end to end (a client certificate included).
 * An https:// proxy is reached over TLS trusting Node's roots (and NODE_EXTRA_CA_CERTS).
 */
export async function openTunnel(route: ProxyRoute, target: string, o: { timeoutMs: number }): Promise<Socket> {
  const proxy = route.origin.origin;
  const secure = route.origin.protocol === 'https:';
  const { request } = secure ? await import('node:https') : await import('node:http');
  return new Promise<Socket>((resolve, reject) => {
    const req = request({
      host: route.origin.hostname.replace(/^\[(.*)\]$/, '$1'),
      port: route.port,
      method: 'CONNECT',
      path: target,
      headers: { host: target, ...(route.authorization ? { 'proxy-authorization': route.authorization } : {}) },
      agent: false,
      timeout: o.timeoutMs,
    });
    req.once('connect', (res, socket, head) => {
      const status = res.statusCode ?? 0;
      if (status === 200) {
        // Bytes the proxy sent past its answer belong to the target's stream.
        if (head.length > 0) socket.unshift(head);
        socket.setTimeout(0);
        resolve(socket);
        return;
      }
      socket.destroy();
      reject(new ProxyTunnelError(status === 407 ? 'PROXY_AUTH_REQUIRED' : 'PROXY_REFUSED', { proxy, status }));
    });
    req.once('timeout', () => req.destroy(new ProxyTunnelError('PROXY_UNREACHABLE', { proxy, status: null, cause: `no answer within ${o.timeoutMs} ms` })));
    req.once('error', (e) =>
      reject(e instanceof ProxyTunnelError ? e : new ProxyTunnelError('PROXY_UNREACHABLE', { proxy, status: null, cause: (e as NodeJS.ErrnoException).code ?? e.message })),
    );
    req.end();
  });
}

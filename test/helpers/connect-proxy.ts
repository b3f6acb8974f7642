import { createServer } from 'node:http';
import { connect, type AddressInfo } from 'node:net';

export interface ConnectProxy {
  readonly url: string;
  /** Each CONNECT target asked for, in order (`host:port`). */
  readonly connects: string[];
  /** The Proxy-Authorization header of each CONNECT. */
  readonly auth: (string | undefined)[];
  close(): Promise<void>;
}

/**
 * An HTTP CONNECT proxy written for the tests: it tunnels every target to `port` on this machine (as a proxy that
 * resolves the provider's name would), or answers `answer` instead; with `credentials` (`user:password`), a CONNECT
 * without them in Basic gets 407.
 */
export async function startConnectProxy(port: number, o: { answer?: number; credentials?: string } = {}): Promise<ConnectProxy> {
  const connects: string[] = [];
  const auth: (string | undefined)[] = [];
  const expected = o.credentials === undefined ? undefined : `Basic ${Buffer.from(o.credentials).toString('base64')}`;
  const server = createServer((_q, res) => res.writeHead(405).end());
  server.on('connect', (req, socket) => {
    connects.push(req.url ?? '');
    auth.push(req.headers['proxy-authorization']);
    const status = o.answer ?? (expected !== undefined && req.headers['proxy-authorization'] !== expected ? 407 : 200);
    if (status !== 200) {
      socket.end(`HTTP/1.1 ${status} No\r\n${status === 407 ? 'Proxy-Authenticate: Basic realm="corp"\r\n' : ''}content-length: 0\r\n\r\n`);
      return;
    }
    const upstream = connect(port, '127.0.0.1', () => {
      socket.write('HTTP/1.1 200 Connection established\r\n\r\n');
      upstream.pipe(socket).pipe(upstream);
    });
    upstream.on('error', () => socket.destroy());
    socket.on('error', () => upstream.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    connects,
    auth,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

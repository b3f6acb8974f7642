import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  method: string;
  path: string;
  contentType: string | undefined;
  body: string;
}

export interface FakeWebhook {
  /** A Slack-like URL whose path is the secret. */
  url: string;
  /** The secret part of the URL. */
  token: string;
  received: Received[];
  close(): Promise<void>;
}

export const WEBHOOK_TOKEN = 'T0SECRET42/B0SECRET43/xoxSECRETwebhooktoken9f3';

/** An incoming-webhook stand-in on 127.0.0.1; `answer` decides the response (default 200 "ok"); 'hang' never answers. */
export async function startFakeWebhook(
  answer: (req: Received) => { status: number; body: string } | 'hang' = () => ({ status: 200, body: 'ok' }),
): Promise<FakeWebhook> {
  const received: Received[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const r: Received = { method: req.method ?? '', path: req.url ?? '', contentType: req.headers['content-type'], body: Buffer.concat(chunks).toString('utf8') };
      received.push(r);
      const a = answer(r);
      if (a === 'hang') return;
      res.writeHead(a.status, { 'content-type': 'text/plain' }).end(a.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/services/${WEBHOOK_TOKEN}?sig=SIGsecret0123456789`,
    token: WEBHOOK_TOKEN,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Every fragment of the fake URL that must never appear in a result. */
export function webhookSecretFragments(url: string): string[] {
  return [url, WEBHOOK_TOKEN, 'xoxSECRETwebhooktoken9f3', 'SIGsecret0123456789', '/services/'];
}

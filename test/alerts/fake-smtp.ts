import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

export interface CapturedMail {
  from: string;
  to: string[];
  /** The DATA section as received (headers, blank line, body; dot-stuffing removed). */
  data: string;
}

export interface FakeSmtp {
  port: number;
  mails: CapturedMail[];
  /** AUTH commands received, as sent (base64 included). */
  auths: string[];
  close(): Promise<void>;
}

export interface FakeSmtpOptions {
  /** Advertise AUTH PLAIN and refuse every login with 535, echoing what the client sent (to test redaction). */
  refuseAuth?: boolean;
  /** Accept the connection but never greet. */
  silent?: boolean;
  /** Refuse RCPT TO for this address with 550. */
  refuseRecipient?: string;
}

/** A minimal SMTP server: EHLO/HELO, AUTH PLAIN, MAIL FROM, RCPT TO, DATA, RSET, NOOP, QUIT. No TLS. */
export async function startFakeSmtp(o: FakeSmtpOptions = {}): Promise<FakeSmtp> {
  const mails: CapturedMail[] = [];
  const auths: string[] = [];
  const sockets = new Set<Socket>();

  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    if (o.silent) return;
    socket.setEncoding('utf8');
    const say = (line: string) => socket.write(`${line}\r\n`);
    let buffer = '';
    let inData = false;
    let mail: CapturedMail = { from: '', to: [], data: '' };
    let dataLines: string[] = [];

    say('220 fake.test ESMTP ready');
    socket.on('data', (chunk: string) => {
      buffer += chunk;
      let at: number;
      while ((at = buffer.indexOf('\r\n')) >= 0) {
        const line = buffer.slice(0, at);
        buffer = buffer.slice(at + 2);
        if (inData) {
          if (line === '.') {
            inData = false;
            mail.data = dataLines.join('\r\n');
            mails.push(mail);
            mail = { from: '', to: [], data: '' };
            say('250 2.0.0 queued');
          } else {
            dataLines.push(line.startsWith('..') ? line.slice(1) : line);
          }
          continue;
        }
        const verb = line.split(' ')[0]!.toUpperCase();
        if (verb === 'EHLO') {
          if (o.refuseAuth) say('250-fake.test');
          say(o.refuseAuth ? '250 AUTH PLAIN' : '250 fake.test');
        } else if (verb === 'HELO' || verb === 'RSET' || verb === 'NOOP') {
          say('250 ok');
        } else if (verb === 'AUTH') {
          auths.push(line);
          const blob = line.split(' ')[2] ?? '';
          const decoded = Buffer.from(blob, 'base64').toString('utf8').replaceAll('\u0000', ' ');
          say(`535 5.7.8 authentication failed for ${blob} (${decoded})`);
        } else if (verb === 'MAIL') {
          mail.from = line.slice(line.indexOf(':') + 1).trim();
          say('250 ok');
        } else if (verb === 'RCPT') {
          const to = line.slice(line.indexOf(':') + 1).trim();
          if (o.refuseRecipient && to.includes(o.refuseRecipient)) {
            say('550 5.1.1 no such user');
          } else {
            mail.to.push(to);
            say('250 ok');
          }
        } else if (verb === 'DATA') {
          inData = true;
          dataLines = [];
          say('354 end with <CRLF>.<CRLF>');
        } else if (verb === 'QUIT') {
          say('221 bye');
          socket.end();
        } else {
          say('502 command not implemented');
        }
      }
    });
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    mails,
    auths,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Headers (unfolded, lower-case names) and body of a captured message. */
export function parseMail(data: string): { headers: Map<string, string>; body: string } {
  const split = data.indexOf('\r\n\r\n');
  const head = data.slice(0, split).replace(/\r\n[ \t]+/g, ' ');
  const headers = new Map<string, string>();
  for (const line of head.split('\r\n')) {
    const colon = line.indexOf(':');
    headers.set(line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim());
  }
  let body = data.slice(split + 4);
  const encoding = headers.get('content-transfer-encoding')?.toLowerCase();
  if (encoding === 'quoted-printable') {
    const bytes = body.replace(/=\r\n/g, '').replace(/=([0-9A-F]{2})/gi, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
    body = Buffer.from(bytes, 'latin1').toString('utf8');
  } else if (encoding === 'base64') {
    body = Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  }
  return { headers, body: body.replace(/\r\n/g, '\n') };
}

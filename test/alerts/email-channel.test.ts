import { hostname } from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { sendEmailAlert } from '../../src/alerts/email-channel.js';
import { startFakeSmtp, parseMail, type FakeSmtp } from './fake-smtp.js';
import { alert, item } from './fixtures.js';

let smtp: FakeSmtp | undefined;
afterEach(async () => {
  await smtp?.close();
  smtp = undefined;
});

/** Undoes RFC 2047 Q-encoding of a header (UTF-8 encoded words; the space between two of them is not text). */
function decodeWords(header: string): string {
  return header
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?UTF-8\?Q\?(.*?)\?=/gi, (_, q: string) =>
      Buffer.from(q.replace(/_/g, ' ').replace(/=([0-9A-F]{2})/gi, (_m, h: string) => String.fromCharCode(parseInt(h, 16))), 'latin1').toString('utf8'),
    );
}

const PASSWORD = 'p@ss:SECRET-smtp-9x';
const USER = 'alerts@corp.example';

describe('sendEmailAlert', () => {
  it('sends a plain-text mail: subject = title, body = the rendered alert', async () => {
    smtp = await startFakeSmtp();
    const a = alert({ items: [item(0, { recipient: 'João Conceição' }), item(1)] });
    const result = await sendEmailAlert(a, { to: 'support@corp.example, ops@corp.example', smtpUrl: `smtp://127.0.0.1:${smtp.port}?ignoreTLS=true`, timeoutMs: 3000 });
    expect(result).toEqual({ channel: 'email', ok: true, error: null });
    expect(smtp.mails).toHaveLength(1);
    const mail = smtp.mails[0]!;
    expect(mail.from).toBe(`<paybatch@${hostname()}>`);
    expect(mail.to).toEqual(['<support@corp.example>', '<ops@corp.example>']);
    const { headers, body } = parseMail(mail.data);
    expect(headers.get('subject')).toBe('2 Pix payments without news');
    expect(headers.get('x-paybatch-alert-id')).toBe('7');
    expect(headers.get('x-paybatch-alert-kind')).toBe('stale-items');
    expect(headers.get('content-type')).toMatch(/^text\/plain/);
    expect(body).toContain('These items have had no update');
    expect(body).toContain('- folha-maio line 1: João Conceição (pessoa0@example.com), R$ 1.234,56, processing since 2025-05-02 07:00');
    expect(body).toContain('- folha-maio line 2: Maria 1');
  });

  it('marks sandbox alerts in the subject', async () => {
    smtp = await startFakeSmtp();
    const result = await sendEmailAlert(alert({ sandbox: true }), { to: 'support@corp.example', smtpUrl: `smtp://127.0.0.1:${smtp.port}?ignoreTLS=true`, timeoutMs: 3000 });
    expect(result.ok).toBe(true);
    expect(parseMail(smtp.mails[0]!.data).headers.get('subject')).toBe('[SANDBOX] 3 Pix payments without news');
  });

  it('uses the From: address and the locale it is given', async () => {
    smtp = await startFakeSmtp();
    const a = alert({ kind: 'bill-return' }, 1);
    const result = await sendEmailAlert(a, { to: 'support@corp.example', smtpUrl: `smtp://127.0.0.1:${smtp.port}?ignoreTLS=true`, timeoutMs: 3000, from: 'Pagamentos <pagamentos@corp.example>', locale: 'pt-BR' });
    expect(result.ok, result.error ?? '').toBe(true);
    expect(smtp.mails[0]!.from).toBe('<pagamentos@corp.example>');
    const { headers, body } = parseMail(smtp.mails[0]!.data);
    expect(headers.get('from')).toBe('Pagamentos <pagamentos@corp.example>');
    expect(decodeWords(headers.get('subject')!)).toBe('1 pagamento de conta devolvido pelo beneficiário');
    expect(body).toContain('O que fazer: leia o motivo de cada conta');
  });

  it('reports a refused login without the user, the password or their base64', async () => {
    smtp = await startFakeSmtp({ refuseAuth: true });
    const smtpUrl = `smtp://${encodeURIComponent(USER)}:${encodeURIComponent(PASSWORD)}@127.0.0.1:${smtp.port}?ignoreTLS=true`;
    const result = await sendEmailAlert(alert(), { to: 'support@corp.example', smtpUrl, timeoutMs: 3000 });
    expect(result.ok).toBe(false);
    expect(smtp.auths).toHaveLength(1);
    // The server echoed the credentials; the result must not.
    const blob = smtp.auths[0]!.split(' ')[2]!;
    expect(result.error).toMatch(new RegExp(`^alert e-mail via 127\\.0\\.0\\.1:${smtp.port} failed: .*535`));
    for (const s of [PASSWORD, encodeURIComponent(PASSWORD), USER, encodeURIComponent(USER), blob, smtpUrl]) expect(result.error).not.toContain(s);
  });

  it('reports a refused recipient', async () => {
    smtp = await startFakeSmtp({ refuseRecipient: 'ghost@' });
    const result = await sendEmailAlert(alert(), { to: 'support@corp.example, ghost@corp.example', smtpUrl: `smtp://127.0.0.1:${smtp.port}`, timeoutMs: 3000 });
    expect(result).toEqual({ channel: 'email', ok: false, error: `alert e-mail via 127.0.0.1:${smtp.port}: the server refused ghost@corp.example` });
  });

  it('gives up on a server that never greets', async () => {
    smtp = await startFakeSmtp({ silent: true });
    const started = Date.now();
    const result = await sendEmailAlert(alert(), { to: 'support@corp.example', smtpUrl: `smtp://u:${encodeURIComponent(PASSWORD)}@127.0.0.1:${smtp.port}`, timeoutMs: 300 });
    // The server never greets: returning at all is the timeout at work; the bound only tells that from a call left
    // hanging, with room for a loaded machine.
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(result.ok).toBe(false);
    expect(result.error).toMatch(/^alert e-mail via 127\.0\.0\.1:\d+ (failed|was not accepted)/);
    expect(result.error).not.toContain(PASSWORD);
  });

  it('reports an unreachable server and a malformed URL without secrets', async () => {
    smtp = await startFakeSmtp();
    const port = smtp.port;
    await smtp.close();
    smtp = undefined;
    const down = await sendEmailAlert(alert(), { to: 'a@b.example', smtpUrl: `smtps://u:${encodeURIComponent(PASSWORD)}@127.0.0.1:${port}`, timeoutMs: 2000 });
    expect(down.ok).toBe(false);
    expect(down.error).toContain('ECONNREFUSED');
    expect(down.error).not.toContain(PASSWORD);
    const wrong = await sendEmailAlert(alert(), { to: 'a@b.example', smtpUrl: `https://u:${PASSWORD}@mail.example`, timeoutMs: 500 });
    expect(wrong).toEqual({ channel: 'email', ok: false, error: 'the SMTP URL must start with smtp:// or smtps://' });
  });
});

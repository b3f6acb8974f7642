import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { storedAlertWords } from '../../src/alerts/alert.js';
import { explainApprovalRefusal } from '../../src/cli/messages/approval-words.js';
import { parseDaemonOptions } from '../../src/cli/commands/daemon.js';
import { parseListen, parseUiOptions } from '../../src/cli/commands/ui.js';
import { openLedger, type Ledger } from '../../src/ledger/open-ledger.js';
import { buildDashboardApp, startDashboard } from '../../src/ui/dashboard-server.js';
import { usePostgresDatabases } from '../helpers/postgres.js';
import { useTempDir } from '../helpers/temp-dir.js';
import { AT, HOST, PLANTED_SECRETS, REPORTS, TOKEN, seedDashboardLedger, useOpened } from './dashboard-fixture.js';

const tempDir = useTempDir();
const postgresDatabase = usePostgresDatabases();
const opened = useOpened();

const ORIGIN = `http://${HOST}`;
const COOKIE_NAME = 'paybatch-ui-8788';

type Backend = 'sqlite' | 'postgres';

async function ledgerWithBatch(dir: string, backend: Backend = 'sqlite'): Promise<{ ledger: Ledger; receipt: string; billDocument: string }> {
  const ledger = await openLedger(backend === 'sqlite' ? join(dir, 'ledger.db') : await postgresDatabase());
  opened.push(ledger);
  return { ledger, ...(await seedDashboardLedger(ledger, dir)) };
}

async function dashboard(locale: 'en' | 'pt-BR' = 'en', backend: Backend = 'sqlite') {
  const fixture = await ledgerWithBatch(tempDir(), backend);
  const { app } = buildDashboardApp({ ledger: fixture.ledger, locale, alertWords: (a) => storedAlertWords(a, locale), reports: REPORTS, token: TOKEN, hosts: [HOST], now: () => new Date('2026-11-23T18:00:00.000Z') });
  opened.push(app);
  return { app, ...fixture };
}

/** Signs in with the token as a browser does; returns the cookie and the page's CSRF token. */
async function signIn(app: FastifyInstance): Promise<{ cookie: string; csrf: string }> {
  const first = await app.inject({ method: 'GET', url: `/?token=${TOKEN}`, headers: { host: HOST } });
  const cookie = String(first.headers['set-cookie']).split(';')[0]!;
  const page = await app.inject({ method: 'GET', url: '/', headers: { host: HOST, cookie } });
  const csrf = /<meta name="csrf-token" content="([^"]+)">/.exec(page.body)![1]!;
  return { cookie, csrf };
}

const ROUTES: [string, string][] = [
  ['GET', '/'], ['GET', '/assets/app.js'], ['GET', '/assets/style.css'], ['GET', '/api/batches'], ['GET', '/api/batches/1'],
  ['GET', '/api/batches/1/items?status=paid'], ['GET', '/api/batches/1/calls'], ['GET', '/api/alerts?all=1'], ['GET', '/api/bills'],
  ['GET', '/api/receipts'], ['GET', '/api/approvals'], ['GET', '/api/status'], ['GET', '/receipts/item/1'], ['GET', '/receipts/bill/1'], ['GET', '/no-such-page'],
  ['GET', '/api/statement?month=2026-11&format=csv'], ['GET', '/api/statement?month=2026-11&format=pdf'], ['GET', '/api/statement?format=ofx'],
  ['POST', '/api/alerts/1/ack'],
];

describe('paybatch ui: signing in', () => {
  it('answers 401 on every route without the token or the cookie, and with a wrong token or a forged cookie', async () => {
    const { app } = await dashboard();
    for (const [method, url] of ROUTES) {
      for (const headers of [{}, { cookie: `${COOKIE_NAME}=abc.def` }, { cookie: `${COOKIE_NAME}=abc` }]) {
        const res = await app.inject({ method: method as 'GET', url, headers: { host: HOST, origin: ORIGIN, ...headers } });
        expect({ method, url, headers, status: res.statusCode }).toEqual({ method, url, headers, status: 401 });
      }
      const wrong = await app.inject({ method: method as 'GET', url: `${url}${url.includes('?') ? '&' : '?'}token=${TOKEN}x`, headers: { host: HOST } });
      expect({ url, status: wrong.statusCode }).toEqual({ url, status: 401 });
    }
  });

  it('turns the token into an HttpOnly, SameSite=Strict cookie and sends the browser to the same address without it', async () => {
    const { app } = await dashboard();
    const first = await app.inject({ method: 'GET', url: `/api/batches?token=${TOKEN}&x=1`, headers: { host: HOST } });
    expect(first.statusCode).toBe(303);
    expect(first.headers.location).toBe('/api/batches?x=1');
    const setCookie = String(first.headers['set-cookie']);
    expect(setCookie).toMatch(new RegExp(`^${COOKIE_NAME}=[\\w-]+\\.[\\w-]+; HttpOnly; SameSite=Strict; Path=/$`));
    expect(setCookie).not.toContain(TOKEN);
    const cookie = setCookie.split(';')[0]!;
    const batches = await app.inject({ method: 'GET', url: '/api/batches', headers: { host: HOST, cookie } });
    expect(batches.statusCode).toBe(200);
    const sideways = await app.inject({ method: 'GET', url: `/\\evil.example/?token=${TOKEN}`, headers: { host: HOST } });
    expect(sideways.headers.location).toBe('/'); // never to another site
    // The cookie of another dashboard (another port) is not this one's.
    const other = await app.inject({ method: 'GET', url: '/api/batches', headers: { host: HOST, cookie: cookie.replace(COOKIE_NAME, 'paybatch-ui-9999') } });
    expect(other.statusCode).toBe(401);
  });

  it('refuses a Host it does not listen on (a page of another site resolved to 127.0.0.1), token or not', async () => {
    const { app } = await dashboard();
    const res = await app.inject({ method: 'GET', url: `/?token=${TOKEN}`, headers: { host: 'evil.example:8788' } });
    expect(res.statusCode).toBe(403);
    expect(res.headers['set-cookie']).toBeUndefined();
  });

  it('sends the security headers: no inline script, no framing, no referrer, nothing cached', async () => {
    const { app } = await dashboard();
    const { cookie } = await signIn(app);
    const page = await app.inject({ method: 'GET', url: '/', headers: { host: HOST, cookie } });
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe-inline');
    expect(page.headers['x-frame-options']).toBe('DENY');
    expect(page.headers['referrer-policy']).toBe('no-referrer');
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.body).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/); // every script is a file
  });
});

describe.each(['sqlite', 'postgres'] as const)('paybatch ui: actions (%s ledger)', (backend) => {
  it('acknowledges an alert only with the page CSRF token and the dashboard origin', async () => {
    const { app, ledger } = await dashboard('en', backend);
    const { cookie, csrf } = await signIn(app);
    const ack = (headers: Record<string, string>) => app.inject({ method: 'POST', url: '/api/alerts/1/ack', headers: { host: HOST, cookie, ...headers } });
    expect((await ack({ origin: ORIGIN })).statusCode).toBe(403);
    expect((await ack({ origin: ORIGIN, 'x-csrf-token': `${csrf}x` })).statusCode).toBe(403);
    expect((await ack({ origin: 'http://evil.example', 'x-csrf-token': csrf })).statusCode).toBe(403);
    expect((await ack({ 'x-csrf-token': csrf })).statusCode).toBe(403);
    expect((await ledger.first(ledger.db.selectFrom('alerts').select('acked_at').where('id', '=', 1)))?.acked_at).toBeNull();

    const done = await ack({ origin: ORIGIN, 'x-csrf-token': csrf });
    expect(done.statusCode).toBe(200);
    expect(done.json()).toEqual({ ok: true });
    expect((await ledger.first(ledger.db.selectFrom('alerts').select('acked_at').where('id', '=', 1)))?.acked_at).toBe('2026-11-23T18:00:00.000Z');
    const open = await app.inject({ method: 'GET', url: '/api/alerts', headers: { host: HOST, cookie } });
    expect(open.json().alerts).toEqual([]);
    const missing = await app.inject({ method: 'POST', url: '/api/alerts/99/ack', headers: { host: HOST, cookie, origin: ORIGIN, 'x-csrf-token': csrf } });
    expect(missing.statusCode).toBe(404);
  });

  it('serves a receipt by the ledger id of its item or bill, from the path the ledger recorded, framable only by itself', async () => {
    const { app } = await dashboard('en', backend);
    const { cookie } = await signIn(app);
    const get = (url: string) => app.inject({ method: 'GET', url, headers: { host: HOST, cookie } });
    const receipt = await get('/receipts/item/1');
    expect(receipt.statusCode).toBe(200);
    expect(receipt.headers['content-type']).toBe('application/pdf');
    expect(receipt.body).toBe('%PDF-1.4 receipt of Ana\n%%EOF\n');
    expect(receipt.headers['content-security-policy']).toBe("frame-ancestors 'self'");
    expect(receipt.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect((await get('/receipts/bill/1')).body).toBe('%PDF-1.4 bill receipt\n%%EOF\n');
    expect((await get('/receipts/item/2')).statusCode).toBe(404); // failed: no receipt
    expect((await get('/receipts/item/77')).statusCode).toBe(404);
    for (const url of ['/receipts/item/..%2F..%2Fetc%2Fpasswd', '/receipts/item/1.pdf', '/receipts/file/1', `/receipts/item/${encodeURIComponent('/etc/passwd')}`]) {
      expect({ url, status: (await get(url)).statusCode }).toEqual({ url, status: expect.toSatisfy((s: number) => s === 400 || s === 404) });
    }
  });
});

describe.each(['sqlite', 'postgres'] as const)('paybatch ui: what the API shows (%s ledger)', (backend) => {
  it('lists batches with counts, sums and the settled share by status, amounts and times in pt-BR', async () => {
    const { app } = await dashboard('pt-BR', backend);
    const { cookie } = await signIn(app);
    const { batches, zone } = (await app.inject({ method: 'GET', url: '/api/batches', headers: { host: HOST, cookie } })).json();
    expect(zone).toBe('horário de São Paulo');
    expect(batches).toHaveLength(1);
    const b = batches[0];
    expect(b).toMatchObject({
      id: 1, name: 'Folha de novembro', status: 'started', statusText: 'iniciado', itemCount: 4, totalCents: 228_465, total: 'R$ 2.284,65',
      paidCents: 123_466, paid: 'R$ 1.234,66', settledCount: 3, settledShare: 0.75, settledPercent: '75%', created: '23/11/2026 12:04',
    });
    expect(b.byStatus.filter((s: { count: number }) => s.count > 0)).toEqual([
      { status: 'processing', statusText: 'em processamento', count: 1, sumCents: 99_999, sum: 'R$ 999,99' },
      { status: 'paid', statusText: 'pago', count: 2, sumCents: 123_466, sum: 'R$ 1.234,66' },
      { status: 'failed', statusText: 'falhou', count: 1, sumCents: 5_000, sum: 'R$ 50,00' },
    ]);
    const detail = (await app.inject({ method: 'GET', url: '/api/batches/1', headers: { host: HOST, cookie } })).json().batch;
    // From nothing at the start, each payment, up to now (the batch still runs).
    expect(detail.paidOverTime).toEqual([
      { at: AT, time: '23/11/2026 12:04', paidCents: 0, paid: 'R$ 0,00' },
      { at: '2026-11-23T15:05:00.000Z', time: '23/11/2026 12:05', paidCents: 123_456, paid: 'R$ 1.234,56' },
      { at: '2026-11-23T15:07:00.000Z', time: '23/11/2026 12:07', paidCents: 123_466, paid: 'R$ 1.234,66' },
      { at: '2026-11-23T18:00:00.000Z', time: '23/11/2026 15:00', paidCents: 123_466, paid: 'R$ 1.234,66' },
    ]);
    const bills = (await app.inject({ method: 'GET', url: '/api/bills', headers: { host: HOST, cookie } })).json().bills;
    // Settled on Monday 23/11/2026: its beneficiary's bank may return it for 5 business days, up to Monday 30/11.
    expect(bills[0]).toMatchObject({
      id: 1, status: 'paid', statusText: 'pago', amount: 'R$ 87,45', due: '30/11/2026', settle: '23/11/2026', returnableUntil: '2026-11-30',
      returnableUntilText: '30/11/2026', hasDocument: true,
    });
  });

  it('filters a batch’s items by status and by a part of the name, key, document or line, in any case', async () => {
    const { app } = await dashboard('en', backend);
    const { cookie } = await signIn(app);
    const lines = async (query: string) => {
      const res = (await app.inject({ method: 'GET', url: `/api/batches/1/items?${query}`, headers: { host: HOST, cookie } })).json();
      return { total: res.total, lines: res.items.map((i: { line: number }) => i.line) };
    };
    expect(await lines('')).toEqual({ total: 4, lines: [2, 3, 4, 5] });
    expect(await lines('status=paid')).toEqual({ total: 2, lines: [2, 5] });
    expect(await lines('q=ANA')).toEqual({ total: 1, lines: [2] });
    expect(await lines('q=carla%40exemplo')).toEqual({ total: 1, lines: [4] });
    expect(await lines('q=444.777')).toEqual({ total: 1, lines: [4] });
    expect(await lines(`q=${encodeURIComponent('a_1')}`)).toEqual({ total: 1, lines: [5] }); // `_` and `%` are letters here, not wildcards
    expect(await lines(`q=${encodeURIComponent('%')}`)).toEqual({ total: 1, lines: [5] });
    expect(await lines('q=3')).toEqual({ total: 2, lines: [3, 4] }); // line 3, and the document of line 4 (…777-35)
    expect(await lines('status=paid&q=bruno')).toEqual({ total: 0, lines: [] });
    expect(await lines('limit=2&offset=1')).toEqual({ total: 4, lines: [3, 4] });
    const item = (await app.inject({ method: 'GET', url: '/api/batches/1/items?q=ana', headers: { host: HOST, cookie } })).json().items[0];
    expect(item).toMatchObject({ id: 1, name: 'Ana Souza', document: '529.982.247-25', amountCents: 123_456, amount: 'R$ 1.234,56', status: 'paid', hasReceipt: true });
    const bad = await app.inject({ method: 'GET', url: '/api/batches/1/items?status=lost', headers: { host: HOST, cookie } });
    expect(bad.statusCode).toBe(400);
  });

  it('never puts a secret or the token in a page or an API answer', async () => {
    const { app } = await dashboard('en', backend);
    const { cookie } = await signIn(app);
    const calls = (await app.inject({ method: 'GET', url: '/api/batches/1/calls', headers: { host: HOST, cookie } })).json().calls;
    expect(calls.map((c: { facts: string[] }) => c.facts)).toEqual([
      ['remoteId: remote-1', 'identifiers: 4'],
      ['remoteId: remote-1', 'created: {"id":"remote-1","auth":{}}'],
      ['name: Folha de novembro [pb:1]'],
    ]);
    for (const [method, url] of ROUTES.filter(([m]) => m === 'GET')) {
      const res = await app.inject({ method: method as 'GET', url, headers: { host: HOST, cookie } });
      for (const secret of [...PLANTED_SECRETS, TOKEN]) expect({ url, leaks: res.body.includes(secret) }).toEqual({ url, leaks: false });
    }
  });
});

describe.each(['sqlite', 'postgres'] as const)('paybatch ui: documents and reasons as statements say them (%s ledger)', (backend) => {
  it('shows every row’s document, from the sheet or else the key lookup: a CPF masked, a CNPJ formatted in full', async () => {
    const { app } = await dashboard('en', backend);
    const { cookie } = await signIn(app);
    const items = (await app.inject({ method: 'GET', url: '/api/batches/1/items', headers: { host: HOST, cookie } })).json().items;
    expect(items.map((i: { line: number; document: string | null; documentText: string | null }) => [i.line, i.document, i.documentText])).toEqual([
      [2, '529.982.247-25', '***.982.247-**'], // the sheet's CPF
      [3, '***.123.456-**', '***.123.456-**'], // an e-mail key: the CPF the key lookup answered, hidden by the provider
      [4, '111.444.777-35', '***.444.777-**'],
      [5, '12345678000195', '12.345.678/0001-95'], // a company: its CNPJ is public
    ]);
  });

  it('says a failure’s reason, a bill’s return and an alert item’s reason in the dashboard’s language', async () => {
    const { app: en, ledger } = await dashboard('en', backend);
    await ledger.run(
      ledger.db.insertInto('bills').values({
        id: 2, barcode: '7'.repeat(44), line: '7'.repeat(48), kind: 'bank', description: 'Aluguel', beneficiary: 'Imobiliária Sol', beneficiary_document: null,
        assignor: null, due_date: '2026-11-20', amount_cents: 150_000, status: 'returned', remote_status: 'returned', transaction_id: 't2', settle_date: '2026-11-20',
        amount_paid_cents: 150_000, result_json: null, return_reason: '276 - bill already received on this date', return_meaning: 'bill received within the same day',
        returned_at: AT, receipt_path: null, error: null, alerted_at: null, created_at: AT, updated_at: AT, document_kind: null,
      }),
    );
    await ledger.run(
      ledger.db.insertInto('alerts').values({
        id: 2, kind: 'failures', fingerprint: 'g', title: 'Payments failed', summary: 'Some payments failed.', created_at: AT, last_sent_at: AT, acked_at: null,
        items_json: JSON.stringify([{
          identifier: 'y', batch: 'Folha de novembro', line: 3, key: 'bruno@exemplo.com.br', amountCents: 5_000, status: 'failed: AC06 - Conta do recebedor bloqueada',
          state: 'failed', reason: 'AC06 - Conta do recebedor bloqueada', lastUpdate: AT, recipient: 'Bruno Lima',
        }]),
        channels_json: '[]',
      }),
    );
    const { app: pt } = buildDashboardApp({ ledger, locale: 'pt-BR', alertWords: (a) => storedAlertWords(a, 'pt-BR'), reports: REPORTS, token: TOKEN, hosts: [HOST] });
    opened.push(pt);
    const said = async (app: FastifyInstance) => {
      const { cookie } = await signIn(app);
      const get = async (url: string) => (await app.inject({ method: 'GET', url, headers: { host: HOST, cookie } })).json();
      return {
        item: (await get('/api/batches/1/items?q=bruno')).items[0].reasonText,
        bill: (await get('/api/bills')).bills.find((b: { id: number }) => b.id === 2).returnReasonText,
        alert: (await get('/api/alerts')).alerts.find((a: { id: number }) => a.id === 2).items[0].statusText,
      };
    };
    // The provider wrote the reason in Portuguese: in English the known code is said in English.
    expect(await said(en)).toEqual({
      item: "AC06 - Receiver's account is blocked",
      bill: '276 - bill already received on this date → bill received within the same day',
      alert: "failed: AC06 - Receiver's account is blocked",
    });
    expect(await said(pt)).toEqual({
      item: 'AC06 - Conta transacional do usuário recebedor encontra-se bloqueada',
      bill: '276 - bill already received on this date → boleto já recebido no mesmo dia',
      alert: 'falhou: AC06 - Conta transacional do usuário recebedor encontra-se bloqueada',
    });
  });
});

describe('paybatch ui: approvals', () => {
  it('lists the batches waiting for approvals under the profile policy, with the command that signs', async () => {
    const { ledger } = await ledgerWithBatch(tempDir());
    await ledger.run(
      ledger.db.insertInto('batches').values({
        id: 2, import_id: 1, kind: 'sheet', name: 'Folha de dezembro', remote_name: 'Folha de dezembro [pb:2]', remote_id: null, status: 'draft',
        item_count: 2, total_cents: 2_500, created_at: AT, updated_at: AT, started_at: null,
      }),
    );
    for (const [id, cents] of [[11, 1_000], [12, 1_500]] as const) {
      await ledger.run(
        ledger.db.insertInto('items').values({
          id, batch_id: 2, line: id, identifier: `00000000-0000-4000-8000-0000000000${id}`, key: `p${id}@exemplo.com.br`, key_type: 'email', amount_cents: cents,
          description: 'x', status: 'resolved', created_at: AT, updated_at: AT, status_changed_at: AT, alerted_at: null,
        }),
      );
    }
    const gate = { policy: { totalAbove: 2_000, required: 2 as const }, approvers: {}, profile: 'default', explain: explainApprovalRefusal('pt-BR') };
    const { app } = buildDashboardApp({ ledger, locale: 'pt-BR', alertWords: (a) => storedAlertWords(a, 'pt-BR'), reports: REPORTS, token: TOKEN, hosts: [HOST], approvals: gate });
    opened.push(app);
    const { cookie } = await signIn(app);
    const answer = (await app.inject({ method: 'GET', url: '/api/approvals', headers: { host: HOST, cookie } })).json();
    expect(answer).toEqual({
      available: true,
      pending: [{
        kind: 'batch', ref: '2', name: 'Folha de dezembro', totalCents: 2_500, total: 'R$ 25,00', largestCents: 1_500, largest: 'R$ 15,00', rows: 2,
        // Written straight into the ledger, the batch has no maker signature: someone claims it first.
        required: 2, valid: 0, missing: 2, signedBy: [], waitingFor: [], makers: [], command: 'paybatch batch claim 2',
      }],
    });
    // Without the profile's gate the panel says approvals are not available rather than "nothing waits".
    const { app: bare } = buildDashboardApp({ ledger, locale: 'en', alertWords: (a) => storedAlertWords(a, 'en'), reports: REPORTS, token: TOKEN, hosts: [HOST] });
    opened.push(bare);
    const bareCookie = (await signIn(bare)).cookie;
    expect((await bare.inject({ method: 'GET', url: '/api/approvals', headers: { host: HOST, cookie: bareCookie } })).json()).toEqual({ available: false, pending: [] });
  });
});

describe('paybatch ui: listening', () => {
  it('listens on loopback, gives the URL with its token, and refuses other addresses unless told to allow them', async () => {
    const { ledger } = await ledgerWithBatch(tempDir());
    await expect(startDashboard({ ledger, locale: 'en', alertWords: (a) => storedAlertWords(a, 'en'), reports: REPORTS, host: '0.0.0.0', port: 0, allowRemote: false })).rejects.toThrow(/loopback/);
    const running = await startDashboard({ ledger, locale: 'en', alertWords: (a) => storedAlertWords(a, 'en'), reports: REPORTS, host: '127.0.0.1', port: 0, allowRemote: false });
    opened.push(running);
    expect(running.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]{43}$/);
    expect(running.remote).toBe(false);
    expect((await fetch(`http://${running.listen}/api/batches`)).status).toBe(401);
    const signedIn = await fetch(running.url, { redirect: 'manual' });
    expect(signedIn.status).toBe(303);
    const cookie = signedIn.headers.get('set-cookie')!.split(';')[0]!;
    const res = await fetch(`http://${running.listen}/api/batches`, { headers: { cookie } });
    expect(((await res.json()) as { batches: { name: string }[] }).batches[0]!.name).toBe('Folha de novembro');
  });

  it('parses --listen', () => {
    expect(parseUiOptions({ flags: {}, args: [] })).toEqual({ listen: { host: '127.0.0.1', port: 8788 }, allowRemote: false });
    expect(parseUiOptions({ flags: { listen: '[::1]:0', allowRemote: true }, args: [] })).toEqual({ listen: { host: '::1', port: 0 }, allowRemote: true });
    expect(() => parseListen('8788', '--listen')).toThrow('--listen must be host:port');
    expect(() => parseListen('localhost:70000', '--ui-listen')).toThrow('--ui-listen must be host:port');
  });

  it('parses daemon --ui and --ui-listen', () => {
    const daemon = (flags: Record<string, unknown>) => parseDaemonOptions({ flags: { listen: '127.0.0.1:8787', interval: '30', ...flags }, args: [] });
    expect(daemon({}).ui).toBeUndefined();
    expect(daemon({ ui: true }).ui).toEqual({ host: '127.0.0.1', port: 8788 });
    expect(daemon({ ui: true, uiListen: 'localhost:9000' }).ui).toEqual({ host: 'localhost', port: 9000 });
    expect(() => daemon({ uiListen: 'localhost:9000' })).toThrow('--ui-listen goes with --ui.');
    expect(() => daemon({ ui: true, once: true })).toThrow(/^--ui needs a daemon that keeps running/);
  });
});

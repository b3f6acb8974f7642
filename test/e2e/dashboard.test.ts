import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa, type ResultPromise } from 'execa';
import { chromium, type Browser } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { BIN, paybatch, startSandboxProcess, userEnv, useProcesses } from '../helpers/e2e.js';
import { freePort } from '../helpers/free-port.js';
import { writeSheet } from '../helpers/sheets.js';
import { useTempDir } from '../helpers/temp-dir.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SCREENSHOTS = join(ROOT, 'test-results', 'screenshots');
const tempDir = useTempDir();
const { sandboxes, daemons } = useProcesses();
const browsers: Browser[] = [];
const servers: ResultPromise[] = [];
afterEach(async () => {
  for (const b of browsers.splice(0)) await b.close();
  for (const s of servers.splice(0)) {
    s.kill('SIGTERM');
    await s;
  }
});

/** Starts `paybatch ui --json` and reads its one JSON document: the URL with the token, and the address. */
async function startUi(env: Record<string, string>): Promise<{ url: string; listen: string }> {
  const child = execa(process.execPath, [BIN, 'ui', '--listen', '127.0.0.1:0', '--json'], { env, extendEnv: false, reject: false, buffer: false });
  servers.push(child);
  return new Promise((resolve, reject) => {
    let text = '';
    let errors = '';
    const timer = setTimeout(() => reject(new Error(`paybatch ui did not start: ${text} ${errors}`)), 15_000);
    child.stderr!.on('data', (b: Buffer) => (errors += b.toString()));
    child.stdout!.on('data', (b: Buffer) => {
      text += b.toString();
      try {
        const doc = JSON.parse(text) as { url: string; listen: string };
        clearTimeout(timer);
        resolve(doc);
      } catch {
        // not complete yet
      }
    });
    void child.then((r) => reject(new Error(`paybatch ui exited ${r.exitCode}: ${errors}`)));
  });
}

const CHROMIUM = '/usr/bin/chromium';

describe('paybatch ui in a real browser (Debian chromium)', () => {
  it('follows a batch to 100% while a daemon works, filters items, opens a receipt and acknowledges an alert', async () => {
    // Fails, not skips, when chromium cannot start: the dashboard is tested in a browser or not at all.
    const browser = await chromium.launch({ executablePath: CHROMIUM }).catch((e: Error) => {
      throw new Error(`The dashboard's browser test could not start Chromium (${CHROMIUM}): ${e.message.split('\n')[0]}\nInstall Debian's package chromium (apt-get install -y chromium); .ci/run does.`);
    });
    browsers.push(browser);
    mkdirSync(SCREENSHOTS, { recursive: true });

    const dir = tempDir();
    // Seeded failures (about one payment in five) make the daemon raise an alert to acknowledge.
    const s = await startSandboxProcess({ state: join(dir, 'provider.db'), args: ['--seed', '5', '--speed', '40', '--faults', 'failed=0.2'] });
    sandboxes.push(s);
    const env = userEnv(dir, { ...s.env(), PAYBATCH_LOCALE: 'pt-BR', PAYBATCH_RECEIPTS_DIR: join(dir, 'receipts'), PAYBATCH_WEBHOOK_SECRET: 'whsec_ZGFzaGJvYXJkLXRlc3Qtc2VjcmV0' });
    const secrets = [s.apiKey, s.clientSecret, 'whsec_ZGFzaGJvYXJkLXRlc3Qtc2VjcmV0'];
    const sheet = writeSheet(join(dir, 'folha.csv'), 24);
    const imported = await paybatch(['import', sheet, '--name', 'Folha de novembro', '--start', '--yes', '--json'], { env });
    expect(imported.exitCode, imported.stderr).toBe(0);

    const ui = await startUi(env);
    expect(ui.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]{43}$/);
    const base = `http://${ui.listen}`;

    // Without the token: every page and API answers 401.
    const stranger = await browser.newContext();
    for (const path of ['/', '/api/batches', '/api/batches/1/items', '/api/alerts', '/receipts/item/1', '/assets/app.js']) {
      expect({ path, status: (await stranger.request.get(`${base}${path}`)).status() }).toEqual({ path, status: 401 });
    }
    const strangerPage = await stranger.newPage();
    expect((await strangerPage.goto(base))?.status()).toBe(401);

    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const pageErrors: string[] = [];
    page.on('pageerror', (e) => pageErrors.push(e.message));
    page.on('console', (m) => m.type() === 'error' && pageErrors.push(m.text()));
    await page.goto(ui.url);
    expect(page.url()).toBe(`${base}/`); // the token left the address bar
    const row = page.locator('tr[data-batch="1"]');
    await expect.poll(() => row.textContent()).toContain('Folha de novembro');
    expect(await row.textContent()).toContain('0%');

    await row.click();
    await expect.poll(() => page.locator('h1').textContent()).toContain('Lote #1');
    // No daemon yet: the strip says the started batch's payments are not being followed, and how to start one.
    await expect.poll(() => page.locator('#daemon-state').textContent(), { timeout: 10_000 }).toBe('Nenhum daemon rodando');
    expect(await page.locator('#not-followed').textContent()).toBe(
      'Os pagamentos de 1 lote iniciado não estão sendo acompanhados: nenhum daemon está rodando. Inicie um: paybatch daemon',
    );
    const daemon = paybatch(['daemon', '--listen', `127.0.0.1:${await freePort()}`, '--interval', '1', '--until-settled', '--timeout', '50s'], { env, timeout: 60_000 });
    daemons.push(daemon);
    // The page follows the daemon's work on the ledger by itself: no reload.
    await expect.poll(() => page.locator('#settled-percent').textContent(), { timeout: 50_000, interval: 500 }).toBe('100%');
    const finished = await daemon;
    expect([0, 4]).toContain(finished.exitCode); // 4: the failures it alerted about
    // The daemon stopped: none runs, and its last pass is told in São Paulo time.
    await expect.poll(() => page.locator('#last-pass').textContent(), { timeout: 10_000 }).toMatch(/^última passada \d{2}\/\d{2}\/\d{4} \d{2}:\d{2} \(há \d+ segundos?\)$/);
    expect(await page.locator('#daemon-state').textContent()).toBe('Nenhum daemon rodando');
    await expect.poll(() => page.locator('.timeline path.line').count()).toBe(1);
    await page.screenshot({ path: join(SCREENSHOTS, 'batch.png'), fullPage: true });
    await page.screenshot({ path: join(SCREENSHOTS, 'batch-top.png') });
    // The picture of docs/dashboard.md is renewed on demand only, so that a test run leaves the tree as it was.
    if (process.env.PAYBATCH_UPDATE_DOCS_SCREENSHOT === '1') copyFileSync(join(SCREENSHOTS, 'batch-top.png'), join(ROOT, 'docs', 'dashboard.png'));

    const batch = (await (await context.request.get(`${base}/api/batches/1`)).json()).batch as { byStatus: { status: string; count: number }[] };
    const paid = batch.byStatus.find((x) => x.status === 'paid')!.count;
    const failed = batch.byStatus.find((x) => x.status === 'failed')!.count;
    expect(paid + failed).toBe(24);
    expect(failed).toBeGreaterThan(0);

    // Filters: by status, then by a part of a key.
    await page.selectOption('#status-filter', 'failed');
    await expect.poll(() => page.locator('#items tbody tr').count()).toBe(failed);
    expect(await page.locator('#items tbody .pill').allTextContents()).toEqual(Array(failed).fill('falhou'));
    await page.selectOption('#status-filter', '');
    await page.fill('#item-search', 'PESSOA17.A@');
    await expect.poll(() => page.locator('#items tbody tr').count()).toBe(1);
    expect(await page.locator('#items tbody tr td').nth(2).textContent()).toBe('pessoa17.a@exemplo.com.br');
    expect(await page.locator('#items tbody tr td').first().textContent()).toBe('18'); // the sheet's line: header is line 1
    await page.fill('#item-search', '');
    await page.selectOption('#status-filter', 'paid');
    await expect.poll(() => page.locator('#items tbody tr').count()).toBe(paid);

    // A receipt opens inside the page, served from the file the ledger recorded.
    const receipt = page.waitForResponse((r) => r.url().includes('/receipts/item/'));
    await page.locator('#items button.open-receipt').first().click();
    const answer = await receipt;
    expect(answer.status()).toBe(200);
    expect(answer.headers()['content-type']).toBe('application/pdf');
    // (Chromium hands the frame's stream to its PDF viewer: the bytes are read again here.)
    expect((await (await context.request.get(answer.url())).body()).subarray(0, 5).toString()).toBe('%PDF-');
    expect(await page.locator('#receipt-frame').getAttribute('src')).toMatch(/^\/receipts\/item\/\d+$/);
    // Chromium's PDF viewer shows it inside the page's frame: its page thumbnail appears once the PDF is drawn.
    await expect.poll(() => page.frames().some((f) => f.url().startsWith('chrome-extension://'))).toBe(true);
    await page.frames().find((f) => f.url().startsWith('chrome-extension://'))!.locator('viewer-thumbnail').first().waitFor({ timeout: 10_000 });
    await page.screenshot({ path: join(SCREENSHOTS, 'receipt.png'), fullPage: true });

    await page.goto(`${base}/#/`);
    await expect.poll(() => row.textContent()).toContain('100%');
    await page.screenshot({ path: join(SCREENSHOTS, 'batches.png'), fullPage: true });

    // The failures alert, acknowledged from the page (a POST with the page's CSRF token).
    await page.goto(`${base}/#/alerts`);
    const alert = page.locator('article.alert').first();
    await expect.poll(() => alert.textContent()).toContain('falh');
    await page.screenshot({ path: join(SCREENSHOTS, 'alerts.png'), fullPage: true });
    const open = ((await (await context.request.get(`${base}/api/alerts`)).json()).alerts as unknown[]).length;
    await alert.locator('button.ack').click();
    await expect.poll(async () => ((await (await context.request.get(`${base}/api/alerts`)).json()).alerts as unknown[]).length).toBe(open - 1);
    await expect.poll(() => page.locator('article.alert').count()).toBe(open - 1);
    const listed = await paybatch(['alerts', 'list', '--all', '--json'], { env });
    expect((JSON.parse(listed.stdout) as { ackedAt: string | null }[]).filter((a) => a.ackedAt !== null)).toHaveLength(1);

    await page.goto(`${base}/#/approvals`);
    await expect.poll(() => page.locator('main .empty-panel').textContent()).toBe('Nada espera aprovação.'); // no approval policy in this profile
    await page.goto(`${base}/#/receipts`);
    await expect.poll(() => page.locator('main tbody tr').count()).toBe(paid);
    await page.screenshot({ path: join(SCREENSHOTS, 'receipts.png'), fullPage: true });

    // The month's statement, downloaded from its page as a file named for the profile and the month: every row of the sheet.
    const month = new Date().toLocaleDateString('sv-SE', { timeZone: 'America/Sao_Paulo' }).slice(0, 7);
    await page.goto(`${base}/#/statement`);
    await page.fill('#statement-month', month);
    await page.selectOption('#statement-format', 'pdf');
    const [pdf] = await Promise.all([page.waitForEvent('download'), page.click('#statement-download')]);
    expect(pdf.suggestedFilename()).toBe(`default-statement-${month}.pdf`);
    expect(readFileSync(await pdf.path()).subarray(0, 5).toString()).toBe('%PDF-');
    const csv = await (await context.request.get(`${base}/api/statement?month=${month}&format=csv`)).text();
    expect(csv.split('\r\n').filter((l) => /^Pix;\d/.test(l))).toHaveLength(24);
    // No company account in this profile: OFX is refused, naming the settings to set.
    const ofx = await context.request.get(`${base}/api/statement?month=${month}&format=ofx`);
    expect(ofx.status()).toBe(422);
    expect(((await ofx.json()) as { message: string }).message).toContain('companyBank, companyBranch, companyAccount');

    // No secret of the profile in any answer the page can get.
    for (const path of [
      '/', '/api/batches', '/api/batches/1', '/api/batches/1/items', '/api/batches/1/calls', '/api/alerts?all=1', '/api/bills', '/api/receipts', '/api/approvals',
      `/api/statement?month=${month}&format=csv`,
    ]) {
      const body = await (await context.request.get(`${base}${path}`)).text();
      for (const secret of secrets) expect({ path, leaks: body.includes(secret) }).toEqual({ path, leaks: false });
    }
    expect(pageErrors).toEqual([]);
  }, 90_000);

  it('daemon --ui serves the dashboard over the ledger the daemon works on, and stops with it', async () => {
    const dir = tempDir();
    const s = await startSandboxProcess({ state: join(dir, 'provider.db'), args: ['--speed', '40'] });
    sandboxes.push(s);
    const env = userEnv(dir, { ...s.env(), PAYBATCH_RECEIPTS_DIR: join(dir, 'receipts') });
    const imported = await paybatch(['import', writeSheet(join(dir, 'folha.csv'), 3), '--name', 'Folha curta', '--start', '--yes', '--json'], { env });
    expect(imported.exitCode, imported.stderr).toBe(0);
    const daemon = execa(process.execPath, [BIN, 'daemon', '--listen', `127.0.0.1:${await freePort()}`, '--interval', '1', '--ui', '--ui-listen', '127.0.0.1:0'], {
      env, extendEnv: false, reject: false, buffer: false,
    });
    servers.push(daemon);
    const url = await new Promise<string>((resolve, reject) => {
      let errors = '';
      daemon.stderr!.on('data', (b: Buffer) => {
        errors += b.toString();
        const m = /http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]{43}/.exec(errors);
        if (m) resolve(m[0]);
      });
      void daemon.then((r) => reject(new Error(`daemon exited ${r.exitCode}: ${errors}`)));
    });
    const base = new URL(url).origin;
    expect((await fetch(`${base}/api/batches`)).status).toBe(401);
    const signedIn = await fetch(url, { redirect: 'manual' });
    expect(signedIn.status).toBe(303);
    const cookie = signedIn.headers.get('set-cookie')!.split(';')[0]!;
    await expect
      .poll(async () => ((await (await fetch(`${base}/api/batches`, { headers: { cookie } })).json()) as { batches: { settledPercent: string }[] }).batches[0]?.settledPercent, { timeout: 30_000, interval: 300 })
      .toBe('100%');
    // The dashboard sees the daemon it runs in: running (by its lock or leases from its start), then with its passes.
    type Seen = { running: boolean; late: boolean; lastPassAt: string | null; daemons: { pid: number; intervalSeconds: number | null }[] };
    const seen = async () => ((await (await fetch(`${base}/api/status`, { headers: { cookie } })).json()) as { daemon: Seen }).daemon;
    expect((await seen()).running).toBe(true);
    await expect.poll(async () => (await seen()).lastPassAt, { timeout: 30_000, interval: 300 }).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    expect(await seen()).toMatchObject({ running: true, late: false, daemons: [{ pid: daemon.pid, intervalSeconds: 1 }] });
    daemon.kill('SIGTERM');
    expect((await daemon).exitCode).toBe(0);
    await expect(fetch(`${base}/api/batches`, { headers: { cookie } })).rejects.toThrow();
  }, 60_000);
});

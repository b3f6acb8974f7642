import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { storedAlertWords } from '../../src/alerts/alert.js';
import { openLedger } from '../../src/ledger/open-ledger.js';
import { startDashboard } from '../../src/ui/dashboard-server.js';
import { useTempDir } from '../helpers/temp-dir.js';
import { REPORTS, seedDashboardLedger, seedRetryOfBruno } from './dashboard-fixture.js';

const CHROMIUM = '/usr/bin/chromium';
const SCREENSHOTS = fileURLToPath(new URL('../../test-results/screenshots/', import.meta.url));
const WIDTH = 400;
const tempDir = useTempDir();
const opened: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const x of opened.splice(0).reverse()) await x.close();
});

/** Each page of the menu, and what shows it has drawn its data. */
const PAGES: [string, string][] = [
  ['#/', 'tr[data-batch="1"]'],
  ['#/batches/1', '#items tbody tr[data-item="4"]'],
  ['#/alerts', 'article[data-alert="1"]'],
  ['#/bills', 'tr[data-bill="1"]'],
  ['#/receipts', 'main tbody tr'],
  ['#/approvals', 'main .empty-panel'],
  ['#/statement', '#statement-download'],
];

/** How wide the page's content is (run in the page: the tests are typed without the DOM). */
async function overflow(page: Page): Promise<number> {
  return page.evaluate<number>('document.scrollingElement.scrollWidth');
}

describe('the dashboard on a phone (Chromium, 400 px wide)', () => {
  it('never scrolls sideways, keeps every menu item visible and working, and shows the status strip and the documents', async () => {
    const dir = tempDir();
    const ledger = await openLedger(join(dir, 'ledger.db'));
    opened.push(ledger);
    await seedDashboardLedger(ledger, dir);
    await seedRetryOfBruno(ledger);
    mkdirSync(SCREENSHOTS, { recursive: true });
    const running = await startDashboard({ ledger, locale: 'pt-BR', alertWords: (a) => storedAlertWords(a, 'pt-BR'), reports: REPORTS, profile: 'folha-pagamento', host: '127.0.0.1', port: 0, allowRemote: false });
    opened.push(running);
    // Fails, not skips, when chromium cannot start: the dashboard is tested in a browser or not at all.
    const browser: Browser = await chromium.launch({ executablePath: CHROMIUM, timeout: 30_000 });
    opened.push(browser);
    const page = await browser.newPage({ viewport: { width: WIDTH, height: 800 } });
    page.setDefaultTimeout(15_000);
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(running.url);

    for (const [hash, drawn] of PAGES) {
      await page.goto(`http://${running.listen}/${hash}`);
      await page.locator(drawn).first().waitFor();
      await page.locator('#daemon-state').waitFor();
      expect({ hash, scrollWidth: await overflow(page) }).toEqual({ hash, scrollWidth: expect.toSatisfy((w: number) => w <= WIDTH) });
      await page.screenshot({ path: join(SCREENSHOTS, `narrow-${hash.replace(/\W+/g, '-').replace(/^-|-$/g, '') || 'batches'}.png`), fullPage: true });
    }

    // Every menu item is on screen, whole, and takes to its page.
    const items = page.locator('nav a');
    expect(await items.count()).toBe(6);
    for (const [i, hash] of ['#/', '#/alerts', '#/bills', '#/receipts', '#/approvals', '#/statement'].entries()) {
      const item = items.nth(i);
      expect(await item.isVisible()).toBe(true);
      // The menu is drawn again as the page's data arrives: its box is read once it is laid out.
      const box = await vi.waitFor(async () => (await item.boundingBox()) ?? Promise.reject(new Error(`menu item ${hash} not laid out`)));
      expect({ hash, left: box.x >= 0, right: box.x + box.width <= WIDTH }).toEqual({ hash, left: true, right: true });
      await item.click();
      await page.waitForFunction(`location.hash === ${JSON.stringify(hash)}`);
      await page.locator(`nav a.active[href="${hash}"]`).waitFor();
    }

    // The strip: no daemon, a started batch, so the payments are not being followed; how to start one for this profile.
    expect(await page.locator('#daemon-state').textContent()).toBe('Nenhum daemon rodando');
    expect(await page.locator('#last-pass').textContent()).toBe('nenhuma passada registrada');
    expect(await page.locator('#open-alerts').textContent()).toBe('1 alerta aberto: 1 pagamento Pix falhou');
    expect(await page.locator('#not-followed').textContent()).toBe(
      'Os pagamentos de 1 lote iniciado não estão sendo acompanhados: nenhum daemon está rodando. Inicie um: paybatch --profile folha-pagamento daemon',
    );

    // Every row's document, masked and formatted as statements show them.
    await page.goto(`http://${running.listen}/#/batches/1`);
    await page.locator('#items tbody tr[data-item="4"]').waitFor();
    expect(await page.locator('#items tbody td.doc').allTextContents()).toEqual(['***.982.247-**', '***.123.456-**', '***.444.777-**', '12.345.678/0001-95']);
    expect(await overflow(page)).toBeLessThanOrEqual(WIDTH);

    // Bruno's row tells where it was paid, the other batch a link; the summary splits paid here from paid later.
    expect(await page.locator('#items tbody tr[data-item="2"] td.story').textContent()).toBe('falhou no lote #1; pago depois no lote #2');
    expect(await page.locator('#paid-here .value').textContent()).toBe('R$ 1.234,66');
    expect(await page.locator('#paid-here .muted').textContent()).toBe('2 pagamentos');
    expect(await page.locator('#paid-elsewhere li').allTextContents()).toEqual(['pago depois no lote #2 · 1 pagamento · R$ 50,00']);
    await page.screenshot({ path: join(SCREENSHOTS, 'narrow-lineage.png'), fullPage: true });
    await page.locator('#items tbody tr[data-item="2"] td.story a').click();
    await page.waitForFunction(`location.hash === '#/batches/2'`);
    await page.locator('#items tbody tr[data-item="5"]').waitFor();
    expect(await page.locator('#items tbody tr[data-item="5"] td.story').textContent()).toBe('falhou no lote #1; pago depois no lote #2');
    expect(await page.locator('#items tbody tr[data-item="5"] td.story a').getAttribute('href')).toBe('#/batches/1');
    expect(await overflow(page)).toBeLessThanOrEqual(WIDTH);

    // The statement: a month's file downloaded under its name; chosen days fit the width; OFX refused, naming the settings.
    await page.goto(`http://${running.listen}/#/statement`);
    await page.fill('#statement-month', '2026-11');
    await page.selectOption('#statement-format', 'csv');
    const [csv] = await Promise.all([page.waitForEvent('download'), page.click('#statement-download')]);
    expect(csv.suggestedFilename()).toBe('folha-pagamento-statement-2026-11.csv');
    await page.locator('#statement-message', { hasText: 'Baixado' }).waitFor();
    expect(await page.locator('#statement-message').textContent()).toBe('Baixado: folha-pagamento-statement-2026-11.csv.');
    await page.check('#statement-by-days');
    await page.fill('#statement-from', '2026-11-01');
    await page.fill('#statement-to', '2026-11-15');
    await page.selectOption('#statement-format', 'ofx');
    await page.click('#statement-download');
    await page.locator('#statement-message.warn').waitFor();
    expect(await page.locator('#statement-message').textContent()).toBe(
      'O extrato OFX diz de que conta é, e o perfil "folha-pagamento" não tem a conta da empresa: defina companyBank, companyBranch e companyAccount (paybatch --profile folha-pagamento config set companyBank CÓDIGO, depois as outras duas). PDF, XLSX e CSV não precisam delas.',
    );
    expect(await overflow(page)).toBeLessThanOrEqual(WIDTH);
    await page.screenshot({ path: join(SCREENSHOTS, 'narrow-statement.png'), fullPage: true });
    expect(errors).toEqual([]);
  }, 90_000);
});

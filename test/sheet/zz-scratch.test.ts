import { it } from 'vitest';
import { readFileSync } from 'node:fs';
import { readSheet, validateRows } from '../../src/sheet/index.js';
import { checkPixKey, parsePixKeyType } from '../../src/domain/pix-key.js';
import { parseAmount } from '../../src/domain/money.js';
import { normalizeDocument } from '../../src/domain/document.js';
it('x', () => {
  const text = readFileSync('fixtures/pagamentos-exemplo.csv');
  const lines = text.toString('latin1').split('\r\n');
  const body = lines.slice(1).filter(Boolean);
  const out = [lines[0]];
  for (let i = 0; out.length <= 100000; i++) out.push(body[i % body.length]!.replace(/;([^;]*);([^;]*)$/, (_m, v, d) => `;${v};${d} #${i}`));
  const bytes = Buffer.from(out.join('\r\n'), 'latin1');
  const s = readSheet(bytes, 'big.csv');
  for (let k = 0; k < 3; k++) {
    const t: number[] = [performance.now()];
    for (const r of s.rows) checkPixKey(r.cells.key!, parsePixKeyType(r.cells.keyType!) ?? undefined);
    t.push(performance.now());
    for (const r of s.rows) parseAmount(r.cells.amount!);
    t.push(performance.now());
    for (const r of s.rows) if (r.cells.document) normalizeDocument(r.cells.document);
    t.push(performance.now());
    for (const r of s.rows) { const d = (r.cells.description ?? '').replace(/\s+/g, ' ').trim(); [...d].length; }
    t.push(performance.now());
    validateRows(s, { maxItemAmountCents: null });
    t.push(performance.now());
    console.log(t.slice(1).map((x, i) => (x - t[i]!).toFixed(0)).join(' '));
  }
});

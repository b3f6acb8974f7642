import { describe, expect, it } from 'vitest';
import { alertItemOf, describeItem, type AlertItem } from '../../src/alerts/alert.js';
import { lineageText } from '../../src/reports/lineage-words.js';
import { presenter } from '../../src/ui/dashboard-present.js';
import { item } from './fixtures.js';

const AC06 = "AC06 - Receiver's account is blocked";
const AC06_PT = 'AC06 - Conta transacional do usuário recebedor encontra-se bloqueada';
const BILL_23 = '23 - bill cannot be received because it is settled';

/** A row as the ledger's reports give it: the status word, the reason apart. */
function row(over: { status: string; reason?: string | null; returnMeaning?: string | null }) {
  const { status: _s, ...base } = item(0);
  return { ref: 9, alertedAt: null, ...base, ...over };
}

/** The line `alerts list` and the channels write for the item, after "R$ 1.234,56, ". */
function statusPart(i: AlertItem, locale: 'en' | 'pt-BR'): string {
  return describeItem(i, locale).split(', ')[2]!.replace(/ (since|desde) .*$/, '');
}

describe('an alert item keeps the status and the reason apart', () => {
  it('a failed Pix payment: stored with the English line as before, and the parts; worded from the parts', () => {
    const stored = alertItemOf(row({ status: 'failed', reason: AC06 }));
    expect(stored).toEqual({ ...item(0), status: `failed: ${AC06}`, state: 'failed', reason: AC06 });
    expect(stored).not.toHaveProperty('ref');
    expect(statusPart(stored, 'en')).toBe(`failed: ${AC06}`);
    expect(statusPart(stored, 'pt-BR')).toBe(`falhou: ${AC06_PT}`);
    expect(presenter('pt-BR', lineageText).alert(view([stored]), { title: '', summary: '', nextStep: null }).items[0]!.statusText).toBe(`falhou: ${AC06_PT}`);
  });

  it("a bill's return: the reason and the recorded meaning; the meaning of a known reason in the locale", () => {
    const stored = alertItemOf(row({ status: 'returned', reason: BILL_23, returnMeaning: 'bill already paid' }));
    expect(stored).toMatchObject({ status: `returned: ${BILL_23} → bill already paid`, state: 'returned', reason: BILL_23, returnMeaning: 'bill already paid' });
    expect(statusPart(stored, 'en')).toBe(`returned: ${BILL_23} → bill already paid`);
    expect(statusPart(stored, 'pt-BR')).toBe(`devolvido: ${BILL_23} → boleto já pago`);
    // A return the provider gave no reason for, with no meaning recorded.
    const bare = alertItemOf(row({ status: 'returned', reason: null, returnMeaning: null }));
    expect(bare.status).toBe('returned: ? → unknown reason');
    expect(statusPart(bare, 'pt-BR')).toBe('devolvido: ? → unknown reason');
  });

  it('a status without a reason, and a row that is a note rather than a status, stay as they are', () => {
    const plain = alertItemOf(row({ status: 'processing', reason: null }));
    expect(plain).toMatchObject({ status: 'processing', state: 'processing', reason: null });
    expect(statusPart(plain, 'pt-BR')).toBe('em processamento');
    const note = alertItemOf(row({ status: 'quarantined event ev-1: unknown batch' }));
    expect(note).toEqual({ ...item(0), status: 'quarantined event ev-1: unknown batch' });
  });

  it('an alert stored before the reason was kept apart (only the joined status) renders as it did', () => {
    const old = JSON.parse(JSON.stringify({ ...item(0), status: `failed: ${AC06}` })) as AlertItem;
    expect(statusPart(old, 'en')).toBe(`failed: ${AC06}`);
    expect(statusPart(old, 'pt-BR')).toBe(`falhou: ${AC06_PT}`);
    const oldBill = { ...item(0), status: `returned: ${BILL_23} → bill already paid` };
    expect(statusPart(oldBill, 'pt-BR')).toBe(`devolvido: ${BILL_23} → boleto já pago`);
    expect(presenter('pt-BR', lineageText).alert(view([old]), { title: '', summary: '', nextStep: null }).items[0]!.statusText).toBe(`falhou: ${AC06_PT}`);
  });
});

function view(items: AlertItem[]) {
  return { id: 1, kind: 'failures', title: 't', summary: 's', itemCount: items.length, items, createdAt: '2025-05-02T10:00:00.000Z', ackedAt: null };
}

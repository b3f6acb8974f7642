import { describe, expect, it } from 'vitest';
import { MAX_ITEM_LINES, renderAlertText, renderSlackPayload, type WebhookPayload } from '../../src/alerts/alert.js';
import { alert, item } from './fixtures.js';

describe('renderAlertText', () => {
  it('has the title, the summary, a count with the total and one line per item in R$', () => {
    const text = renderAlertText(alert());
    const lines = text.split('\n');
    expect(lines[0]).toBe('3 Pix payments without news');
    expect(text).toContain('These items have had no update');
    expect(text).toContain('3 items, total R$ 3.703,71 (times in São Paulo time):');
    // 10:00 UTC is 07:00 in São Paulo.
    expect(text).toContain(
      '- folha-maio line 1: Maria 0 (pessoa0@example.com), R$ 1.234,56, processing since 2025-05-02 07:00, id 00000000-0000-4000-8000-000000000000',
    );
    expect(lines.filter((l) => l.startsWith('- '))).toHaveLength(3);
    expect(text).toContain('\nWhat to do: ask the provider about these payments by their id;');
    expect(text).toContain('paybatch alert #7 (stale-items), profile default, 2025-05-02 09:00 (São Paulo time); see `paybatch alerts list`');
    expect(text).not.toContain('more');
  });

  it('shows at most 50 items, then "and N more"', () => {
    const text = renderAlertText(alert({}, 73));
    expect(text.split('\n').filter((l) => l.startsWith('- '))).toHaveLength(MAX_ITEM_LINES);
    expect(text).toContain('\nand 23 more\n');
    expect(text).toContain('73 items, total');
  });

  it('writes Portuguese for pt-BR: title, summary, dates DD/MM/AAAA in São Paulo time, statuses and the next step', () => {
    const text = renderAlertText(alert({ items: [item(0)] }), 'pt-BR');
    const lines = text.split('\n');
    expect(lines[0]).toBe('1 pagamento Pix sem notícias');
    expect(lines[2]).toMatch(/^O provedor não atualiza estes pagamentos/);
    expect(text).toContain('1 item, total R$ 1.234,56 (horário de São Paulo):');
    expect(text).toContain('- folha-maio linha 1: Maria 0 (pessoa0@example.com), R$ 1.234,56, em processamento desde 02/05/2025 07:00, id 00000000-0000-4000-8000-000000000000');
    expect(text).toContain('\nO que fazer: pergunte ao provedor por estes pagamentos pelo id;');
    expect(text).toContain('alerta #7 do paybatch (stale-items), perfil default, 02/05/2025 09:00 (horário de São Paulo); veja `paybatch alerts list`');
    expect(renderAlertText(alert({}, 73), 'pt-BR')).toContain('\ne mais 23\n');
  });

  it.each<[string, number, string, string]>([
    ['bill-return', 1, '1 bill payment returned by the beneficiary', '1 pagamento de conta devolvido pelo beneficiário'],
    ['bill-return', 2, '2 bill payments returned by the beneficiary', '2 pagamentos de conta devolvidos pelo beneficiário'],
    ['bills-without-news', 1, '1 bill payment without news', '1 pagamento de conta sem notícias'],
    ['failures', 1, '1 Pix payment failed', '1 pagamento Pix falhou'],
    ['failures', 4, '4 Pix payments failed', '4 pagamentos Pix falharam'],
    ['final-return', 1, '1 Pix payment returned for good', '1 pagamento Pix devolvido em definitivo'],
    ['unconfirmed-returns', 2, '2 Pix returns the provider does not confirm', '2 devoluções Pix que o provedor não confirma'],
    ['quarantined-events', 1, '1 webhook event disagrees with the ledger', '1 evento de webhook diverge do registro local'],
    ['receipts-unavailable', 3, '3 paid Pix payments without a receipt to fetch', '3 pagamentos Pix pagos sem comprovante para buscar'],
  ])('%s with %i item(s): "%s" / "%s", and a next step in both languages', (kind, count, en, pt) => {
    const a = alert({ kind }, count);
    expect(renderAlertText(a).split('\n')[0]).toBe(en);
    expect(renderAlertText(a, 'pt-BR').split('\n')[0]).toBe(pt);
    expect(renderAlertText(a)).toMatch(/\nWhat to do: \S/);
    expect(renderAlertText(a, 'pt-BR')).toMatch(/\nO que fazer: \S/);
  });

  it('keeps the title and summary of a kind it has no words for, without a next step', () => {
    const text = renderAlertText(alert({ kind: 'something-new', title: 'Something new happened' }));
    expect(text.split('\n')[0]).toBe('Something new happened');
    expect(text).not.toContain('What to do');
  });

  it('marks the sandbox, names a non-default profile and copes with items without row or recipient', () => {
    const text = renderAlertText(alert({ sandbox: true, profile: 'acme', items: [item(1, { line: null, recipient: null })] }));
    expect(text.startsWith('[SANDBOX] 1 Pix payment without news')).toBe(true);
    expect(text).toContain('1 item, total R$ 1.234,57 (times in São Paulo time):');
    expect(text).toContain('- folha-maio: pessoa1@example.com, R$ 1.234,57,');
    expect(text).toContain('paybatch --profile acme alerts list');
  });

  it("binds the commands of its next step to the alert's profile, in e-mail text and in the webhook's message", () => {
    const step = "What to do: ask the provider about these payments by their id; `paybatch --profile carga batch show <batch> --refresh` reads them again. Nothing is paid twice meanwhile.";
    expect(renderAlertText(alert({ profile: 'carga' }))).toContain(step);
    expect(renderSlackPayload(alert({ profile: 'carga' })).text).toContain('`paybatch --profile carga batch show &lt;batch&gt; --refresh`');
    expect(renderAlertText(alert({ profile: 'default' }))).toContain('`paybatch batch show <batch> --refresh` reads them again');
    expect(renderAlertText(alert({ profile: 'carga', kind: 'batch-refused' }, 1), 'pt-BR')).toContain('inicie o lote com `paybatch --profile carga batch start <lote>`');
  });

  it('has no item section when the alert has no items', () => {
    const text = renderAlertText(alert({}, 0));
    expect(text).not.toContain('items,');
    expect(text).not.toContain('- ');
  });
});

describe('renderSlackPayload', () => {
  it('is a Slack message (text + blocks) and a Teams Workflows message (type message + Adaptive Card)', () => {
    const p = renderSlackPayload(alert()) as WebhookPayload;
    // Slack
    expect(p.text.startsWith('*3 Pix payments without news*\n')).toBe(true);
    expect(p.text).toContain('• folha-maio line 2: Maria 1 (pessoa1@example.com), R$ 1.234,57');
    expect(p.blocks[0]).toEqual({ type: 'header', text: { type: 'plain_text', text: '3 Pix payments without news', emoji: false } });
    expect(p.blocks.map((b) => (b as { type: string }).type)).toEqual(['header', 'section', 'section', 'section', 'context']);
    expect(p.text).toContain('\nWhat to do: ask the provider');
    // Teams Workflows
    expect(p.type).toBe('message');
    expect(p.attachments).toHaveLength(1);
    const att = p.attachments[0]!;
    expect(att.contentType).toBe('application/vnd.microsoft.card.adaptive');
    const card = att.content as { type: string; version: string; body: { type: string; text: string }[] };
    expect(card.type).toBe('AdaptiveCard');
    expect(card.body.every((b) => b.type === 'TextBlock' && typeof b.text === 'string')).toBe(true);
    expect(card.body.map((b) => b.text)).toContain(
      'folha-maio line 3: Maria 2 (pessoa2@example.com), R$ 1.234,58, processing since 2025-05-02 07:00, id 00000000-0000-4000-8000-000000000002',
    );
    // Plain JSON
    expect(JSON.parse(JSON.stringify(p))).toEqual(p);
  });

  it('stays within Slack limits with many long items and counts the rest', () => {
    const long = 'x'.repeat(400);
    const p = renderSlackPayload(alert({ kind: 'custom', title: 'T'.repeat(300), summary: 's'.repeat(5000), items: Array.from({ length: 120 }, (_, i) => item(i, { recipient: long })) }));
    expect(p.blocks.length).toBeLessThanOrEqual(50);
    const header = p.blocks[0] as { text: { text: string } };
    expect(header.text.text.length).toBeLessThanOrEqual(150);
    for (const b of p.blocks.slice(1) as { text?: { text: string }; elements?: { text: string }[] }[]) {
      for (const t of [b.text?.text, ...(b.elements ?? []).map((e) => e.text)]) if (t !== undefined) expect(t.length).toBeLessThanOrEqual(3000);
    }
    expect(p.text.length).toBeLessThanOrEqual(40_000);
    expect(p.text.split('\n').filter((l) => l.startsWith('• '))).toHaveLength(MAX_ITEM_LINES);
    expect(p.text).toContain('_and 70 more_');
    const card = p.attachments[0]!.content as { body: { text: string }[] };
    expect(card.body.map((b) => b.text)).toContain('and 70 more');
  });

  it('escapes Slack control characters so sheet data cannot mention a channel or fake a link', () => {
    const p = renderSlackPayload(alert({ items: [item(1, { recipient: '<!channel> & <http://evil|click>' })] }));
    expect(p.text).not.toContain('<!channel>');
    expect(p.text).toContain('&lt;!channel&gt; &amp; &lt;http://evil|click&gt;');
    expect(JSON.stringify(p.blocks)).not.toContain('<!channel>');
  });

  it('marks sandbox alerts', () => {
    const p = renderSlackPayload(alert({ sandbox: true }));
    expect(p.text.startsWith('*[SANDBOX] ')).toBe(true);
  });
});

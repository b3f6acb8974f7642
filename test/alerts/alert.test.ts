import { describe, expect, it } from 'vitest';
import { MAX_ITEM_LINES, renderAlertText, renderSlackPayload, type WebhookPayload } from '../../src/alerts/alert.js';
import { alert, item } from './fixtures.js';

describe('renderAlertText', () => {
  it('has the title, the summary, a count with the total and one line per item in R$', () => {
    const text = renderAlertText(alert());
    const lines = text.split('\n');
    expect(lines[0]).toBe('Payments without news for 2h');
    expect(text).toContain('These items have had no update');
    expect(text).toContain('3 items, total R$ 3.703,71:');
    expect(text).toContain(
      '- folha-maio line 1: Maria 0 (pessoa0@example.com), R$ 1.234,56, processing since 2025-05-02T10:00:00.000Z, id 00000000-0000-4000-8000-000000000000',
    );
    expect(lines.filter((l) => l.startsWith('- '))).toHaveLength(3);
    expect(text).toContain('paybatch alert #7 (stale-items), profile default');
    expect(text).not.toContain('more');
  });

  it('shows at most 50 items, then "and N more"', () => {
    const text = renderAlertText(alert({}, 73));
    expect(text.split('\n').filter((l) => l.startsWith('- '))).toHaveLength(MAX_ITEM_LINES);
    expect(text).toContain('\nand 23 more\n');
    expect(text).toContain('73 items, total');
  });

  it('marks the sandbox, names a non-default profile and copes with items without row or recipient', () => {
    const text = renderAlertText(alert({ sandbox: true, profile: 'acme', items: [item(1, { line: null, recipient: null })] }));
    expect(text.startsWith('[SANDBOX] Payments without news')).toBe(true);
    expect(text).toContain('1 item, total R$ 1.234,57:');
    expect(text).toContain('- folha-maio: pessoa1@example.com, R$ 1.234,57,');
    expect(text).toContain('paybatch --profile acme alerts list');
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
    expect(p.text.startsWith('*Payments without news for 2h*\n')).toBe(true);
    expect(p.text).toContain('• folha-maio line 2: Maria 1 (pessoa1@example.com), R$ 1.234,57');
    expect(p.blocks[0]).toEqual({ type: 'header', text: { type: 'plain_text', text: 'Payments without news for 2h', emoji: false } });
    expect(p.blocks.map((b) => (b as { type: string }).type)).toEqual(['header', 'section', 'section', 'context']);
    // Teams Workflows
    expect(p.type).toBe('message');
    expect(p.attachments).toHaveLength(1);
    const att = p.attachments[0]!;
    expect(att.contentType).toBe('application/vnd.microsoft.card.adaptive');
    const card = att.content as { type: string; version: string; body: { type: string; text: string }[] };
    expect(card.type).toBe('AdaptiveCard');
    expect(card.body.every((b) => b.type === 'TextBlock' && typeof b.text === 'string')).toBe(true);
    expect(card.body.map((b) => b.text)).toContain(
      'folha-maio line 3: Maria 2 (pessoa2@example.com), R$ 1.234,58, processing since 2025-05-02T10:00:00.000Z, id 00000000-0000-4000-8000-000000000002',
    );
    // Plain JSON
    expect(JSON.parse(JSON.stringify(p))).toEqual(p);
  });

  it('stays within Slack limits with many long items and counts the rest', () => {
    const long = 'x'.repeat(400);
    const p = renderSlackPayload(alert({ title: 'T'.repeat(300), summary: 's'.repeat(5000), items: Array.from({ length: 120 }, (_, i) => item(i, { recipient: long })) }));
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

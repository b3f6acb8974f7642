import { describe, expect, it } from 'vitest';
import { checkProvider } from '../../src/engine/provider-check/check-provider.js';
import { miniProvider, useFakeProviders } from '../provider/fake-provider.js';

const { setup } = useFakeProviders();

describe('provider check: the webhook receiver behind the public URL', () => {
  const receiverAnswering = (status: number, body: unknown) => async (url: string) => {
    expect(url).toBe('https://pay.example.com/healthz');
    return { status, body };
  };

  it('a receiver whose ledger cannot be reached is named so, not taken for something else', async () => {
    const { client } = await setup(miniProvider().handler);
    const check = await checkProvider(client, {
      key: 'ana@example.com',
      publicUrl: 'https://pay.example.com/webhooks',
      fetchJson: receiverAnswering(503, { ok: false, ledger: 'unavailable', reason: 'the ledger cannot be reached (ECONNREFUSED)', counters: {} }),
    });
    const webhook = check.steps.find((s) => s.name === 'webhook');
    expect(webhook).toMatchObject({ ok: false });
    expect(webhook?.detail).toContain('answers, but its ledger cannot be reached (the ledger cannot be reached (ECONNREFUSED))');
    expect(webhook?.detail).not.toContain('not a paybatch receiver');
  });

  it('anything else that is not a healthy receiver is still "not a paybatch receiver"', async () => {
    const { client } = await setup(miniProvider().handler);
    const check = await checkProvider(client, { key: 'ana@example.com', publicUrl: 'https://pay.example.com/webhooks', fetchJson: receiverAnswering(502, '<html>Bad Gateway</html>') });
    expect(check.steps.find((s) => s.name === 'webhook')?.detail).toContain('answered HTTP 502, not a paybatch receiver');
  });
});

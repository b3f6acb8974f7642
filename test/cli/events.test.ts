import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { WebhookEvent } from '../../src/domain/webhook-event.js';
import { callbackHandler } from '../../src/engine/webhooks/apply-callback.js';
import { recordWebhookEvent } from '../../src/engine/webhooks/apply-event.js';
import { openLedger } from '../../src/ledger/open-ledger.js';
import { runCli } from '../helpers/test-io.js';
import { useTempDir } from '../helpers/temp-dir.js';

/** Bills of a provider whose bill amounts are reais (as the embedded sandbox's). */
const applyCallback = callbackHandler('reais');

const tempDir = useTempDir();
const callback = (eventId: string, type: string, category: string, detail: Record<string, unknown> = {}): WebhookEvent => ({
  kind: 'callback', eventId, type, category, timestamp: null, title: null, detail, raw: { eventId, type, category, detail },
});

describe('paybatch events list', () => {
  it('lists every event newest first, or only the unknown ones, with what each did', async () => {
    const dir = tempDir();
    const file = join(dir, 'ledger.db');
    const ledger = await openLedger(file);
    const received = (eventId: string, iso: string, e: WebhookEvent) => recordWebhookEvent(ledger, e, { deliveryId: eventId, receivedAt: new Date(iso) }, { onCallback: applyCallback });
    await received('u1', '2026-11-20T10:00:00Z', callback('u1', 'conta_corrente', 'limite_alterado', { novoLimite: 10 }));
    await received('t1', '2026-11-20T11:00:00Z', callback('t1', 'ted', 'ted_recebido', { valor: '10.00' }));
    await received('u2', '2026-11-20T12:00:00Z', callback('u2', 'cartao', 'fatura_fechada'));
    await ledger.close();

    const unknown = await runCli(['events', 'list', '--unknown', '--json', '--ledger', file]);
    expect(unknown.code, unknown.stderr).toBe(0);
    const docs = JSON.parse(unknown.stdout) as { eventId: string; topic: string; effect: string; payload: { type: string } }[];
    expect(docs.map((d) => [d.eventId, d.topic])).toEqual([['u2', 'unknown'], ['u1', 'unknown']]);
    expect(docs[1]!.payload.type).toBe('conta_corrente');

    const all = await runCli(['events', 'list', '--ledger', file]);
    expect(all.code).toBe(0);
    expect(all.stdout).toMatch(/t1.*ted \/ ted_recebido/);
    expect(all.stdout.indexOf('u2')).toBeLessThan(all.stdout.indexOf('u1'));
  });

  it('says so when there is nothing to list', async () => {
    const r = await runCli(['events', 'list', '--unknown', '--ledger', join(tempDir(), 'empty.db')]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('No unknown events.');
  });
});

import { describe, expect, it } from 'vitest';
import { raiseAlerts } from '../../src/engine/alerts/attention.js';
import { alertsView } from '../../src/engine/dashboard/dashboard.js';
import type { CertificateFacts } from '../../src/network/certificate-facts.js';
import { ledgerWithStartedBatch } from '../helpers/ledger-fixture.js';
import { useTempDir } from '../helpers/temp-dir.js';

const tempDir = useTempDir();
const t0 = new Date('2026-11-27T12:00:00Z');

describe('engine use cases return data; words are at the edge', () => {
  it('an alert is raised as its kind and facts: the ledger keeps its English text, and the dashboard reads it as data', async () => {
    const { ledger } = await ledgerWithStartedBatch(tempDir(), 1, t0);
    const certificate: CertificateFacts = {
      file: '/etc/paybatch/empresa.p12', subject: 'CN=EMPRESA LTDA', issuer: 'CN=Banco CA', notBefore: new Date('2026-01-01T00:00:00Z'), notAfter: new Date('2026-11-28T12:00:00Z'), fingerprint256: 'AB:CD',
    };
    const settings = { staleAfter: 1800, alertAfter: 7200, alertRepeat: 86_400, maxReprocess: 3, receiptWait: 60 };
    await raiseAlerts({ ledger, now: () => t0, settings, send: async () => [], profile: 'prod', sandbox: false, certificate });
    expect(await alertsView(ledger, { includeAcked: false })).toEqual([
      {
        id: 1,
        kind: 'certificate-expiring',
        title: 'The client certificate of the provider is about to expire',
        summary: 'The client certificate /etc/paybatch/empresa.p12 (CN=EMPRESA LTDA, issued by CN=Banco CA) ends on 2026-11-28T12:00:00.000Z, in 1 day; after that the provider refuses every call.',
        itemCount: 0,
        items: [],
        createdAt: t0.toISOString(),
        ackedAt: null,
      },
    ]);
    await ledger.close();
  });
});

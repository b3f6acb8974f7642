import { describe, expect, it } from 'vitest';
import type { Alert } from '../../src/alerts/alert.js';
import { raiseAlerts } from '../../src/engine/alerts/attention.js';
import type { CertificateFacts } from '../../src/network/certificate-facts.js';
import { ledgerWithStartedBatch } from '../helpers/ledger-fixture.js';
import { useTempDir } from '../helpers/temp-dir.js';

const tempDir = useTempDir();
const DAY = 86_400_000;
const t0 = new Date('2026-11-27T12:00:00Z');
const settings = { staleAfter: 1800, alertAfter: 7200, alertRepeat: 86_400, maxReprocess: 3, receiptWait: 60 };
const certificate = (notAfter: Date): CertificateFacts => ({
  file: '/etc/paybatch/empresa.p12', subject: 'CN=EMPRESA LTDA:12345678000190', issuer: 'CN=Banco CA', notBefore: new Date('2026-01-01T00:00:00Z'), notAfter, fingerprint256: 'AB:CD:EF',
});

describe("the daemon's alert before the client certificate ends", () => {
  it('is raised from 30 days before the end, once per alertRepeat, and not before', async () => {
    const { ledger } = await ledgerWithStartedBatch(tempDir(), 1, t0);
    const sent: Alert[] = [];
    const pass = async (at: Date, cert: CertificateFacts) =>
      (await raiseAlerts({ ledger, now: () => at, settings, send: async (a) => (sent.push(a), []), profile: 'prod', sandbox: false, certificate: cert })).alerts.filter((a) => a.kind === 'certificate-expiring');
    const ends = new Date(t0.getTime() + 40 * DAY);
    expect(await pass(t0, certificate(ends))).toEqual([]);
    const day10Before = new Date(ends.getTime() - 10 * DAY);
    const [first] = await pass(day10Before, certificate(ends));
    expect(first?.summary).toContain('/etc/paybatch/empresa.p12');
    expect(first?.summary).toContain('in 10 days');
    expect(first?.items).toEqual([]);
    expect(await pass(new Date(day10Before.getTime() + 3_600_000), certificate(ends))).toEqual([]);
    expect(await pass(new Date(day10Before.getTime() + DAY + 1000), certificate(ends))).toHaveLength(1);
    expect(sent.filter((a) => a.kind === 'certificate-expiring')).toHaveLength(2);
  });
});

import { hostname } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { storedAlertWords } from '../../src/alerts/alert.js';
import { openLedger, type Ledger } from '../../src/ledger/open-ledger.js';
import { buildDashboardApp } from '../../src/ui/dashboard-server.js';
import { usePostgresDatabases } from '../helpers/postgres.js';
import { useTempDir } from '../helpers/temp-dir.js';
import { HOST, REPORTS, TOKEN, seedDashboardLedger, useOpened } from './dashboard-fixture.js';

const tempDir = useTempDir();
const postgresDatabase = usePostgresDatabases();
const opened = useOpened();

const NOW = '2026-11-23T18:00:00.000Z'; // 15:00 in São Paulo
const ago = (seconds: number) => new Date(Date.parse(NOW) - seconds * 1000).toISOString();
/** A pid no process has (above Linux's largest, 2^22). */
const GONE_PID = 2 ** 22 + 7;
const THIS_HOST = hostname();

async function ledgerOf(backend: 'sqlite' | 'postgres'): Promise<Ledger> {
  const dir = tempDir();
  const ledger = await openLedger(backend === 'sqlite' ? join(dir, 'ledger.db') : await postgresDatabase());
  opened.push(ledger);
  await seedDashboardLedger(ledger, dir);
  return ledger;
}

/** What `/api/status` answers over `ledger`, signed in, for `profile` in `locale`. */
async function status(ledger: Ledger, o: { locale?: 'en' | 'pt-BR'; profile?: string } = {}) {
  const locale = o.locale ?? 'en';
  const { app } = buildDashboardApp({ ledger, locale, alertWords: (a) => storedAlertWords(a, locale), reports: REPORTS, token: TOKEN, hosts: [HOST], profile: o.profile, now: () => new Date(NOW) });
  opened.push(app);
  const first = await app.inject({ method: 'GET', url: `/?token=${TOKEN}`, headers: { host: HOST } });
  const cookie = String(first.headers['set-cookie']).split(';')[0]!;
  return (await app.inject({ method: 'GET', url: '/api/status', headers: { host: HOST, cookie } })).json();
}

/** What a daemon of `host` (this one's by default) recorded of itself; it started an hour ago unless told. */
function pass(ledger: Ledger, o: { host?: string; pid?: number; interval: number | null; started?: string; lastPass: string | null; stopped?: string }) {
  return ledger.run(
    ledger.db.insertInto('daemon_passes').values({
      host: o.host ?? THIS_HOST, pid: o.pid ?? process.pid, interval_seconds: o.interval, started_at: o.started ?? ago(3_600), last_pass_at: o.lastPass,
      stopped_at: o.stopped ?? null,
    }),
  );
}

describe.each(['sqlite', 'postgres'] as const)('paybatch ui: whether a daemon follows the payments (%s ledger)', (backend) => {
  it('says plainly that no daemon runs while a batch is started, how to start one for the profile, and the open alerts', async () => {
    const ledger = await ledgerOf(backend);
    expect(await status(ledger)).toEqual({
      zone: 'São Paulo time',
      daemon: { running: false, daemons: [], lastPassAt: null, lastPass: null, lastPassOnce: false, lagSeconds: null, lag: null, late: false, startedBatches: 1 },
      startDaemon: 'paybatch daemon',
      alerts: { open: 1, titles: [{ id: 1, title: '1 Pix payment failed' }] },
    });
    const pt = await status(ledger, { locale: 'pt-BR', profile: 'carga' });
    expect(pt.startDaemon).toBe('paybatch --profile carga daemon');
    expect(pt.alerts.titles).toEqual([{ id: 1, title: '1 pagamento Pix falhou' }]);
  });

  it('a daemon of this host runs while its process lives: its last pass in São Paulo time and how long ago', async () => {
    const ledger = await ledgerOf(backend);
    await pass(ledger, { interval: 30, lastPass: ago(90) });
    const { daemon } = await status(ledger, { locale: 'pt-BR' });
    expect(daemon).toEqual({
      running: true,
      daemons: [{ host: THIS_HOST, pid: process.pid, intervalSeconds: 30, startedAt: ago(3_600), started: '23/11/2026 14:00', lastPassAt: ago(90), lastPass: '23/11/2026 14:58' }],
      lastPassAt: ago(90), lastPass: '23/11/2026 14:58', lastPassOnce: false, lagSeconds: 90, lag: '1 minuto', late: false, startedBatches: 1,
    });
  });

  it('a daemon of this host whose process lives but has not passed for three intervals is running, late', async () => {
    const ledger = await ledgerOf(backend);
    await pass(ledger, { interval: 60, lastPass: ago(600) });
    const { daemon } = await status(ledger);
    expect(daemon).toMatchObject({ running: true, late: true, lagSeconds: 600, lag: '10 minutes' });
  });

  it('no daemon runs when the one of this host has ended, stopped, or only passed once (cron), nor when another host’s passes are old', async () => {
    const killed = await ledgerOf(backend);
    await pass(killed, { pid: GONE_PID, interval: 30, lastPass: ago(20) });
    expect((await status(killed)).daemon).toMatchObject({ running: false, daemons: [], lastPassAt: ago(20), lagSeconds: 20, lag: '20 seconds' });

    const stopped = await ledgerOf(backend);
    await pass(stopped, { interval: 30, lastPass: ago(20), stopped: ago(10) });
    expect((await status(stopped)).daemon).toMatchObject({ running: false, daemons: [] });

    const cron = await ledgerOf(backend);
    await pass(cron, { interval: null, lastPass: ago(7_200), stopped: ago(7_199) });
    expect((await status(cron, { locale: 'pt-BR' })).daemon).toMatchObject({ running: false, lastPassOnce: true, lastPass: '23/11/2026 13:00', lag: '2 horas' });

    // Another host's daemon (its pid means nothing here) at a 30 s interval: 3 intervals are 90 s, at least 2 minutes.
    const remote = await ledgerOf(backend);
    await pass(remote, { host: 'other-host.example', pid: 1234, interval: 30, lastPass: ago(119) });
    expect((await status(remote)).daemon).toMatchObject({ running: true, daemons: [{ host: 'other-host.example', pid: 1234 }] });
    await remote.run(remote.db.updateTable('daemon_passes').set({ last_pass_at: ago(121) }));
    expect((await status(remote)).daemon).toMatchObject({ running: false, daemons: [], lagSeconds: 121, lag: '2 minutes' });
    // At a 5-minute interval it is late only after 15 minutes.
    await remote.run(remote.db.updateTable('daemon_passes').set({ interval_seconds: 300, last_pass_at: ago(899) }));
    expect((await status(remote)).daemon).toMatchObject({ running: true, late: false });
  });

  it('no batch started: nothing waits for a daemon', async () => {
    const ledger = await ledgerOf(backend);
    await ledger.run(ledger.db.updateTable('batches').set({ status: 'settled' }));
    expect((await status(ledger)).daemon).toMatchObject({ running: false, startedBatches: 0 });
  });
});

describe.each(['sqlite', 'postgres'] as const)('paybatch ui: a daemon before its first pass (%s ledger)', (backend) => {
  it('runs from its start; late once it has neither passed nor started within a few intervals', async () => {
    const ledger = await ledgerOf(backend);
    await pass(ledger, { interval: 30, started: ago(5), lastPass: null });
    expect((await status(ledger)).daemon).toMatchObject({
      running: true, late: false, lastPassAt: null, lag: null, daemons: [{ host: THIS_HOST, pid: process.pid, intervalSeconds: 30, startedAt: ago(5), lastPassAt: null }],
    });
    await ledger.run(ledger.db.updateTable('daemon_passes').set({ started_at: ago(121) }));
    expect((await status(ledger)).daemon).toMatchObject({ running: true, late: true });
    // Another host's: gone by then.
    await ledger.run(ledger.db.updateTable('daemon_passes').set({ host: 'other-host.example' }));
    expect((await status(ledger)).daemon).toMatchObject({ running: false, late: false });
  });
});

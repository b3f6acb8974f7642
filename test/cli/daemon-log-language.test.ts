import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { daemonLogger } from '../../src/cli/daemon-logger.js';
import { Output } from '../../src/cli/output.js';
import type { DaemonEvent, DaemonLogEntry } from '../../src/daemon/log-events.js';
import { useTempDir } from '../helpers/temp-dir.js';
import { runCli, testIO } from '../helpers/test-io.js';

// Common English words (an independent list, as in help-language.test.ts): none may be left in a Portuguese line.
const ENGLISH = new Set(
  'the and with when which this that from every each its is are be only not of to by or if it into than will would there in at for on set run must should can cannot does goes needs was were has have been your you an but so after before nothing unknown invalid done stored already receiver listening closed failed refused stopping reached again answers agrees clock ledger provider events batch alert'.split(' '),
);

/** A log line's sentence, without the fields logged after it (`name=value`), its time and level, and names. */
function sentence(line: string): string[] {
  return line
    .replace(/^\d\d:\d\d:\d\d \S+\s+/, '')
    .replace(/ \w+=.*$/, '')
    .replace(/https?:\/\/\S+/g, ' ')
    .replace(/\bpaybatch( [a-z-]+)+( \S+)?/g, ' ')
    .replace(/(^|[\s(])-{1,2}[\w-]+/g, ' ')
    .replace(/\b\w+(-\w+)+\b/g, ' ')
    .replace(/\b[a-z]+[A-Z]\w*\b/g, ' ')
    .toLowerCase()
    .split(/[^a-zà-ú]+/)
    .filter(Boolean);
}

const tempDir = useTempDir();

const output = (locale: 'pt-BR' | 'en') => {
  const out = new Output(testIO({ env: { NO_COLOR: '1' } }), { json: false, quiet: false, verbose: false, color: false });
  out.locale = locale;
  return out;
};

// One line of every event the daemon logs, with the fields it logs (the record's type makes a new event fail here).
const LINES: Readonly<Record<DaemonEvent, DaemonLogEntry>> = {
  shared_ledger: { level: 'info', msg: 'shared ledger: working alongside any other daemons on it', ledger: 'postgres://db/paybatch' },
  clock_skewed: { level: 'warn', msg: "this host's clock is off the ledger database's: going by the database's (set this host's clock right, NTP)", offsetMs: 4200 },
  clock_agrees: { level: 'info', msg: "this host's clock agrees with the ledger database's again" },
  subscribed: { level: 'info', msg: 'subscribed to provider events', url: 'https://pay.example.com/webhooks' },
  ledger_unreachable: { level: 'warn', msg: 'the ledger cannot be reached (or stayed busy with other hosts); trying again', error: 'connect ECONNREFUSED' },
  timeout_reached: { level: 'warn', msg: 'stopping: --timeout reached with payments still open' },
  pass_done: { level: 'info', msg: 'pass done', pending: 2, unsent: 0, changed: 1 },
  // A part of a pass that failed: the failure's own text (a system error, the provider's answer) follows the step.
  pass_problem: { level: 'warn', msg: 'reconciling batch #3: connect ECONNREFUSED', step: 'reconcile', batchId: 3, error: 'connect ECONNREFUSED' },
  receipt_files_swept: { level: 'info', msg: 'removed temporary receipt files that killed writes left', count: 2 },
  scheduled_start: { level: 'info', msg: 'started a scheduled batch (import --pay-on)', batch: 7 },
  unknown_status: { level: 'warn', msg: 'unknown item status from the provider (kept, not guessed)', identifier: 'a1', status: 'LIMBO' },
  alert_raised: { level: 'warn', msg: 'alert: 3 payments stale', alertId: 4, kind: 'stale-items', items: 3 },
  alert_channel_failed: { level: 'error', msg: 'alert channel email failed', channel: 'email', alertId: 4, error: 'ECONNREFUSED' },
  healthz_unreachable: { level: 'warn', msg: 'healthz: the ledger cannot be reached; answering 503', reason: 'timeout' },
  healthz_answers: { level: 'info', msg: 'healthz: the ledger answers again' },
  webhook_refused: { level: 'warn', msg: 'webhook request refused', status: 401, reason: 'wrong secret' },
  webhook_proof_found: { level: 'info', msg: 'webhook deliveries are proved by hmac; pin it with: paybatch config set webhookVerification hmac', method: 'hmac' },
  webhook_aborted: { level: 'warn', msg: 'webhook delivery aborted by the client before its body ended', remote: '10.0.0.9' },
  webhook_id_differs: { level: 'warn', msg: 'webhook-id differs from the body eventId; the body eventId is the dedupe key', deliveryId: 'd1', eventId: 'e1' },
  webhook_not_stored: { level: 'error', msg: 'webhook event not stored; the provider will retry', eventId: 'e1', error: 'SQLITE_FULL' },
  webhook_not_stored_unreachable: { level: 'error', msg: 'webhook event not stored: the ledger cannot be reached; the provider will retry', eventId: 'e1', error: 'ECONNRESET' },
  webhook_stored: { level: 'info', msg: 'webhook event stored', eventId: 'e1', kind: 'pix' },
  webhook_duplicate: { level: 'info', msg: 'webhook event already stored', eventId: 'e1', kind: 'pix' },
  webhook_not_applied: { level: 'error', msg: 'webhook event stored but not applied yet; trying again shortly', eventId: 'e1', error: 'SQLITE_BUSY' },
  receiver_request_failed: { level: 'error', msg: 'webhook receiver failed on a request', error: 'EPIPE' },
  receiver_server_error: { level: 'error', msg: 'webhook receiver server error', error: 'EMFILE' },
  receiver_listening: { level: 'info', msg: 'webhook receiver listening', url: 'http://127.0.0.1:8787/webhooks', verification: 'auto' },
  receiver_closed: { level: 'info', msg: 'webhook receiver closed' },
  no_webhook_secret: { level: 'warn', msg: "no webhook secret: no receiver runs, payments are followed by polling alone (set one with 'paybatch config set webhookSecret')" },
  stopping: { level: 'info', msg: 'stopping: finishing the pass in flight' },
  dashboard_listening: { level: 'info', msg: 'dashboard: http://127.0.0.1:8788/#t', url: 'http://127.0.0.1:8788/#t' },
  return_file_written: { level: 'info', msg: 'wrote a CNAB 240 return file', batch: 7, file: '/srv/erp/retorno/retorno-7-rem0001.ret' },
  return_file_failed: { level: 'warn', msg: 'cannot write CNAB 240 return files', dir: '/srv/erp/retorno', error: 'ENOTDIR: not a directory' },
  scheduled_bills_sent: { level: 'info', msg: 'sent 2 scheduled bill(s) of CNAB 240 remittances', count: 2 },
};

function render(locale: 'pt-BR' | 'en', format: 'pretty' | 'json'): string[] {
  const lines: string[] = [];
  const log = daemonLogger(output(locale), format, (l) => lines.push(l));
  for (const [event, entry] of Object.entries(LINES)) log({ ...entry, event: event as DaemonEvent });
  return lines;
}

describe("the daemon's human log lines in pt-BR", () => {
  it('say every event in Portuguese, with its fields after it as logged', () => {
    const [label, ...lines] = render('pt-BR', 'pretty');
    expect(label).toBe('Horas abaixo no horário de São Paulo.');
    expect(lines).toHaveLength(Object.keys(LINES).length);
    const english = lines.filter((l) => sentence(l).some((w) => ENGLISH.has(w)));
    expect(english).toEqual([]);
    const said = (n: number) => lines[n]!.replace(/^\d\d:\d\d:\d\d /, '');
    // The step in Portuguese, the failure's own text after it, and its error not repeated among the fields.
    expect(said(7)).toBe('AVISO problema na passada, ao conciliar o lote #3: connect ECONNREFUSED step=reconcile batchId=3');
    expect(said(6)).toBe('INFO  passada concluída pending=2 unsent=0 changed=1');
    expect(said(8)).toBe('INFO  2 arquivos temporários de comprovante deixados por gravações interrompidas removidos count=2');
    expect(said(11)).toBe('AVISO alerta: 3 pagamentos Pix sem notícias alertId=4 kind=stale-items items=3');
    expect(said(15)).toBe('AVISO pedido de webhook recusado: segredo errado status=401 reason=wrong secret');
    expect(said(21)).toBe('INFO  evento de webhook gravado eventId=e1 kind=pix');
  });

  it('stay the English messages in English', () => {
    const [, ...lines] = render('en', 'pretty');
    const fields = (e: DaemonLogEntry) => Object.keys(e).length > 2;
    expect(lines.map((l) => l.replace(/^\d\d:\d\d:\d\d \S+\s+/, ''))).toEqual(
      Object.values(LINES).map((e) => (fields(e) ? expect.stringMatching(new RegExp(`^${e.msg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\w+=`)) : e.msg)),
    );
  });

  it('keep JSON lines English, with the event key, whatever the language', () => {
    const lines = render('pt-BR', 'json').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines[6]).toEqual({ time: expect.stringMatching(/Z$/), level: 'info', event: 'pass_done', msg: 'pass done', pending: 2, unsent: 0, changed: 1 });
    expect(lines.map((l) => l.msg)).toEqual(Object.values(LINES).map((e) => e.msg));
  });

  it('are given a key by every line the daemon logs', () => {
    const root = join(import.meta.dirname, '../../src');
    const files = [
      ...readdirSync(join(root, 'daemon')).map((f) => join(root, 'daemon', f)),
      join(root, 'cli/commands/daemon.ts'),
      join(root, 'cli/daemon-deps.ts'),
    ];
    const calls = files.flatMap((f) => {
      const text = readFileSync(f, 'utf8');
      return [...text.matchAll(/\blog\(\{[\s\S]*?\}\);/g)].map((m) => ({ file: f, call: m[0] }));
    });
    expect(calls.length).toBeGreaterThanOrEqual(25);
    expect(calls.filter((c) => !/\bevent: '|\.\.\.\(/.test(c.call)).map((c) => `${c.file}: ${c.call}`)).toEqual([]);
  });

  it('speak Portuguese in a real run of the daemon', async () => {
    const dir = tempDir();
    const r = await runCli(['daemon', '--once'], {
      env: { XDG_CONFIG_HOME: join(dir, 'config'), XDG_DATA_HOME: join(dir, 'data'), HOME: dir, LC_ALL: 'pt_BR.UTF-8', NO_COLOR: '1' },
    });
    expect(r.code).toBe(0);
    const lines = r.stderr.split('\n').filter((l) => /^\d\d:\d\d:\d\d /.test(l));
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.filter((l) => sentence(l).some((w) => ENGLISH.has(w)))).toEqual([]);
    expect(lines.some((l) => / INFO {2}passada concluída /.test(l))).toBe(true);
  });
});

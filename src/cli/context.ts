import { resolve } from 'node:path';
import { sharedMode } from '../private-files.js';
import { resolveLocale, type Locale } from '../words/locale.js';
import type { Profile } from '../config/profile.js';
import { LedgerClock, openLedger, skewed, type Ledger } from '../engine/ledger-door.js';
import type { ProviderClient } from '../provider/client.js';
import { languageEnv, type IO } from './io.js';
import { Output } from './output.js';
import type { Prompter } from './prompter.js';
import { terminalPrompter } from './prompter.js';

/** Options every command accepts (see `paybatch --help`). */
export interface GlobalOptions {
  readonly json: boolean;
  readonly profile?: string;
  readonly ledger?: string;
  readonly color: boolean;
  readonly quiet: boolean;
  readonly verbose: boolean;
}

/** What main() can be given instead of the real process: tests inject buffers, a clock and scripted prompts. */
export interface MainDeps {
  readonly io?: IO;
  /** Without `io`: what to do when stdout's reader goes away (bin/paybatch.js ends the process). */
  readonly readerGone?: () => void;
  readonly now?: () => Date;
  readonly prompter?: Prompter;
}

/** Everything a command needs, built once per run. Heavy resources are opened on first use by their getters. */
export interface Context {
  readonly io: IO;
  readonly out: Output;
  readonly globals: GlobalOptions;
  readonly prompter: Prompter;
  now(): Date;
  /** The profile in force (config file + PAYBATCH_* environment over defaults). */
  profile(): Promise<Profile>;
  /**
   * The language of human output: the profile's `locale` setting, else LC_ALL/LC_MESSAGES/LANG (pt-BR when they name
   * none). Reading it sets `out.locale`, which frames errors and warnings. `--json` documents never depend on it.
   */
  locale(): Promise<Locale>;
  ledgerFile(): Promise<string>;
  /**
   * The ledger, opened and migrated on first use, closed when the command ends; `statementTimeoutMs` bounds each
   * statement of a PostgreSQL ledger (the daemon's). Opening it reads its clock, which `now` follows from then on,
   * and warns when this host's is off (unless `logsSkew`: the daemon says so in its log).
   */
  ledger(o?: { statementTimeoutMs?: number; logsSkew?: boolean }): Promise<Ledger>;
  /** This process's time by the ledger's clock (see LedgerClock); `now` reads it. */
  readonly clock: LedgerClock;
  /** The provider client; on the default profile this first starts the embedded sandbox. */
  provider(): Promise<ProviderClient>;
  /** Registers cleanup (close the ledger, stop an embedded sandbox) to run when the command ends. */
  onClose(fn: () => Promise<void> | void): void;
  close(): Promise<void>;
}

const once = <T>(make: () => Promise<T>): (() => Promise<T>) => {
  let value: Promise<T> | undefined;
  return () => (value ??= make());
};

export function createContext(io: IO, globals: GlobalOptions, deps: MainDeps): Context {
  const closers: (() => Promise<void> | void)[] = [];
  const out = new Output(io, { json: globals.json, quiet: globals.quiet, verbose: globals.verbose, color: globals.color });
  // The profile named on the command line binds suggested commands before it is read (a refusal may come first).
  out.profile = globals.profile;
  const clock = new LedgerClock(deps.now);
  let opened: Promise<Ledger> | undefined;
  const ctx: Context = {
    io,
    globals,
    out,
    prompter: deps.prompter ?? terminalPrompter(io, () => out.locale),
    clock,
    now: clock.now,
    profile: once(async () => {
      const loaded = await (await import('../config/profile.js')).loadProfile(io.env, globals.profile);
      // Receipts go to the profile's own folder under receiptsDir (whatever the ledger setting says: that ledger is the
      // profile's), or the ledger's when --ledger names another one.
      const { receiptsFolder } = await import('../receipts/receipts-folder.js');
      const defaultLedger = (await import('../config/paths.js')).defaultLedgerFile(io.env, loaded.name);
      const ledgerFile = globals.ledger !== undefined && resolve(globals.ledger) !== resolve(defaultLedger) ? globals.ledger : undefined;
      const profile = { ...loaded, receiptsDir: receiptsFolder(loaded.receiptsDir, { profile: loaded.name, ...(ledgerFile === undefined ? {} : { ledgerFile }) }) };
      out.locale = resolveLocale(profile.settings.locale, languageEnv(io));
      out.profile = profile.name;
      warnIfShared(out, 'receipts', [loaded.receiptsDir, profile.receiptsDir], 'chmod -R go-rwx');
      return profile;
    }),
    locale: async () => {
      await ctx.profile();
      return out.locale;
    },
    ledgerFile: once(async () => {
      const profile = await ctx.profile();
      return globals.ledger ?? profile.settings.ledger ?? (await import('../config/paths.js')).defaultLedgerFile(io.env, profile.name);
    }),
    ledger: (o = {}) =>
      (opened ??= (async () => {
        const ledger = await openLedger(await ctx.ledgerFile(), o.statementTimeoutMs === undefined ? {} : { statementTimeoutMs: o.statementTimeoutMs });
        ctx.onClose(() => ledger.close());
        if (ledger.dialect === 'sqlite') warnIfShared(out, 'ledger', [ledger.file, `${ledger.file}-wal`, `${ledger.file}-shm`], 'chmod go-rwx');
        else if (skewed(await clock.sync(ledger)) && !o.logsSkew) out.warn(out.words.clockSkew(clock.reading!.offsetMs, ledger.file));
        return ledger;
      })()),
    provider: once(async () => {
      const { connectProvider } = await import('./connect-provider.js');
      const paths = await import('../config/paths.js');
      const ledgerFile = await ctx.ledgerFile();
      // The embedded sandbox keeps its state beside an SQLite ledger; with a PostgreSQL one, beside the profile's file.
      const { isPostgresUrl } = await import('../domain/ledger-location.js');
      const beside = isPostgresUrl(ledgerFile) ? paths.defaultLedgerFile(io.env, (await ctx.profile()).name) : ledgerFile;
      const sandboxState = paths.sandboxStateFile(beside);
      const profile = await ctx.profile();
      const reach = profile.embeddedSandbox ? undefined : await (await import('./provider-reach.js')).reachOf(ctx, profile);
      const { client, close } = await connectProvider(profile, { sandboxState, out, ...(reach ? { reach } : {}) });
      ctx.onClose(close);
      return client;
    }),
    onClose: (fn) => void closers.push(fn),
    async close() {
      // Last opened, first closed: the provider (and an embedded sandbox) stops before the ledger closes.
      for (const fn of closers.splice(0).reverse()) await fn();
    },
  };
  return ctx;
}

/**
 * Warns when group or others can read what paybatch keeps private (paybatch creates it 0600/0700, but an older
 * version, a copy or a restore may not have). Once per run: the callers are opened once.
 */
function warnIfShared(out: Output, what: 'ledger' | 'receipts', paths: readonly string[], fix: string): void {
  const shared = paths.flatMap((path) => {
    const mode = sharedMode(path);
    return mode === null ? [] : [{ path, mode: mode.toString(8).padStart(4, '0') }];
  });
  if (!shared.length) return;
  out.warn(out.words.shared(what, shared.map((s) => `${s.path} (mode ${s.mode})`).join(', '), `${fix} ${shared.map((s) => s.path).join(' ')}`));
}

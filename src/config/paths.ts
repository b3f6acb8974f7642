import { homedir } from 'node:os';
import { basename, dirname, join } from 'node:path';

type Env = Readonly<Record<string, string | undefined>>;

/** $XDG_CONFIG_HOME/paybatch, or ~/.config/paybatch. */
export function configDir(env: Env): string {
  return join(env.XDG_CONFIG_HOME || join(env.HOME || homedir(), '.config'), 'paybatch');
}

/** $XDG_DATA_HOME/paybatch, or ~/.local/share/paybatch: the ledger, receipts and the embedded sandbox's state. */
export function dataDir(env: Env): string {
  return join(env.XDG_DATA_HOME || join(env.HOME || homedir(), '.local', 'share'), 'paybatch');
}

export const configFile = (env: Env) => join(configDir(env), 'config.json');
/** Each profile has its own ledger, so sandbox rehearsals never mix with real payments. */
export const defaultLedgerFile = (env: Env, profile = 'default') =>
  join(dataDir(env), profile === 'default' ? 'ledger.db' : `ledger-${profile.replace(/[^A-Za-z0-9_-]/g, '_')}.db`);

/**
 * The embedded sandbox's state beside a ledger: `ledger.db` → `ledger.sandbox-state.db`. A profile's ledger name never
 * holds a dot (defaultLedgerFile turns it into "_"), so no profile's ledger can be this file (the old name,
 * `ledger-sandbox.db`, was the ledger of a profile named "sandbox"). State under the old name is not read: it was
 * sandbox data, and the sandbox starts afresh.
 */
export const sandboxStateFile = (ledgerFile: string) =>
  join(dirname(ledgerFile), `${basename(ledgerFile).replace(/\.db$/, '')}.sandbox-state.db`);

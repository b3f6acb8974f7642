import { chmodSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { ConfigError } from '../errors.js';
import type { Settings } from './settings.js';

/** config.json: named profiles, each a partial set of settings (the rest come from the environment and defaults). */
export interface ConfigFile {
  profiles: Record<string, Partial<Settings> & { approvers?: Record<string, string> }>;
}

/** Reads the config file; a missing file is an empty one. Refuses a file others can read, since it may hold secrets. */
export function readConfigFile(path: string): ConfigFile {
  let stat;
  try {
    stat = statSync(path);
  } catch {
    return { profiles: {} };
  }
  if (process.platform !== 'win32' && (stat.mode & 0o077) !== 0) {
    const mode = (stat.mode & 0o777).toString(8);
    throw new ConfigError(`${path} can be read by other users (mode ${mode}) and may hold secrets.`, {
      hint: `Run: chmod 600 ${path}`,
      reason: { code: 'config_shared', path, mode },
    });
  }
  try {
    const parsed = JSON.parse(readFileSync(path, 'utf8')) as Partial<ConfigFile>;
    return { profiles: parsed.profiles ?? {} };
  } catch (e) {
    const error = (e as Error).message;
    throw new ConfigError(`${path} is not valid JSON: ${error}`, { reason: { code: 'config_not_json', path, error } });
  }
}

/** Writes the config file atomically with mode 0600 (its folder 0700). */
export function writeConfigFile(path: string, config: ConfigFile): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
  chmodSync(tmp, 0o600);
  renameSync(tmp, path);
}

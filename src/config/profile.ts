import { readFileSync } from 'node:fs';
import { ConfigError } from '../errors.js';
import { readConfigFile } from './config-file.js';
import { configFile, dataDir } from './paths.js';
import { DEFAULT_SETTINGS, envName, isSecret, SETTING_NAMES, SETTINGS, settingRule, type SettingName, type Settings } from './settings.js';

type Env = Readonly<Record<string, string | undefined>>;
export type SettingSource = 'default' | 'file' | 'env';

/** The settings in force for one run: config file profile, then PAYBATCH_* variables, over the defaults. */
export interface Profile {
  readonly name: string;
  readonly configPath: string;
  readonly settings: Settings;
  readonly sources: Readonly<Partial<Record<SettingName, SettingSource>>>;
  /** No baseUrl anywhere: paybatch runs the sandbox inside its own process. */
  readonly embeddedSandbox: boolean;
  readonly receiptsDir: string;
}

export function loadProfile(env: Env, name = 'default'): Profile {
  const path = configFile(env);
  const file = readConfigFile(path);
  const stored = file.profiles[name];
  if (!stored && name !== 'default') {
    const known = Object.keys(file.profiles).join(', ');
    throw new ConfigError(`There is no profile "${name}" in ${path}.`, {
      hint: known ? `Known profiles: ${known}.` : "Create it with 'paybatch config init --profile NAME'.",
      reason: { code: 'profile_missing', profile: name, path, known },
    });
  }
  const settings: Settings = { ...DEFAULT_SETTINGS };
  const sources: Partial<Record<SettingName, SettingSource>> = {};
  for (const key of SETTING_NAMES) {
    const fromFile = stored?.[key];
    if (fromFile !== undefined) {
      (settings as unknown as Record<string, unknown>)[key] = fromFile;
      sources[key] = 'file';
    }
    const fromEnv = readEnvSetting(env, key);
    if (fromEnv !== undefined) {
      (settings as unknown as Record<string, unknown>)[key] = fromEnv;
      sources[key] = 'env';
    }
  }
  return {
    name,
    configPath: path,
    settings,
    sources,
    embeddedSandbox: !settings.baseUrl,
    receiptsDir: settings.receiptsDir ?? `${dataDir(env)}/receipts`,
  };
}

/** PAYBATCH_X, or for secrets PAYBATCH_X_FILE naming a file that holds it (systemd credentials, Docker secrets). */
function readEnvSetting(env: Env, key: SettingName): Settings[SettingName] | undefined {
  const variable = envName(key);
  let raw = env[variable];
  if (raw === undefined && isSecret(key) && env[`${variable}_FILE`]) {
    try {
      raw = readFileSync(env[`${variable}_FILE`]!, 'utf8').trim();
    } catch (e) {
      const error = (e as Error).message;
      throw new ConfigError(`${variable}_FILE names a file that cannot be read: ${error}`, { reason: { code: 'secret_file_unreadable', variable: `${variable}_FILE`, error } });
    }
  }
  if (raw === undefined || raw === '') return undefined;
  const parsed = SETTINGS[key].parse(raw);
  if (!parsed.ok) {
    throw new ConfigError(`${variable}: ${isSecret(key) ? 'invalid value' : `"${raw}"`} ${parsed.error}`, { reason: { code: 'env_setting_invalid', variable, ...settingRule(key) } });
  }
  return parsed.value;
}

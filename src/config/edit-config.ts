import { ConfigError } from '../errors.js';
import { readConfigFile, writeConfigFile } from './config-file.js';
import { isSettingName, SETTING_NAMES, SETTINGS, settingRule, type SettingName, type Settings } from './settings.js';

/** Checks a setting's name and text and returns the value to store; errors name the setting and the rule. */
export function parseSetting(name: string, text: string): { name: SettingName; value: Settings[SettingName] } {
  if (!isSettingName(name)) throw unknownSetting(name);
  const parsed = SETTINGS[name].parse(text);
  if (!parsed.ok) throw new ConfigError(`${name}: ${parsed.error}`, { reason: { code: 'setting_invalid', setting: name, ...settingRule(name) } });
  return { name, value: parsed.value };
}

/** The error of a name that is no setting, listing the settings. */
export function unknownSetting(name: string): ConfigError {
  const settings = SETTING_NAMES.join(', ');
  return new ConfigError(`Unknown setting "${name}".`, { hint: `Settings: ${settings}.`, reason: { code: 'setting_unknown', setting: name, settings } });
}

/** Sets (or with undefined removes) settings of one profile in the config file, creating both as needed. */
export function updateProfile(path: string, profile: string, changes: Partial<Record<SettingName, Settings[SettingName] | undefined>>): void {
  const config = readConfigFile(path);
  const current: Record<string, unknown> = { ...config.profiles[profile] };
  for (const [k, v] of Object.entries(changes)) {
    if (v === undefined) delete current[k];
    else current[k] = v;
  }
  config.profiles[profile] = current as Partial<Settings>;
  writeConfigFile(path, config);
}

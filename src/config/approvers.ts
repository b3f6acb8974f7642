import { parsePublicKey } from '../domain/approver-key.js';
import { ConfigError, UsageError } from '../errors.js';
import { readConfigFile, writeConfigFile } from './config-file.js';

/**
 * The approvers a profile trusts: names and public keys, in the profile's entry of the config file (`approvers`),
 * never in the ledger — whoever can write the ledger must not be able to make themselves an approver. Every approval
 * is checked against these keys when money is about to move.
 */
export type Approvers = Readonly<Record<string, string>>;

const NAME = /^[\p{L}\p{N}._@-]{1,64}$/u;

/** The profile's registered approvers (none when the profile or its list is absent). A damaged entry is refused. */
export function registeredApprovers(configPath: string, profile: string): Approvers {
  const listed = readConfigFile(configPath).profiles[profile]?.approvers ?? {};
  const approvers: Record<string, string> = {};
  for (const [name, key] of Object.entries(listed)) {
    const parsed = typeof key === 'string' ? parsePublicKey(key) : null;
    if (!parsed?.ok) throw new ConfigError(`${configPath}: profile "${profile}", approver "${name}": ${parsed ? parsed.error : 'the public key must be a text'}.`);
    approvers[name] = parsed.value;
  }
  return approvers;
}

export type AddOutcome = 'added' | 'unchanged';

/**
 * Registers `publicKey` as `name` in the profile. The same name with the same key changes nothing; a name taken by
 * another key, or a key registered under another name (one person would count twice), is refused.
 */
export function addApprover(configPath: string, profile: string, name: string, publicKey: string): { outcome: AddOutcome; publicKey: string } {
  if (!NAME.test(name)) throw new UsageError(`The approver's name "${name}" must be 1 to 64 letters, digits, ".", "_", "@" or "-".`);
  const parsed = parsePublicKey(publicKey);
  if (!parsed.ok) throw new UsageError(`Not a public key: ${parsed.error}.`);
  const current = registeredApprovers(configPath, profile);
  if (current[name] === parsed.value) return { outcome: 'unchanged', publicKey: parsed.value };
  if (current[name] !== undefined) {
    throw new UsageError(`The approver "${name}" is registered with another key.`, { hint: `To replace it, run 'paybatch approver remove ${name}' first.` });
  }
  const other = Object.entries(current).find(([, key]) => key === parsed.value);
  if (other) throw new UsageError(`This key is already registered as "${other[0]}"; one key is one approver.`);
  writeApprovers(configPath, profile, { ...current, [name]: parsed.value });
  return { outcome: 'added', publicKey: parsed.value };
}

/** Removes `name` from the profile's approvers; false when it was not there. */
export function removeApprover(configPath: string, profile: string, name: string): boolean {
  const current = registeredApprovers(configPath, profile);
  if (current[name] === undefined) return false;
  const { [name]: _removed, ...rest } = current;
  writeApprovers(configPath, profile, rest);
  return true;
}

function writeApprovers(configPath: string, profile: string, approvers: Record<string, string>): void {
  const config = readConfigFile(configPath);
  const entry = { ...config.profiles[profile] };
  if (Object.keys(approvers).length) entry.approvers = approvers;
  else delete entry.approvers;
  config.profiles[profile] = entry;
  writeConfigFile(configPath, config);
}

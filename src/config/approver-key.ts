import { chmodSync, existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { hostname, userInfo } from 'node:os';
import { dirname, join } from 'node:path';
import { createPrivateKey, createPublicKey, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { fingerprintOf, publicKeyLine } from '../domain/approver-key.js';
import { ConfigError } from '../errors.js';
import { makePrivateDir, PRIVATE_DIR_MODE, writePrivateFile } from '../private-files.js';
import { configDir } from './paths.js';

type Env = Readonly<Record<string, string | undefined>>;

/**
 * An approver's own key pair, in their own config folder: the private key (PKCS#8 PEM, encrypted when made with a
 * passphrase) 0600 in a 0700 folder, and the public key line beside it. Signing reads the private key; the public
 * key file only tells an import who its maker is without asking for the passphrase.
 */
export interface ApproverKeyFiles {
  readonly privateKey: string;
  readonly publicKey: string;
  /** The default folder, paybatch's own: made 0700 even when it existed. A folder `--key` names is left as it is. */
  readonly ownFolder: boolean;
}

/** `--key <file>` (or PAYBATCH_APPROVER_KEY) names the private key; else `<config folder>/approver/approver-key.pem`. */
export function approverKeyFiles(env: Env, keyFile?: string): ApproverKeyFiles {
  const privateKey = keyFile ?? join(configDir(env), 'approver', 'approver-key.pem');
  return { privateKey, publicKey: `${privateKey}.pub`, ownFolder: keyFile === undefined };
}

export interface NewApproverKey {
  readonly files: ApproverKeyFiles;
  readonly publicKey: string;
  readonly fingerprint: string;
  readonly encrypted: boolean;
}

/** Makes a new Ed25519 key pair; never replaces an existing key (its registrations would silently stop working). */
export async function createApproverKey(files: ApproverKeyFiles, passphrase: string | null): Promise<NewApproverKey> {
  if (existsSync(files.privateKey)) {
    throw new ConfigError(`There is already an approver key at ${files.privateKey}; paybatch does not replace it.`, {
      hint: `Its public key is in ${files.publicKey}. To make a new one, move the old key away first (and have its registrations replaced with 'paybatch approver add').`,
      reason: { code: 'approver_key_exists', file: files.privateKey, publicKey: files.publicKey },
    });
  }
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const pem = privateKey.export(
    passphrase === null ? { type: 'pkcs8', format: 'pem' } : { type: 'pkcs8', format: 'pem', cipher: 'aes-256-cbc', passphrase },
  ) as string;
  const line = publicKeyLineOf(publicKey);
  makePrivateDir(dirname(files.privateKey));
  if (files.ownFolder) chmodSync(dirname(files.privateKey), PRIVATE_DIR_MODE);
  await writePrivateFile(files.privateKey, pem);
  writeFileSync(files.publicKey, `${line}\n`, { mode: 0o644 });
  return { files, publicKey: line, fingerprint: fingerprintOf(line), encrypted: passphrase !== null };
}

/** The key pair of `files`, opened for signing. `passphrase` is asked only when the key is encrypted. */
export interface ApproverSigner {
  readonly publicKey: string;
  readonly fingerprint: string;
  sign(message: Buffer): string;
}

/**
 * Opens the private key. Refuses a key file others can read, a missing one (naming `approver init`) and a wrong
 * passphrase; `passphrase` is called only for an encrypted key.
 */
export async function openApproverKey(files: ApproverKeyFiles, passphrase: () => Promise<string>): Promise<ApproverSigner> {
  const pem = readPrivateKey(files.privateKey);
  const encrypted = isEncrypted(pem);
  const secret = encrypted ? await passphrase() : undefined;
  let key: KeyObject;
  try {
    key = createPrivateKey(secret === undefined ? pem : { key: pem, format: 'pem', passphrase: secret });
  } catch {
    const problem = encrypted ? 'wrong_passphrase' : 'not_pkcs8';
    throw new ConfigError(`The approver key ${files.privateKey} could not be opened: ${encrypted ? 'wrong passphrase' : 'it is not a PKCS#8 PEM private key'}.`, {
      reason: { code: 'approver_key_unusable', file: files.privateKey, problem },
    });
  }
  if (key.asymmetricKeyType !== 'ed25519') {
    throw new ConfigError(`The approver key ${files.privateKey} is not an Ed25519 key.`, { reason: { code: 'approver_key_unusable', file: files.privateKey, problem: 'not_ed25519' } });
  }
  const line = publicKeyLineOf(createPublicKey(key));
  return { publicKey: line, fingerprint: fingerprintOf(line), sign: (message) => sign(null, message, key).toString('base64') };
}

/** Whether the key file at `files` holds an encrypted key (so a passphrase will be asked). */
export function approverKeyIsEncrypted(files: ApproverKeyFiles): boolean {
  return isEncrypted(readPrivateKey(files.privateKey));
}

/** The fingerprint of the public key beside `files`' private key (read without its passphrase); null without one. */
export function ownFingerprint(files: ApproverKeyFiles): string | null {
  try {
    return fingerprintOf(readFileSync(files.publicKey, 'utf8').trim());
  } catch {
    return null;
  }
}

/** `user@host` of this process: shown beside a signature, never an identity. */
export function osIdentity(): string {
  let user: string;
  try {
    user = userInfo().username;
  } catch {
    user = process.env.USER ?? 'unknown';
  }
  return `${user}@${hostname()}`;
}

function readPrivateKey(path: string): string {
  let mode: number;
  try {
    mode = statSync(path).mode;
  } catch {
    throw new ConfigError(`There is no approver key at ${path}.`, {
      hint: "Make one with 'paybatch approver init', then have its public key registered with 'paybatch approver add'.",
      reason: { code: 'approver_key_missing', file: path },
    });
  }
  if (process.platform !== 'win32' && (mode & 0o077) !== 0) {
    const shown = (mode & 0o777).toString(8);
    throw new ConfigError(`The approver key ${path} can be read by other users (mode ${shown}).`, { hint: `Run: chmod 600 ${path}`, reason: { code: 'approver_key_shared', file: path, mode: shown } });
  }
  return readFileSync(path, 'utf8');
}

const isEncrypted = (pem: string) => pem.includes('-----BEGIN ENCRYPTED PRIVATE KEY-----');

function publicKeyLineOf(key: KeyObject): string {
  const { x } = key.export({ format: 'jwk' });
  return publicKeyLine(Buffer.from(x!, 'base64url'));
}

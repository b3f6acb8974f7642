import { createHash, createPublicKey, verify, type KeyObject } from 'node:crypto';
import { fail, ok, type Result } from './result.js';

/**
 * Approvers' public keys as people copy them: `ed25519:<base64 of the 32 raw bytes>`, one line. The key pair is
 * made and used by config/approver-key.ts; here only what needs no file: reading a key, its fingerprint, checking
 * a signature.
 */

const PREFIX = 'ed25519:';

/** Reads `ed25519:<base64>` (spaces around ignored) into its normal form; refuses anything else, saying why. */
export function parsePublicKey(text: string): Result<string> {
  const t = text.trim();
  if (!t.startsWith(PREFIX)) return fail(`an approver's public key starts with "${PREFIX}" (as 'paybatch approver init' prints it)`);
  const b64 = t.slice(PREFIX.length);
  if (!/^[A-Za-z0-9+/]{43}=$/.test(b64)) return fail('the public key must be the base64 of 32 bytes after "ed25519:" (44 characters ending in "=")');
  return ok(`${PREFIX}${b64}`);
}

/** The 32 raw bytes of a key `parsePublicKey` accepted, as the public key line. */
export const publicKeyLine = (raw: Buffer) => `${PREFIX}${raw.toString('base64')}`;

/** A short fingerprint of a public key line: the first 16 hex digits of the SHA-256 of its raw bytes. */
export function fingerprintOf(publicKey: string): string {
  return createHash('sha256').update(rawOf(publicKey)).digest('hex').slice(0, 16);
}

/** True when `signature` (base64) is `publicKey`'s Ed25519 signature of `message`. False for any malformed input. */
export function verifySignature(publicKey: string, message: Buffer, signature: string): boolean {
  try {
    const sig = Buffer.from(signature, 'base64');
    return sig.length === 64 && verify(null, message, keyObjectOf(publicKey), sig);
  } catch {
    return false;
  }
}

/** node:crypto's key for a public key line. */
export function keyObjectOf(publicKey: string): KeyObject {
  return createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: rawOf(publicKey).toString('base64url') }, format: 'jwk' });
}

function rawOf(publicKey: string): Buffer {
  const parsed = parsePublicKey(publicKey);
  if (!parsed.ok) throw new RangeError(parsed.error);
  return Buffer.from(parsed.value.slice(PREFIX.length), 'base64');
}

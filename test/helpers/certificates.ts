import { execFileSync } from 'node:child_process';
import { chmodSync, writeFileSync } from 'node:fs';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { join } from 'node:path';
import forge from 'node-forge';

/** A certificate and its key as PEM, made by the test itself (node-forge signs; keys come from Node's crypto, fast). */
export interface Issued {
  readonly cert: string;
  readonly key: string;
  readonly forgeCert: forge.pki.Certificate;
  readonly forgeKey: forge.pki.rsa.PrivateKey;
}

const DAY = 86_400_000;

function rsaKey(): { pem: string; forgeKey: forge.pki.rsa.PrivateKey } {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const pem = privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();
  return { pem, forgeKey: forge.pki.privateKeyFromPem(pem) };
}

/**
 * Issues a certificate for `cn`: self-signed as a CA when `by` is absent, else signed by `by`. `names` become its
 * subjectAltName (DNS names, or IP addresses); validity from `from` to `until` (default: yesterday to 90 days on).
 */
export function issue(cn: string, o: { by?: Issued; names?: readonly string[]; from?: Date; until?: Date; now?: Date } = {}): Issued {
  const now = o.now ?? new Date();
  const { pem, forgeKey } = rsaKey();
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.setRsaPublicKey(forgeKey.n, forgeKey.e);
  cert.serialNumber = `01${randomBytes(8).toString('hex')}`;
  cert.validity.notBefore = o.from ?? new Date(now.getTime() - DAY);
  cert.validity.notAfter = o.until ?? new Date(now.getTime() + 90 * DAY);
  const subject = [{ name: 'commonName', value: cn }];
  cert.setSubject(subject);
  cert.setIssuer(o.by ? o.by.forgeCert.subject.attributes : subject);
  const extensions: object[] = [{ name: 'basicConstraints', cA: !o.by }];
  if (!o.by) extensions.push({ name: 'keyUsage', keyCertSign: true, cRLSign: true, digitalSignature: true });
  if (o.names?.length) {
    extensions.push({ name: 'subjectAltName', altNames: o.names.map((n) => (/^[\d.]+$/.test(n) ? { type: 7, ip: n } : { type: 2, value: n })) });
  }
  cert.setExtensions(extensions);
  cert.sign(o.by?.forgeKey ?? forgeKey, forge.md.sha256.create());
  return { cert: forge.pki.certificateToPem(cert), key: pem, forgeCert: cert, forgeKey };
}

/** A PKCS#12 file (3DES, which OpenSSL 3 reads) of the certificate and key, encrypted with `passphrase`. */
export function pkcs12(of: Issued, passphrase: string): Buffer {
  const asn1 = forge.pkcs12.toPkcs12Asn1(of.forgeKey, [of.forgeCert], passphrase, { algorithm: '3des' });
  return Buffer.from(forge.asn1.toDer(asn1).getBytes(), 'binary');
}

/**
 * A PKCS#12 file in the legacy ciphers (RC2-40 for the certificates) that OpenSSL 3 refuses without its legacy
 * provider — as older tools and Windows export them. Made by the `openssl` command (Debian's package).
 */
export function legacyPkcs12(of: Issued, passphrase: string, dir: string): Buffer {
  const cert = join(dir, `legacy-${randomBytes(4).toString('hex')}.pem`);
  writeFileSync(cert, of.cert + of.key, { mode: 0o600 });
  return execFileSync('openssl', ['pkcs12', '-export', '-legacy', '-in', cert, '-passout', `pass:${passphrase}`], { maxBuffer: 1 << 20 });
}

/** Writes `data` to `dir/name` readable by its owner alone (as private keys must be); returns the path. */
export function privateFile(dir: string, name: string, data: string | Buffer): string {
  const path = join(dir, name);
  writeFileSync(path, data, { mode: 0o600 });
  chmodSync(path, 0o600);
  return path;
}

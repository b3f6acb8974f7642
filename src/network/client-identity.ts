import { createPrivateKey, X509Certificate, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as tls from 'node:tls';
import { sharedMode } from '../private-files.js';
import type { CertificateFacts } from './certificate-facts.js';

type Env = Readonly<Record<string, string | undefined>>;

/** The profile's TLS files: a client certificate as PEM files or one PKCS#12 file, and a CA file of its own. */
export interface TlsFiles {
  readonly clientCert?: string;
  readonly clientKey?: string;
  readonly clientPfx?: string;
  readonly caFile?: string;
}

export type TlsSetting = keyof TlsFiles;


/** Why the TLS files cannot be used; no call was made. */
export type TlsProblem =
  | { readonly code: 'pfx_and_pem' }
  | { readonly code: 'pem_half'; readonly missing: 'clientCert' | 'clientKey' }
  | { readonly code: 'file_unreadable'; readonly setting: TlsSetting; readonly file: string; readonly reason: string }
  | { readonly code: 'file_shared'; readonly setting: TlsSetting; readonly file: string; readonly mode: string }
  | { readonly code: 'no_certificate'; readonly setting: TlsSetting; readonly file: string }
  | { readonly code: 'no_key'; readonly file: string }
  | { readonly code: 'passphrase_wrong'; readonly setting: TlsSetting; readonly file: string }
  | { readonly code: 'pfx_unreadable'; readonly file: string; readonly reason: string }
  | { readonly code: 'key_mismatch'; readonly certFile: string; readonly keyFile: string }
  | { readonly code: 'expired'; readonly file: string; readonly notBefore: Date; readonly notAfter: Date }
  | { readonly code: 'not_yet_valid'; readonly file: string; readonly notBefore: Date; readonly notAfter: Date };

/** TLS for the provider's connections: one context for every connection, and what its certificate says. */
export interface TlsIdentity {
  /** Options for `tls.connect` (a secure context holding the certificate, its key and the trusted CAs). */
  readonly connect: { readonly secureContext: tls.SecureContext };
  /** The client certificate; null when only a CA file is set. */
  readonly certificate: CertificateFacts | null;
}

export type TlsReading = { readonly ok: true; readonly identity: TlsIdentity | null } | { readonly ok: false; readonly problem: TlsProblem };

/**
 * Reads the profile's TLS files and checks them before any call: the certificate and its key belong together, the
 * certificate is valid at `now`, files holding a key are private (0600). `passphrase` is asked only when a file is
 * encrypted (a PKCS#12 file may have none). A PKCS#12 file in the legacy ciphers OpenSSL 3 no longer reads (RC2, as
 * older tools and Windows export them) is read with node-forge. A CA file is added to the default roots (and to
 * NODE_EXTRA_CA_CERTS), not put in their place. Null identity when no file is set: Node's defaults apply.
 */
export async function readTlsFiles(files: TlsFiles, o: { passphrase: () => Promise<string>; now: Date; env: Env }): Promise<TlsReading> {
  if (files.clientPfx && (files.clientCert || files.clientKey)) return fail({ code: 'pfx_and_pem' });
  if (Boolean(files.clientCert) !== Boolean(files.clientKey)) return fail({ code: 'pem_half', missing: files.clientCert ? 'clientKey' : 'clientCert' });
  if (!files.clientPfx && !files.clientCert && !files.caFile) return { ok: true, identity: null };

  let ca: string[] | undefined;
  if (files.caFile) {
    const text = readText('caFile', files.caFile);
    if (typeof text !== 'string') return fail(text);
    if (!text.includes('-----BEGIN CERTIFICATE-----')) return fail({ code: 'no_certificate', setting: 'caFile', file: files.caFile });
    ca = [...defaultAuthorities(o.env), text];
  }

  let material: Material | null = null;
  if (files.clientPfx) {
    const opened = await openPfx(files.clientPfx, o.passphrase);
    if ('code' in opened) return fail(opened);
    material = opened;
  } else if (files.clientCert && files.clientKey) {
    const cert = readText('clientCert', files.clientCert, { private: /PRIVATE KEY-----/ });
    if (typeof cert !== 'string') return fail(cert);
    const key = readText('clientKey', files.clientKey, { private: /./ });
    if (typeof key !== 'string') return fail(key);
    if (!cert.includes('-----BEGIN CERTIFICATE-----')) return fail({ code: 'no_certificate', setting: 'clientCert', file: files.clientCert });
    const opened = await privateKey({ key, keyFile: files.clientKey }, 'clientKey', o.passphrase);
    if ('code' in opened) return fail(opened);
    material = { kind: 'pem', cert, key, passphrase: opened.passphrase, keyObject: opened.key, certFile: files.clientCert, keyFile: files.clientKey };
  }

  let certificate: CertificateFacts | null = null;
  if (material) {
    let x509: X509Certificate;
    try {
      x509 = new X509Certificate(material.kind === 'pfx' ? material.certificate : material.cert);
    } catch {
      return fail({ code: 'no_certificate', setting: files.clientPfx ? 'clientPfx' : 'clientCert', file: files.clientPfx ?? files.clientCert! });
    }
    if (material.kind === 'pem' && !x509.checkPrivateKey(material.keyObject)) return fail({ code: 'key_mismatch', certFile: material.certFile, keyFile: material.keyFile });
    certificate = factsOf(x509, files.clientPfx ?? files.clientCert!);
    const { notBefore, notAfter, file } = certificate;
    if (o.now < notBefore) return fail({ code: 'not_yet_valid', file, notBefore, notAfter });
    if (o.now > notAfter) return fail({ code: 'expired', file, notBefore, notAfter });
  }

  const passphrase = material?.passphrase === undefined ? {} : { passphrase: material.passphrase };
  const secureContext = tls.createSecureContext({
    ...(ca ? { ca } : {}),
    ...(material?.kind === 'pfx' ? { pfx: material.pfx, ...passphrase } : {}),
    ...(material?.kind === 'pem' ? { cert: material.cert, key: material.key, ...passphrase } : {}),
  });
  return { ok: true, identity: { connect: { secureContext }, certificate } };
}

/** A client certificate read: a PKCS#12 file OpenSSL reads, or PEM text (from PEM files, or a legacy PKCS#12 file). */
type Material =
  | { readonly kind: 'pfx'; readonly pfx: Buffer; readonly passphrase: string | undefined; readonly certificate: Buffer }
  | { readonly kind: 'pem'; readonly cert: string; readonly key: string; readonly passphrase: string | undefined; readonly keyObject: KeyObject; readonly certFile: string; readonly keyFile: string };


function fail(problem: TlsProblem): TlsReading {
  return { ok: false, problem };
}

/** A file's text, or the problem reading it; a file whose text matches `private` must be readable by its owner alone. */
function readText(setting: TlsSetting, file: string, o: { private?: RegExp } = {}): string | TlsProblem {
  const bytes = readBytes(setting, file);
  if (!Buffer.isBuffer(bytes)) return bytes;
  const text = bytes.toString('utf8');
  if (o.private?.test(text)) {
    const shared = sharedMode(file);
    if (shared !== null) return { code: 'file_shared', setting, file, mode: octal(shared) };
  }
  return text;
}

const octal = (mode: number) => mode.toString(8).padStart(4, '0');

function readBytes(setting: TlsSetting, file: string): Buffer | TlsProblem {
  try {
    return readFileSync(file);
  } catch (e) {
    return { code: 'file_unreadable', setting, file, reason: (e as NodeJS.ErrnoException).code ?? (e as Error).message };
  }
}

/** The key of a PEM pair, asking the passphrase only when the key is encrypted. */
async function privateKey(
  pem: { key: string; keyFile: string },
  setting: TlsSetting,
  ask: () => Promise<string>,
): Promise<{ key: KeyObject; passphrase: string | undefined } | TlsProblem> {
  const open = (passphrase?: string) => createPrivateKey({ key: pem.key, format: 'pem', ...(passphrase === undefined ? {} : { passphrase }) });
  // "BEGIN ENCRYPTED PRIVATE KEY" (PKCS#8) or "Proc-Type: 4,ENCRYPTED" (the older form) says a passphrase is needed.
  if (!/ENCRYPTED/.test(pem.key)) {
    try {
      return { key: open(), passphrase: undefined };
    } catch {
      return { code: 'no_key', file: pem.keyFile };
    }
  }
  const passphrase = await ask();
  try {
    return { key: open(passphrase), passphrase };
  } catch {
    return { code: 'passphrase_wrong', setting, file: pem.keyFile };
  }
}

/**
 * A PKCS#12 file: OpenSSL reads it (without a passphrase, then with one); what it refuses as unsupported (legacy
 * ciphers) is read with node-forge into PEM.
 */
async function openPfx(file: string, ask: () => Promise<string>): Promise<Material | TlsProblem> {
  const pfx = readBytes('clientPfx', file);
  if (!Buffer.isBuffer(pfx)) return pfx;
  const shared = sharedMode(file);
  if (shared !== null) return { code: 'file_shared', setting: 'clientPfx', file, mode: octal(shared) };
  let passphrase: string | undefined;
  for (;;) {
    const read = readWithOpenSsl(pfx, passphrase);
    const pem = read === 'unsupported' ? readWithForge(pfx, passphrase ?? '') : null;
    const answer = pem ?? read;
    if (answer === 'wrong-passphrase') {
      if (passphrase !== undefined) return { code: 'passphrase_wrong', setting: 'clientPfx', file };
      passphrase = await ask();
      continue;
    }
    if (typeof answer === 'string') return { code: 'pfx_unreadable', file, reason: answer };
    if ('certificate' in answer) return { kind: 'pfx', pfx, passphrase, certificate: answer.certificate };
    // node-forge's key is PEM without a passphrase: the secure context needs none.
    return { kind: 'pem', cert: answer.cert, key: answer.key, passphrase: undefined, keyObject: createPrivateKey(answer.key), certFile: file, keyFile: file };
  }
}

/** The file's own certificate through OpenSSL: a context over it, read back from a socket that never connects. */
function readWithOpenSsl(pfx: Buffer, passphrase: string | undefined): { certificate: Buffer } | 'wrong-passphrase' | 'unsupported' | string {
  let secureContext: tls.SecureContext;
  try {
    secureContext = tls.createSecureContext({ pfx, ...(passphrase === undefined ? {} : { passphrase }) });
  } catch (e) {
    const message = (e as Error).message;
    if (/mac verify failure|invalid password/i.test(message)) return 'wrong-passphrase';
    if ((e as NodeJS.ErrnoException).code === 'ERR_CRYPTO_UNSUPPORTED_OPERATION' || /unsupported/i.test(message)) return 'unsupported';
    return message;
  }
  const socket = new tls.TLSSocket(null as never, { secureContext });
  try {
    const raw = socket.getCertificate();
    return raw && 'raw' in raw && raw.raw ? { certificate: raw.raw } : 'no certificate in the file';
  } finally {
    socket.destroy();
  }
}

/** The pair through node-forge (loaded only here: it reads what OpenSSL 3 no longer does). */
function readWithForge(pfx: Buffer, passphrase: string): { cert: string; key: string } | 'wrong-passphrase' | string {
  const forge = createRequire(import.meta.url)('node-forge') as typeof import('node-forge');
  let p12: import('node-forge').pkcs12.Pkcs12Pfx;
  try {
    p12 = forge.pkcs12.pkcs12FromAsn1(forge.asn1.fromDer(forge.util.createBuffer(pfx.toString('binary'))), passphrase);
  } catch (e) {
    const message = (e as Error).message;
    return /MAC could not be verified|Invalid password/i.test(message) ? 'wrong-passphrase' : message;
  }
  const oids = forge.pki.oids;
  const bags = (type: string) => p12.getBags({ bagType: type })[type] ?? [];
  const keyBag = [...bags(oids.pkcs8ShroudedKeyBag!), ...bags(oids.keyBag!)].find((b) => b.key);
  const certs = bags(oids.certBag!).flatMap((b) => (b.cert ? [forge.pki.certificateToPem(b.cert)] : []));
  if (!keyBag?.key || certs.length === 0) return 'no certificate with its key in the file';
  const key = forge.pki.privateKeyToPem(keyBag.key);
  const keyObject = createPrivateKey(key);
  // The certificate of the key comes first: the others are its chain.
  const own = certs.findIndex((p) => new X509Certificate(p).checkPrivateKey(keyObject));
  if (own < 0) return 'no certificate with its key in the file';
  return { cert: [certs[own]!, ...certs.filter((_, i) => i !== own)].join(''), key };
}

function factsOf(x509: X509Certificate, file: string): CertificateFacts {
  const names = (dn: string) => dn.split('\n').filter(Boolean).join(', ');
  return {
    file,
    subject: names(x509.subject),
    issuer: names(x509.issuer),
    notBefore: new Date(x509.validFrom),
    notAfter: new Date(x509.validTo),
    fingerprint256: x509.fingerprint256,
  };
}

/** The roots Node trusts by default: its bundled ones and those of NODE_EXTRA_CA_CERTS. */
function defaultAuthorities(env: Env): string[] {
  const extra: string[] = [];
  const file = env['NODE_EXTRA_CA_CERTS'];
  if (file) {
    try {
      extra.push(readFileSync(file, 'utf8'));
    } catch {
      // Node itself warns at start when the file cannot be read.
    }
  }
  return [...tls.rootCertificates, ...extra];
}

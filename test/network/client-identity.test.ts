import { chmodSync, writeFileSync } from 'node:fs';
import { createPrivateKey } from 'node:crypto';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { daysLeft } from '../../src/network/certificate-facts.js';
import { readTlsFiles, type TlsFiles } from '../../src/network/client-identity.js';
import { issue, legacyPkcs12, pkcs12, privateFile } from '../helpers/certificates.js';
import { useTempDir } from '../helpers/temp-dir.js';

const tempDir = useTempDir();
const NOW = new Date('2026-11-27T12:00:00Z');
const DAY = 86_400_000;

/** Reads the files, counting how often the passphrase is asked; `answers` are given in turn. */
async function read(files: TlsFiles, answers: string[] = []) {
  let asked = 0;
  const result = await readTlsFiles(files, { passphrase: async () => answers[asked++] ?? '', now: NOW, env: {} });
  return { result, asked };
}

describe('the client certificate, read and checked before any call', () => {
  const ca = issue('Banco Teste CA', { now: NOW });

  it('reads a PEM certificate with its key and says who it names and until when', async () => {
    const dir = tempDir();
    const client = issue('EMPRESA LTDA:12345678000190', { by: ca, from: new Date('2026-01-01T00:00:00Z'), until: new Date('2027-01-01T00:00:00Z') });
    const { result, asked } = await read({ clientCert: privateFile(dir, 'c.pem', client.cert), clientKey: privateFile(dir, 'c.key', client.key) });
    expect(asked).toBe(0);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const facts = result.identity!.certificate!;
    expect(facts.subject).toBe('CN=EMPRESA LTDA:12345678000190');
    expect(facts.issuer).toBe('CN=Banco Teste CA');
    expect(facts.notBefore.toISOString()).toBe('2026-01-01T00:00:00.000Z');
    expect(facts.notAfter.toISOString()).toBe('2027-01-01T00:00:00.000Z');
    expect(daysLeft(facts, NOW)).toBe(34);
  });

  it('reads a PKCS#12 file, asking its passphrase once', async () => {
    const dir = tempDir();
    const client = issue('EMPRESA PFX', { by: ca, now: NOW });
    const { result, asked } = await read({ clientPfx: privateFile(dir, 'c.p12', pkcs12(client, 's3nha')) }, ['s3nha']);
    expect(asked).toBe(1);
    expect(result.ok && result.identity?.certificate?.subject).toBe('CN=EMPRESA PFX');
  });

  it('reads a legacy PKCS#12 file (RC2-40) that OpenSSL 3 refuses', async () => {
    const dir = tempDir();
    const client = issue('EMPRESA LEGADO', { by: ca, now: NOW });
    const { result } = await read({ clientPfx: privateFile(dir, 'old.pfx', legacyPkcs12(client, 'antiga', dir)) }, ['antiga']);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.identity?.certificate?.subject).toBe('CN=EMPRESA LEGADO');
  });

  it.each([
    ['PKCS#12', 'pfx'],
    ['legacy PKCS#12', 'legacy'],
  ])('refuses a wrong passphrase of a %s file, naming it', async (_what, kind) => {
    const dir = tempDir();
    const client = issue('EMPRESA', { by: ca, now: NOW });
    const bytes = kind === 'pfx' ? pkcs12(client, 'certa') : legacyPkcs12(client, 'certa', dir);
    const file = privateFile(dir, 'c.p12', bytes);
    const { result } = await read({ clientPfx: file }, ['errada']);
    expect(result).toEqual({ ok: false, problem: { code: 'passphrase_wrong', setting: 'clientPfx', file } });
  });

  it('opens an encrypted PEM key with the passphrase, and refuses a wrong one', async () => {
    const dir = tempDir();
    const client = issue('EMPRESA', { by: ca, now: NOW });
    const encrypted = createPrivateKey(client.key).export({ type: 'pkcs8', format: 'pem', cipher: 'aes-256-cbc', passphrase: 'frase' }).toString();
    const files = { clientCert: privateFile(dir, 'c.pem', client.cert), clientKey: privateFile(dir, 'c.key', encrypted) };
    expect((await read(files, ['frase'])).result.ok).toBe(true);
    expect((await read(files, ['outra'])).result).toEqual({ ok: false, problem: { code: 'passphrase_wrong', setting: 'clientKey', file: files.clientKey } });
  });

  it('refuses an expired certificate and one not valid yet, with their dates', async () => {
    const dir = tempDir();
    const expired = issue('VENCIDO', { by: ca, from: new Date('2025-01-01T00:00:00Z'), until: new Date('2026-01-01T00:00:00Z') });
    const early = issue('FUTURO', { by: ca, from: new Date('2027-01-01T00:00:00Z'), until: new Date('2028-01-01T00:00:00Z') });
    const a = { clientCert: privateFile(dir, 'a.pem', expired.cert), clientKey: privateFile(dir, 'a.key', expired.key) };
    const b = { clientCert: privateFile(dir, 'b.pem', early.cert), clientKey: privateFile(dir, 'b.key', early.key) };
    expect((await read(a)).result).toEqual({
      ok: false,
      problem: { code: 'expired', file: a.clientCert, notBefore: new Date('2025-01-01T00:00:00Z'), notAfter: new Date('2026-01-01T00:00:00Z') },
    });
    expect((await read(b)).result).toEqual({
      ok: false,
      problem: { code: 'not_yet_valid', file: b.clientCert, notBefore: new Date('2027-01-01T00:00:00Z'), notAfter: new Date('2028-01-01T00:00:00Z') },
    });
  });

  it('refuses a key that is not the certificate\'s', async () => {
    const dir = tempDir();
    const one = issue('UM', { by: ca, now: NOW });
    const other = issue('OUTRO', { by: ca, now: NOW });
    const files = { clientCert: privateFile(dir, 'c.pem', one.cert), clientKey: privateFile(dir, 'other.key', other.key) };
    expect((await read(files)).result).toEqual({ ok: false, problem: { code: 'key_mismatch', certFile: files.clientCert, keyFile: files.clientKey } });
  });

  it('refuses key and PKCS#12 files other users can read; a certificate alone may be public', async () => {
    const dir = tempDir();
    const client = issue('EMPRESA', { by: ca, now: NOW });
    const cert = join(dir, 'c.pem');
    writeFileSync(cert, client.cert);
    chmodSync(cert, 0o644);
    const key = privateFile(dir, 'c.key', client.key);
    expect((await read({ clientCert: cert, clientKey: key })).result.ok).toBe(true);
    chmodSync(key, 0o640);
    expect((await read({ clientCert: cert, clientKey: key })).result).toEqual({ ok: false, problem: { code: 'file_shared', setting: 'clientKey', file: key, mode: '0640' } });
    const pfx = privateFile(dir, 'c.p12', pkcs12(client, 'x'));
    chmodSync(pfx, 0o604);
    expect((await read({ clientPfx: pfx }, ['x'])).result).toEqual({ ok: false, problem: { code: 'file_shared', setting: 'clientPfx', file: pfx, mode: '0604' } });
  });

  it('refuses settings that do not make one certificate, and files that are missing or hold none', async () => {
    const dir = tempDir();
    const client = issue('EMPRESA', { by: ca, now: NOW });
    const cert = privateFile(dir, 'c.pem', client.cert);
    const key = privateFile(dir, 'c.key', client.key);
    expect((await read({ clientCert: cert })).result).toEqual({ ok: false, problem: { code: 'pem_half', missing: 'clientKey' } });
    expect((await read({ clientPfx: cert, clientKey: key })).result).toEqual({ ok: false, problem: { code: 'pfx_and_pem' } });
    const missing = join(dir, 'nope.pem');
    expect((await read({ clientCert: missing, clientKey: key })).result).toEqual({ ok: false, problem: { code: 'file_unreadable', setting: 'clientCert', file: missing, reason: 'ENOENT' } });
    expect((await read({ clientCert: key, clientKey: key })).result).toEqual({ ok: false, problem: { code: 'no_certificate', setting: 'clientCert', file: key } });
    expect((await read({ clientCert: cert, clientKey: cert })).result).toEqual({ ok: false, problem: { code: 'no_key', file: cert } });
    expect((await read({ caFile: key })).result).toEqual({ ok: false, problem: { code: 'no_certificate', setting: 'caFile', file: key } });
  });

  it('with only a CA file there is an identity without a certificate; with nothing set, none', async () => {
    const dir = tempDir();
    const { result } = await read({ caFile: privateFile(dir, 'ca.pem', ca.cert) });
    expect(result.ok && result.identity !== null && result.identity.certificate === null).toBe(true);
    expect((await read({})).result).toEqual({ ok: true, identity: null });
  });

  it('counts the days left in whole days', () => {
    const facts = { file: 'f', subject: 's', issuer: 'i', notBefore: new Date(0), notAfter: new Date(NOW.getTime() + 30 * DAY - 1), fingerprint256: '' };
    expect(daysLeft(facts, NOW)).toBe(29);
  });
});

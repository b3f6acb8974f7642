import { chmodSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { approverKeyFiles, createApproverKey, openApproverKey, ownFingerprint } from '../../src/config/approver-key.js';
import { addApprover, registeredApprovers, removeApprover } from '../../src/config/approvers.js';
import { loadProfile } from '../../src/config/profile.js';
import { SETTINGS } from '../../src/config/settings.js';
import { fingerprintOf, verifySignature } from '../../src/domain/approver-key.js';
import { useTempDir } from '../helpers/temp-dir.js';

const tempDir = useTempDir();
const noPassphrase = async () => {
  throw new Error('no passphrase expected');
};

describe("an approver's key pair", () => {
  it('is made in the approver folder of the config directory: private key 0600 in a 0700 folder, public key one line', async () => {
    const env = { XDG_CONFIG_HOME: join(tempDir(), 'config') };
    const files = approverKeyFiles(env);
    expect(files.privateKey).toBe(join(env.XDG_CONFIG_HOME, 'paybatch', 'approver', 'approver-key.pem'));
    const made = await createApproverKey(files, null);
    expect(made.publicKey).toMatch(/^ed25519:[A-Za-z0-9+/]{43}=$/);
    expect(made.fingerprint).toMatch(/^[0-9a-f]{16}$/);
    expect(statSync(files.privateKey).mode & 0o777).toBe(0o600);
    expect(statSync(join(env.XDG_CONFIG_HOME, 'paybatch', 'approver')).mode & 0o777).toBe(0o700);
    expect(readFileSync(files.privateKey, 'utf8')).toMatch(/^-----BEGIN PRIVATE KEY-----\n/);
    expect(readFileSync(files.publicKey, 'utf8')).toBe(`${made.publicKey}\n`);
    expect(ownFingerprint(files)).toBe(made.fingerprint);

    const signer = await openApproverKey(files, noPassphrase);
    expect(signer.publicKey).toBe(made.publicKey);
    const message = Buffer.from('paybatch-approval-v1\nbatch:1\nab');
    const signature = signer.sign(message);
    expect(verifySignature(made.publicKey, message, signature)).toBe(true);
    expect(verifySignature(made.publicKey, Buffer.from('paybatch-approval-v1\nbatch:2\nab'), signature)).toBe(false);
  });

  it('is encrypted with a passphrase, which opening it then needs', async () => {
    const files = approverKeyFiles({}, join(tempDir(), 'keys', 'bruno.pem'));
    const made = await createApproverKey(files, 'correct horse');
    expect(readFileSync(files.privateKey, 'utf8')).toMatch(/^-----BEGIN ENCRYPTED PRIVATE KEY-----\n/);
    await expect(openApproverKey(files, async () => 'wrong')).rejects.toThrow(`The approver key ${files.privateKey} could not be opened: wrong passphrase.`);
    expect((await openApproverKey(files, async () => 'correct horse')).publicKey).toBe(made.publicKey);
  });

  it('is never replaced, and refused when others can read it', async () => {
    const files = approverKeyFiles({}, join(tempDir(), 'ana.pem'));
    await createApproverKey(files, null);
    await expect(createApproverKey(files, null)).rejects.toThrow(`There is already an approver key at ${files.privateKey}; paybatch does not replace it.`);
    chmodSync(files.privateKey, 0o644);
    await expect(openApproverKey(files, noPassphrase)).rejects.toThrow(`The approver key ${files.privateKey} can be read by other users (mode 644).`);
  });

  it('without a key there is no identity: never user@host', () => {
    expect(ownFingerprint(approverKeyFiles({}, join(tempDir(), 'none.pem')))).toBeNull();
  });
});

describe("a profile's approvers", () => {
  const key1 = `ed25519:${Buffer.alloc(32, 1).toString('base64')}`;
  const key2 = `ed25519:${Buffer.alloc(32, 2).toString('base64')}`;

  it('are kept in the profile of the config file, beside its settings', () => {
    const path = join(tempDir(), 'config.json');
    writeFileSync(path, JSON.stringify({ profiles: { prod: { maxItemAmount: 100 } } }), { mode: 0o600 });
    expect(addApprover(path, 'prod', 'ana', `  ${key1} `)).toEqual({ outcome: 'added', publicKey: key1 });
    expect(addApprover(path, 'prod', 'ana', key1).outcome).toBe('unchanged');
    expect(addApprover(path, 'prod', 'bruno', key2).outcome).toBe('added');
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual({ profiles: { prod: { maxItemAmount: 100, approvers: { ana: key1, bruno: key2 } } } });
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(registeredApprovers(path, 'prod')).toEqual({ ana: key1, bruno: key2 });
    expect(registeredApprovers(path, 'other')).toEqual({});
    expect(removeApprover(path, 'prod', 'bruno')).toBe(true);
    expect(removeApprover(path, 'prod', 'bruno')).toBe(false);
    expect(registeredApprovers(path, 'prod')).toEqual({ ana: key1 });
  });

  it('refuse a taken name, a key registered twice, a bad name and a bad key', () => {
    const path = join(tempDir(), 'config.json');
    addApprover(path, 'default', 'ana', key1);
    expect(() => addApprover(path, 'default', 'ana', key2)).toThrow('The approver "ana" is registered with another key.');
    expect(() => addApprover(path, 'default', 'ana2', key1)).toThrow('This key is already registered as "ana"; one key is one approver.');
    expect(() => addApprover(path, 'default', 'ana souza', key2)).toThrow('must be 1 to 64 letters, digits');
    expect(() => addApprover(path, 'default', 'bruno', 'ssh-ed25519 AAAA')).toThrow('Not a public key: an approver\'s public key starts with "ed25519:"');
    expect(() => addApprover(path, 'default', 'bruno', `ed25519:${Buffer.alloc(31).toString('base64')}`)).toThrow('the base64 of 32 bytes');
  });

  it('a fingerprint is the first 16 hex digits of the SHA-256 of the raw key', () => {
    // sha256 of 32 bytes of 0x01, written out.
    expect(fingerprintOf(key1)).toBe('72cd6e8422c407fb');
  });
});

describe('the approval settings', () => {
  it('read amounts in reais into centavos, with 0 meaning always', () => {
    expect(SETTINGS.approvalAbove.parse('0')).toEqual({ ok: true, value: 0 });
    expect(SETTINGS.approvalAbove.parse('0,00')).toEqual({ ok: true, value: 0 });
    expect(SETTINGS.approvalAbove.parse('10.000,00')).toEqual({ ok: true, value: 1_000_000 });
    expect(SETTINGS.approvalItemAbove.parse('2500.5')).toEqual({ ok: true, value: 250_050 });
    expect(SETTINGS.approvalAbove.parse('-1').ok).toBe(false);
    expect(SETTINGS.approvalsRequired.parse('2')).toEqual({ ok: true, value: 2 });
    expect(SETTINGS.approvalsRequired.parse('3')).toEqual({ ok: false, error: 'must be 1 or 2' });
  });

  it('come from the environment too, and default to no approvals and one approver', () => {
    const env = { XDG_CONFIG_HOME: join(tempDir(), 'config') };
    const plain = loadProfile(env).settings;
    expect(plain.approvalAbove).toBeUndefined();
    expect(plain.approvalsRequired).toBe(1);
    const set = loadProfile({ ...env, PAYBATCH_APPROVAL_ABOVE: '1.500,00', PAYBATCH_APPROVALS_REQUIRED: '2', PAYBATCH_APPROVAL_ROWS_ABOVE: '300' }).settings;
    expect([set.approvalAbove, set.approvalsRequired, set.approvalRowsAbove]).toEqual([150_000, 2, 300]);
  });
});

import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkPixKey } from '../../src/domain/pix-key.js';
import { destinationForKey, maskCnpj, maskCpf, missingByRule } from '../../src/sandbox/key-directory.js';
import { hashDigits } from '../../src/sandbox/random.js';
import { admin, sandboxWithClient } from './helpers.js';
import { cnpj, cpf } from './documents.js';

const FIELDS = ['accountType', 'branch', 'key', 'accountNumber', 'institutionName', 'document', 'type', 'institution', 'name'];

describe('GET /pix/keys/{key}', () => {
  it('answers the destination, all nine fields, as the directory fixes it for each key', async () => {
    const { client } = await sandboxWithClient();
    // Written out, not computed: key, type and document follow from the key by docs/sandbox.md's rules (normalized key;
    // CPF and CNPJ keys show themselves masked); the ISPB codes are the institutions' real ones; the other fields
    // are what the directory has always answered for these keys, so a change to its rule shows here.
    const keys: [string, Record<string, string>][] = [
      ['529.982.247-25', {
        accountType: 'checkingAccount', branch: '7466', key: '52998224725', accountNumber: '9731145-1', institutionName: 'Banco do Brasil S.A.',
        document: '***.982.247-**', type: 'cpf', institution: '00000000', name: 'Vinícius Silva Lopes',
      }],
      ['11.222.333/0001-81', {
        accountType: 'checkingAccount', branch: '3932', key: '11222333000181', accountNumber: '8716121-1', institutionName: 'Nu Pagamentos S.A.',
        document: '**.222.333/0001-**', type: 'cnpj', institution: '18236120', name: 'Souza Serviços Ltda',
      }],
      ['+55 (11) 98765-4321', {
        accountType: 'checkingAccount', branch: '7862', key: '+5511987654321', accountNumber: '1531144-5', institutionName: 'Banco Santander (Brasil) S.A.',
        document: '***.910.776-**', type: 'phone', institution: '90400888', name: 'João Rodrigues Lima',
      }],
      ['Ana.Souza@Example.com', {
        accountType: 'savingsAccount', branch: '4354', key: 'ana.souza@example.com', accountNumber: '9229885-4', institutionName: 'Banco do Brasil S.A.',
        document: '***.360.359-**', type: 'email', institution: '00000000', name: 'Felipe Lopes Gomes',
      }],
      ['123E4567-E89B-12D3-A456-426614174000', {
        accountType: 'checkingAccount', branch: '0111', key: '123e4567-e89b-12d3-a456-426614174000', accountNumber: '5797066-4',
        institutionName: 'Banco do Brasil S.A.', document: '**.427.207/0001-**', type: 'evp', institution: '00000000', name: 'Ferreira Alimentos Ltda',
      }],
    ];
    for (const [input, expected] of keys) {
      const res = await client.get(`/pix/keys/${encodeURIComponent(input)}`);
      expect(res.status, input).toBe(200);
      expect(Object.keys(res.body).sort()).toEqual([...FIELDS].sort());
      expect(res.body, input).toEqual(expected);
    }
  });

  it('shows CPF and CNPJ keys themselves as the masked document', () => {
    expect(destinationForKey('52998224725', 'cpf').document).toBe('***.982.247-**');
    expect(destinationForKey('11222333000181', 'cnpj').document).toBe('**.222.333/0001-**');
    expect(destinationForKey('+5511987654321', 'phone').document).toMatch(/^\*\*\*\.\d{3}\.\d{3}-\*\*$/);
    expect([maskCpf('12345678909'), maskCnpj('12ABC34501DE35')]).toEqual(['***.456.789-**', '**.ABC.345/01DE-**']);
  });

  it('answers 400 for a malformed key and 404 by the documented rules', async () => {
    const { client } = await sandboxWithClient();
    const malformed = await client.get('/pix/keys/123.456.789-00');
    expect(malformed.status).toBe(400);
    expect(malformed.body.error.details[0].field).toBe('key');
    const missing = [cpf('123456000'), cnpj('112223330000'), '+5511987650000', 'nobody.42@example.com', '123e4567-e89b-12d3-a456-000000000000'];
    for (const key of missing) expect((await client.get(`/pix/keys/${encodeURIComponent(key)}`)).status, key).toBe(404);
  });

  it('reads an ambiguous 11-digit key as CPF unless ?type=phone', async () => {
    const { client } = await sandboxWithClient();
    const both = cpf('119876543');
    expect(checkPixKey(both).ambiguousWith).toEqual(['phone']);
    expect((await client.get(`/pix/keys/${both}`)).body.type).toBe('cpf');
    expect((await client.get(`/pix/keys/${both}?type=phone`)).body).toMatchObject({ type: 'phone', key: `+55${both}` });
    expect((await client.get(`/pix/keys/${both}?type=nonsense`)).status).toBe(400);
  });

  it('lets the admin route add a missing key or remove an existing one', async () => {
    const { sandbox, client } = await sandboxWithClient();
    expect((await admin(sandbox, 'POST', '/keys', { key: 'nobody@example.com', exists: true })).status).toBe(201);
    expect((await client.get('/pix/keys/nobody@example.com')).status).toBe(200);
    await admin(sandbox, 'POST', '/keys', { key: '+5511987654321', exists: false });
    expect((await client.get(`/pix/keys/${encodeURIComponent('+5511987654321')}`)).status).toBe(404);
    expect((await admin(sandbox, 'POST', '/keys', { key: 'nope', exists: true })).status).toBe(400);
  });
});

describe('the directory rule', () => {
  it('says under 0.5% of random keys are missing', () => {
    let missing = 0;
    const runs = 20_000;
    for (let i = 0; i < runs; i++) {
      const digits = hashDigits(`key-${i}`, 24);
      const hex = createHash('md5').update(`evp-${i}`).digest('hex');
      if (missingByRule(cpf(digits.slice(0, 9)), 'cpf')) missing++;
      if (missingByRule(`+55119${digits.slice(9, 17)}`, 'phone')) missing++;
      if (missingByRule(`${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20)}`, 'evp')) missing++;
    }
    expect(missing / (runs * 3)).toBeLessThan(0.005);
  });

  it('gives the same destination for the same key, whatever the seed', async () => {
    const [one, other] = await Promise.all([sandboxWithClient({ seed: 1 }), sandboxWithClient({ seed: 987_654_321 })]);
    expect(one.sandbox.seed).not.toBe(other.sandbox.seed);
    // A fixed key answers the same, written-out destination under both seeds.
    const ana = {
      accountType: 'savingsAccount', branch: '4354', key: 'ana.souza@example.com', accountNumber: '9229885-4', institutionName: 'Banco do Brasil S.A.',
      document: '***.360.359-**', type: 'email', institution: '00000000', name: 'Felipe Lopes Gomes',
    };
    for (const { client } of [one, other]) expect((await client.get('/pix/keys/ana.souza@example.com')).body).toEqual(ana);
    // And any e-mail key: the two sandboxes, started with different seeds, answer the same destination.
    const email = fc
      .tuple(fc.stringMatching(/^[a-z][a-z0-9]{0,11}(\.[a-z0-9]{1,8})?$/), fc.constantFrom('example.com', 'exemplo.com.br', 'corp.test'))
      .filter(([local]) => !local.startsWith('nobody'))
      .map(([local, domain]) => `${local}@${domain}`);
    for (const key of fc.sample(email, { numRuns: 40, seed: 20_240_501 })) {
      const path = `/pix/keys/${encodeURIComponent(key)}`;
      const [a, b] = [await one.client.get(path), await other.client.get(path)];
      expect([a.status, b.status], key).toEqual([200, 200]);
      expect(a.body).toMatchObject({ key, type: 'email' });
      expect(b.body, key).toEqual(a.body);
    }
  });
});

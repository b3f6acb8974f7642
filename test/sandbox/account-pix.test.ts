import { afterEach, describe, expect, it } from 'vitest';
import type { SandboxOptions } from '../../src/sandbox/server.js';
import { admin, Client, eventually, itemFor, Receiver, sandbox } from './helpers.js';
import { nthCpf } from './documents.js';
import { pdfText } from './pdf-text.js';

/**
 * A Pix by account data: an item whose `to` names a bank account instead of a Pix key (the spec dialect's refusal is
 * in dialect-spec.test.ts). Expected values are written out from the rules in docs/sandbox.md.
 */

/** So slow that nothing happens unless the test moves the clock. */
const FROZEN = 0.001;
const SECRET = 'account-pix-secret';
/** 12345678909 is a valid CPF (check digits 09). */
const MARIA = {
  accountType: 'checkingAccount', branch: '1234', accountNumber: '123456-7', institution: '237', institutionName: '',
  document: '12345678909', name: 'Maria Silva',
};
const AC03 = "AC03 - Receiver's branch or account number does not exist or is invalid";

const receivers: Receiver[] = [];
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((r) => r.close()));
});

async function setUp(options: SandboxOptions = {}) {
  const s = await sandbox({ faults: '', speed: FROZEN, ...options });
  const client = new Client(s);
  const receiver = await new Receiver(SECRET).start();
  receivers.push(receiver);
  expect((await client.post('/subscribe/event', { url: receiver.url, secret: SECRET })).status).toBe(201);
  const batch = (await client.post('/pix/batch', { name: 'accounts' })).body;
  const add = (items: unknown[]) => client.post(`/pix/batch/${batch.id}/items`, items);
  const list = async () => (await client.get(`/pix/batch/${batch.id}/items`)).body.data as any[];
  /** Starts the batch and moves the clock past every item's settling (1–5 s). */
  const run = async () => {
    expect((await client.post(`/pix/batch/${batch.id}/start-process`)).status).toBe(200);
    await admin(s, 'POST', '/clock/advance', { seconds: 10 });
  };
  return { s, client, receiver, batch, add, list, run };
}

const item = (identifier: string, to: Record<string, string> = MARIA, amount: number | string = 1050) => ({ amount, identifier, description: 'aluguel', to });

describe('a Pix by account data', () => {
  it('is accepted and paid in the paybatch dialect; page, event and the provider record echo the account', async () => {
    const { s, receiver, add, list, run } = await setUp();
    const added = await add([item('acc-1')]);
    expect(added.status).toBe(200);
    expect(added.body.data[0]).toMatchObject({ status: 'waiting', to: MARIA, amount: 1050, identifier: 'acc-1' });
    await run();
    const [paid] = await list();
    expect(paid).toMatchObject({ status: 'paid', to: MARIA, pixId: expect.any(String) });
    expect(paid.to).not.toHaveProperty('key');
    const event = await eventually(() => receiver.deliveries[0]?.json);
    expect(event.payload).toMatchObject({ id: paid.pixId, identifier: 'acc-1', transactionStatus: 'approved', subtitle: 'R$ 10,50 to Maria Silva' });
    expect(event.payload.to).toEqual(MARIA);
    const report = (await admin(s, 'GET', '/payments')).body;
    expect(report).toMatchObject({ identifiers: 1, paidExactlyOnce: 1, pending: 0 });
    expect(report.payments[0]).toMatchObject({ identifier: 'acc-1', paid: 1, refunded: 0, amountCents: 1050, pixIds: [paid.pixId], to: MARIA });
  });

  it('is accepted and paid in the iso dialect (amount in reais)', async () => {
    const { s, receiver, add, list, run } = await setUp({ dialect: 'iso', faults: 'none', tokenTtlSeconds: 600 });
    const savings = { ...MARIA, accountType: 'savingsAccount', institution: '60746948', institutionName: 'Banco Bradesco' };
    expect((await add([item('iso-acc-1', savings, '10.50')])).body.data[0]).toMatchObject({ status: 'PROCESSING', to: savings, amount: '10.50' });
    await run();
    const [paid] = await list();
    expect(paid).toMatchObject({ status: 'LIQUIDATED', to: savings, errorCode: null });
    const final = await eventually(() => receiver.deliveries.find((d) => d.json.payload.transactionStatus === 'LIQUIDATED')?.json);
    expect(final.payload).toMatchObject({ identifier: 'iso-acc-1', amount: '10.50', to: savings });
    expect((await admin(s, 'GET', '/payments')).body.payments[0]).toMatchObject({ identifier: 'iso-acc-1', paid: 1, amountCents: 1050, to: savings });
  });

  it('takes blank key and type as absent, and a `to` with a key as a key payment', async () => {
    const { client, add, list, run } = await setUp();
    const keyed = await itemFor(client, nthCpf(1), 200, 'key-1');
    // A key wins over account fields, even those of a closed account.
    const both = { ...keyed, to: { ...keyed.to, accountNumber: '000000-0' } };
    expect((await add([item('blank-1', { ...MARIA, key: '', type: ' ' }), both])).status).toBe(200);
    await run();
    expect((await list()).map((i) => [i.identifier, i.status])).toEqual([['blank-1', 'paid'], ['key-1', 'paid']]);
  });

  it.each([
    ['institution', '2370', 'must be a bank code of 3 digits or an ISPB of 8 digits'],
    ['institution', '', 'is required'],
    ['branch', '12345', 'must be 1-4 digits'],
    ['branch', '12a', 'must be 1-4 digits'],
    ['accountNumber', '12-34-5', 'must be digits, optionally "-" and a check digit or X, at most 20 characters'],
    ['accountNumber', '123456-Y', 'must be digits, optionally "-" and a check digit or X, at most 20 characters'],
    ['accountNumber', '1234567890123456789-0', 'must be digits, optionally "-" and a check digit or X, at most 20 characters'],
    ['accountType', 'salaryAccount', 'must be one of checkingAccount, savingsAccount, paymentAccount'],
    ['document', '12345678900', 'CPF check digits do not match (expected 09)'],
    ['document', '123', 'a document is a CPF (11 digits) or a CNPJ (14 characters), got 3 characters'],
    ['name', ' ', 'is required'],
  ])('refuses a bad %s (%j) with its field', async (field, value, problem) => {
    const { add, list } = await setUp();
    const refused = await add([item('ok-1'), item('bad-1', { ...MARIA, [field]: value })]);
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ code: 'invalid_input', details: [{ field: `[1].to.${field}`, problem }] });
    expect(await list()).toEqual([]);
  });

  it('tells a field that is not text once', async () => {
    const { add } = await setUp();
    const refused = await add([item('bad-1', { ...MARIA, branch: 1234 } as never)]);
    expect(refused.body.error.details).toEqual([{ field: '[0].to.branch', problem: 'must be a string' }]);
  });

  it('accepts an ISPB, a bare account number, an X check character and a CNPJ', async () => {
    const { add } = await setUp();
    const company = { ...MARIA, institution: '00000000', accountType: 'paymentAccount', accountNumber: '98765-X', document: '11.222.333/0001-81', name: 'Empresa Ltda' };
    const other = { ...MARIA, accountNumber: '12345678901234567-X' };
    expect((await add([item('ok-1', company), item('ok-2', other)])).status).toBe(200);
  });

  it('is the same item for the same identifier and account (leading zeros and the dash aside), 409 for another account', async () => {
    const { add, list } = await setUp();
    const account = { ...MARIA, branch: '0042' };
    const first = (await add([item('idem-1', account)])).body.data[0];
    // The same account written otherwise, with another name and type: the destination is institution, branch, number.
    const same = await add([item('idem-1', { ...MARIA, branch: '42', accountNumber: '01234567', name: 'Maria S.', accountType: 'savingsAccount' })]);
    expect(same.status).toBe(200);
    expect(same.body.data[0]).toMatchObject({ itemId: first.itemId, to: account });
    for (const other of [{ accountNumber: '123456-8' }, { branch: '4321' }, { institution: '341' }]) {
      const conflict = await add([item('idem-1', { ...account, ...other })]);
      expect(conflict.status).toBe(409);
      expect(conflict.body.error).toMatchObject({ code: 'identifier_conflict', details: [{ field: '[0].identifier' }] });
    }
    expect((await add([item('idem-1', account, 1051)])).status).toBe(409);
    expect(await list()).toHaveLength(1);
  });

  it('fails with AC03 when the account is closed (its number all zeros before the check character)', async () => {
    const { add, list, run, receiver } = await setUp();
    const closed = [{ ...MARIA, accountNumber: '000000-0' }, { ...MARIA, accountNumber: '0000-X' }, { ...MARIA, accountNumber: '0000000' }];
    const open = { ...MARIA, accountNumber: '000001-0', branch: '0000' };
    expect((await add([...closed.map((to, i) => item(`closed-${i}`, to)), item('open-1', open)])).status).toBe(200);
    await run();
    expect((await list()).map((i) => [i.identifier, i.status, i.reason ?? null])).toEqual([
      ['closed-0', 'failed', AC03], ['closed-1', 'failed', AC03], ['closed-2', 'failed', AC03], ['open-1', 'paid', null],
    ]);
    await eventually(() => (receiver.deliveries.length === 4 ? true : undefined));
    const rejected = receiver.deliveries.find((d) => d.json.payload.identifier === 'closed-0')!.json.payload;
    expect(rejected).toMatchObject({ transactionStatus: 'rejected', transactionAccepted: false, reason: AC03, to: closed[0] });
  });

  it('closes the account whatever the faults say', async () => {
    const { add, list, run } = await setUp({ faults: 'instabilityReturn=1' });
    await add([item('closed-1', { ...MARIA, accountNumber: '00-0' })]);
    await run();
    expect((await list())[0]).toMatchObject({ status: 'failed', reason: AC03 });
  });

  it('has a receipt naming the branch, the account and the institution code', async () => {
    const { client, add, list, run } = await setUp();
    await add([item('receipt-1')]);
    await run();
    const [paid] = await list();
    const receipt = await client.get(`/pix/${paid.pixId}/receipt`);
    expect(receipt.status).toBe(200);
    expect(receipt.body.description).toMatch(/^Pagamento Pix de R\$ 10,50 para Maria Silva em /);
    const lines = pdfText(Buffer.from(receipt.body.base64, 'base64')).split('\n');
    const after = (label: string) => lines[lines.indexOf(label) + 1];
    expect(after('Recebedor')).toBe('Maria Silva - ***.456.789-**');
    expect(after('Instituição do recebedor')).toBe('COMPE 237, agência 1234, conta 123456-7');
    expect(after('Tipo de conta')).toBe('conta corrente');
    expect(lines).not.toContain('Chave Pix');
    expect(lines.join('\n')).not.toContain('12345678909');
  });
});

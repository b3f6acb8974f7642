import { statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bankLine, MONDAY_10H } from '../bills/fixtures.js';
import { useCliOnSandbox } from '../helpers/cli-on-sandbox.js';
import { useTempDir } from '../helpers/temp-dir.js';
import { runCli } from '../helpers/test-io.js';
import { optionsOf } from '../helpers/parsed-options.js';

const tempDir = useTempDir();
const useSandbox = useCliOnSandbox();
const envOf = (dir: string, extra: Record<string, string> = {}) => ({ XDG_CONFIG_HOME: join(dir, 'config'), XDG_DATA_HOME: join(dir, 'data'), HOME: dir, ...extra });
const json = (r: { stdout: string }) => JSON.parse(r.stdout) as Record<string, any>;

describe('the approval commands parse', () => {
  it.each([
    [['approver', 'init'], { passphrase: false }],
    [['approver', 'init', '--passphrase', '--key', '/k/a.pem'], { key: '/k/a.pem', passphrase: true }],
    [['approver', 'add', 'ana', 'ed25519:x'], { name: 'ana', publicKey: 'ed25519:x' }],
    [['approver', 'remove', 'ana'], { name: 'ana' }],
    [['batch', 'approve', '#3', '--yes'], { ref: '#3', yes: true }],
    [['boleto', 'approve', '83680000000-9', '87450048001-5', '--amount', '87,45', '--key', 'k.pem'], { code: '83680000000-9 87450048001-5', amount: '87,45', yes: false, key: 'k.pem' }],
  ])('%j', async (argv, options) => {
    expect(await optionsOf(argv)).toEqual(options);
  });
});

describe('paybatch approver', () => {
  it('init makes a private key 0600 in a 0700 folder and prints the public key line; add, list and remove keep it in the profile', async () => {
    const dir = tempDir();
    const env = envOf(dir);
    const init = await runCli(['approver', 'init', '--json'], { env });
    expect(init.code, init.stderr).toBe(0);
    const key = json(init);
    const privateKeyFile = join(dir, 'config', 'paybatch', 'approver', 'approver-key.pem');
    expect(key).toEqual({ publicKey: expect.stringMatching(/^ed25519:[A-Za-z0-9+/]{43}=$/), fingerprint: expect.stringMatching(/^[0-9a-f]{16}$/), privateKeyFile, publicKeyFile: `${privateKeyFile}.pub`, encrypted: false });
    expect(statSync(privateKeyFile).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, 'config', 'paybatch', 'approver')).mode & 0o777).toBe(0o700);

    const human = await runCli(['approver', 'init', '--key', join(dir, 'second.pem')], { env });
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).toMatch(/^ed25519:[A-Za-z0-9+/]{43}=\n$/);
    expect(human.stderr).toContain(`Have it registered in the profile by whoever keeps it: paybatch approver add <your name> ${human.stdout.trim()}`);

    const again = await runCli(['approver', 'init', '--json'], { env });
    expect(again.code).toBe(1);
    expect(json(again).error).toMatchObject({ type: 'config_invalid', message: `There is already an approver key at ${privateKeyFile}; paybatch does not replace it.` });

    const add = await runCli(['approver', 'add', 'ana', key.publicKey, '--json'], { env });
    expect(json(add)).toEqual({ profile: 'default', name: 'ana', publicKey: key.publicKey, fingerprint: key.fingerprint, outcome: 'added' });
    await runCli(['approver', 'add', 'bruno', human.stdout.trim()], { env });
    const list = await runCli(['approver', 'list', '--json'], { env });
    expect(json(list)).toEqual({
      profile: 'default',
      approvers: [
        { name: 'ana', publicKey: key.publicKey, fingerprint: key.fingerprint, you: true },
        { name: 'bruno', publicKey: human.stdout.trim(), fingerprint: expect.any(String), you: false },
      ],
    });
    const remove = await runCli(['approver', 'remove', 'bruno', '--json'], { env });
    expect(json(remove)).toEqual({ profile: 'default', name: 'bruno', removed: true });
    const unknown = await runCli(['approver', 'remove', 'bruno'], { env });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('There is no approver "bruno" in the profile "default".');
    const bad = await runCli(['approver', 'add', 'carla', 'ssh-ed25519 AAAAC3Nz'], { env });
    expect(bad.code).toBe(2);
  });

  it('init --passphrase encrypts the key, with the passphrase from PAYBATCH_APPROVER_PASSPHRASE or a terminal, never argv', async () => {
    const dir = tempDir();
    const noTerminal = await runCli(['approver', 'init', '--passphrase'], { env: envOf(dir) });
    expect(noTerminal.code).toBe(2);
    expect(noTerminal.stderr).toContain('there is no terminal to ask its passphrase on; set PAYBATCH_APPROVER_PASSPHRASE');
    const fromEnv = await runCli(['approver', 'init', '--passphrase', '--json'], { env: envOf(dir, { PAYBATCH_APPROVER_PASSPHRASE: 's3cret' }) });
    expect(json(fromEnv)).toMatchObject({ encrypted: true });
    expect(fromEnv.stdout).not.toContain('s3cret');

    const asked: string[] = [];
    const answers = ['first', 'second'];
    const prompter = { confirm: async () => true, input: async () => '', password: async (m: string) => (asked.push(m), answers.shift()!), select: async () => { throw new Error('no select'); } };
    const differ = await runCli(['approver', 'init', '--passphrase', '--key', join(dir, 'k.pem')], { env: envOf(dir), tty: true, prompter });
    expect(differ.code).toBe(2);
    expect(asked).toEqual(['Passphrase for the new approver key', 'The same passphrase again']);
    expect(differ.stderr).toContain('The two passphrases differ; nothing was made.');
  });
});

/** Two payments, R$ 1.500,00 and R$ 250,00. */
function sheet(dir: string): string {
  const file = join(dir, 'folha.csv');
  writeFileSync(file, 'chave;valor;descricao\nana.paga@example.com;1.500,00;Salário\n52998224725;250,00;Bônus\n');
  return file;
}

/** Three approver keys (maker, ana, bruno), all registered, the maker's used by default, and a policy of `required` approvals above R$ 1.000,00. */
async function approvalWorld(required: '1' | '2', extra: Record<string, string> = {}) {
  const keys = tempDir();
  const key = (name: string) => join(keys, `${name}.pem`);
  const { run, dir } = await useSandbox(MONDAY_10H, { PAYBATCH_APPROVAL_ABOVE: '1.000,00', PAYBATCH_APPROVALS_REQUIRED: required, PAYBATCH_APPROVER_KEY: key('maker'), ...extra });
  const publicKeys: Record<string, string> = {};
  for (const name of ['maker', 'ana', 'bruno']) {
    const made = await run(['approver', 'init', '--key', key(name), '--json']);
    expect(made.code, made.stderr).toBe(0);
    publicKeys[name] = json(made).publicKey;
  }
  for (const name of ['maker', 'ana', 'bruno']) expect((await run(['approver', 'add', name, publicKeys[name]!])).code).toBe(0);
  return { run, dir, key, publicKeys };
}

describe('approvals before a batch starts', () => {
  it('import --start is refused until two approvers other than the maker signed; then batch start starts it', async () => {
    const { run, dir, key } = await approvalWorld('2');
    const imported = await run(['import', sheet(dir), '--start', '--yes']);
    expect(imported.code).toBe(3);
    expect(imported.stderr).toContain('Batch #1 "folha');
    expect(imported.stderr).toContain('needs 2 approvals before it can start (its total is above R$ 1.000,00); it has 0 valid. Nothing was sent.');
    expect(imported.stderr).toContain("An approver other than its maker signs it with 'paybatch batch approve 1' (registered: ana, bruno), then run this again.");

    const maker = await run(['batch', 'approve', '1', '--yes', '--key', key('maker')]);
    expect(maker.code).toBe(3);
    expect(maker.stderr).toContain('You made batch #1; the maker of a batch can never approve it. Another approver must.');

    const pending = await run(['approvals', 'pending', '--json']);
    expect(json(pending).batches).toEqual([
      expect.objectContaining({ id: 1, items: 2, totalCents: 175_000, required: 2, valid: 0, missing: 2, waitingFor: ['ana', 'bruno'], command: 'paybatch batch approve 1' }),
    ]);

    const ana = await run(['batch', 'approve', '1', '--yes', '--json', '--key', key('ana')]);
    expect(ana.code, ana.stderr).toBe(0);
    expect(json(ana)).toMatchObject({
      batch: { id: 1, items: 2, totalCents: 175_000 },
      approver: 'ana',
      subject: 'batch:1',
      digest: expect.stringMatching(/^[0-9a-f]{64}$/),
      required: 2,
      valid: 1,
      missing: 1,
      waitingFor: ['bruno'],
      approvals: [{ approver: 'ana', counted: true, problem: null }],
    });
    expect(ana.stderr).toContain(json(ana).digest);

    const once = await run(['batch', 'start', '1', '--yes', '--json']);
    expect(once.code).toBe(3);
    expect(json(once).error).toMatchObject({ type: 'approval_required', exitCode: 3, approvals: { subjects: [{ subject: 'batch:1', valid: 1, missing: 1, waitingFor: ['bruno'] }] } });

    const bruno = await run(['batch', 'approve', '1', '--yes', '--key', key('bruno')]);
    expect(bruno.code, bruno.stderr).toBe(0);
    expect(bruno.stdout).toBe('✓ Approved batch:1 as "bruno".\nIt has every approval it needs. Start it with: paybatch batch start 1\n');

    const show = await run(['batch', 'show', '1', '--json']);
    expect(json(show).approvals).toMatchObject({ required: 2, valid: 2, missing: 0, approvals: [{ approver: 'ana', counted: true }, { approver: 'bruno', counted: true }] });

    const started = await run(['batch', 'start', '1', '--yes', '--json']);
    expect(started.code, started.stderr).toBe(0);
    expect(json(started).batch).toMatchObject({ id: 1, status: 'started' });
  });

  it('the maker cannot approve even with a registered key, and a batch edited after its approval is refused', async () => {
    const { run, dir, key } = await approvalWorld('1');
    expect((await run(['import', sheet(dir), '--yes'])).code).toBe(0);
    const maker = await run(['batch', 'approve', '1', '--yes', '--key', key('maker')]);
    expect(maker.code).toBe(3);
    expect(maker.stderr).toContain('You made batch #1; the maker of a batch can never approve it. Another approver must.');

    expect((await run(['batch', 'approve', '1', '--yes', '--key', key('ana')])).code).toBe(0);
    const { default: Sqlite } = await import('better-sqlite3');
    const raw = new Sqlite(join(dir, 'ledger.db'));
    raw.prepare('UPDATE items SET amount_cents = 900000 WHERE line = 3').run();
    expect(() => raw.prepare("UPDATE approvals SET digest = 'x'").run()).toThrow('approvals is append-only');
    raw.close();
    const start = await run(['batch', 'start', '1', '--yes']);
    expect(start.code).toBe(3);
    expect(start.stderr).toContain('The approval by "ana" does not count: the content changed after it was signed.');
    const show = await run(['batch', 'show', '1']);
    expect(show.stdout).toMatch(/ana\t[0-9a-f]{16}\t.*\tno: the content changed after it was signed/);
  });
});

describe('makers proven by their keys, never by host or ledger rows', () => {
  it("an import under a policy is signed by the maker's registered key; without one nothing is imported", async () => {
    const { run, dir, key } = await approvalWorld('1');
    const elsewhere = await run(['import', sheet(dir), '--yes', '--json'], { env: { PAYBATCH_APPROVER_KEY: join(dir, 'no-such-key.pem') } });
    expect(elsewhere.code).toBe(1);
    expect(json(elsewhere).error.message).toMatch(/^The profile "default" has an approval policy: whoever makes a batch or pays a bill signs as its maker with their own registered approver key .* There is no approver key at .*no-such-key\.pem\.$/);
    const stranger = key('stranger');
    expect((await run(['approver', 'init', '--key', stranger])).code).toBe(0);
    const unregistered = await run(['import', sheet(dir), '--yes'], { env: { PAYBATCH_APPROVER_KEY: stranger } });
    expect(unregistered.code).toBe(1);
    expect(unregistered.stderr).toMatch(/Your approver key \([0-9a-f]{16}\) is not registered in the profile "default"\./);
    expect(json(await run(['batch', 'list', '--json']))).toEqual([]);
  });

  it('an unattended import reads the passphrase from a file; the maker stays the maker whatever host signs or imported_by says', async () => {
    const { run, dir, key } = await approvalWorld('1');
    const locked = key('locked');
    expect((await run(['approver', 'init', '--passphrase', '--key', locked], { env: { PAYBATCH_APPROVER_PASSPHRASE: 'cron-secret' } })).code).toBe(0);
    const publicKey = (await import('node:fs')).readFileSync(`${locked}.pub`, 'utf8').trim();
    expect((await run(['approver', 'add', 'cron', publicKey])).code).toBe(0);
    const secret = join(dir, 'passphrase');
    writeFileSync(secret, 'cron-secret\n', { mode: 0o600 });
    const imported = await run(['import', sheet(dir), '--yes'], { env: { PAYBATCH_APPROVER_KEY: locked, PAYBATCH_APPROVER_PASSPHRASE_FILE: secret } });
    expect(imported.code, imported.stderr).toBe(0);
    const { default: Sqlite } = await import('better-sqlite3');
    const raw = new Sqlite(join(dir, 'ledger.db'));
    raw.prepare('UPDATE batches SET imported_by = NULL').run();
    raw.close();
    const own = await run(['batch', 'approve', '1', '--yes', '--key', locked], { env: { PAYBATCH_APPROVER_PASSPHRASE_FILE: secret } });
    expect(own.code).toBe(3);
    expect(own.stderr).toContain('You made batch #1; the maker of a batch can never approve it.');
    expect((await run(['batch', 'start', '1', '--yes'])).code).toBe(3);
  });

  it('a batch whose maker signature was erased starts only after someone claims it, and the claimant cannot approve it', async () => {
    const { run, dir, key } = await approvalWorld('1');
    expect((await run(['import', sheet(dir), '--yes'])).code).toBe(0);
    const { default: Sqlite } = await import('better-sqlite3');
    const raw = new Sqlite(join(dir, 'ledger.db'));
    raw.exec('DROP TRIGGER maker_signatures_no_delete; DELETE FROM maker_signatures;');
    raw.close();
    // The maker, their signature gone, approves their own batch: it counts as an approval, yet the batch cannot start
    // — and the approval says so, rather than "ready".
    const approved = await run(['batch', 'approve', '1', '--yes', '--key', key('maker')]);
    expect(approved.code).toBe(0);
    expect(approved.stdout).not.toContain('It has every approval it needs');
    expect(approved.stdout).toContain("Nobody is proven to have made batch #1 (no maker signature that verifies: made before makers signed, or its signature erased or edited), so nobody can be kept from approving their own batch. A person with a registered key signs as its maker with 'paybatch batch claim 1' (and can then never approve it).");
    expect((await run(['batch', 'show', '1'])).stdout).toContain("signs as its maker with 'paybatch batch claim 1'");
    const start = await run(['batch', 'start', '1', '--yes', '--json']);
    expect(start.code).toBe(3);
    expect(json(start).error.message).toContain('Nobody is proven to have made batch #1');
    expect(json(start).error.hint).toContain("'paybatch batch claim 1'");
    const claim = await run(['batch', 'claim', '1', '--yes', '--json', '--key', key('maker')]);
    expect(claim.code, claim.stderr).toBe(0);
    expect(json(claim)).toMatchObject({ maker: 'maker', makers: ['maker'], valid: 0, missing: 1, approvals: [{ approver: 'maker', counted: false, problem: 'maker' }] });
    expect((await run(['batch', 'start', '1', '--yes'])).code).toBe(3);
    expect((await run(['batch', 'approve', '1', '--yes', '--key', key('ana')])).code).toBe(0);
    const started = await run(['batch', 'start', '1', '--yes', '--json']);
    expect(started.code, started.stderr).toBe(0);
  });
});

describe('approvals as people see them', () => {
  it('a batch waiting for approvals says so in batch list and show; once started, nothing is said about approvals missing', async () => {
    const { run, dir, key } = await approvalWorld('1');
    expect((await run(['import', sheet(dir), '--yes'])).code).toBe(0);
    const waiting = await run(['batch', 'list']);
    expect(waiting.stdout.split('\n')[1]).toMatch(/^1\t[0-9a-f-]{36}\tfolha [^\t]+\tawaiting approval\t2\tR\$ 1\.750,00\t/);
    expect(json(await run(['batch', 'list', '--json']))[0]).toMatchObject({ id: 1, status: 'submitted', waitingFor: 'approvals' });
    const pt = await run(['batch', 'show', '1'], { env: { LC_ALL: 'pt_BR.UTF-8' } });
    expect(pt.stdout.split('\n')[0]).toMatch(/^Lote #1 "folha [^"]+" — aguardando aprovação — id no provedor [0-9a-f-]{36}$/);
    expect(pt.stdout).toContain('Ainda falta 1 aprovação; podem assinar: ana, bruno.');

    expect((await run(['batch', 'approve', '1', '--yes', '--key', key('ana')])).code).toBe(0);
    expect(json(await run(['batch', 'list', '--json']))[0]).toMatchObject({ status: 'submitted', waitingFor: null });
    expect((await run(['batch', 'start', '1', '--yes'])).code).toBe(0);
    // The policy asks for more afterwards: a started batch does not wait for approvals any more.
    const after = { env: { PAYBATCH_APPROVALS_REQUIRED: '2', LC_ALL: 'pt_BR.UTF-8' } };
    const shown = await run(['batch', 'show', '1'], after);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout.split('\n')[0]).toMatch(/ — iniciado — /);
    expect(shown.stdout).toMatch(/\nana\t[0-9a-f]{16}\t[^\t]+\t[^\t]+\tsim\n/);
    expect(shown.stdout).not.toContain('falta');
    expect(shown.stdout).not.toContain('Tem todas as aprovações');
    expect(json(await run(['batch', 'show', '1', '--json'], after)).batch).toMatchObject({ status: 'started', waitingFor: null });
  });

  it("approvals pending names whoever imported a batch by their registered name, and never lists them among who can sign", async () => {
    const { run, dir, publicKeys } = await approvalWorld('1');
    expect((await run(['import', sheet(dir), '--yes'])).code).toBe(0);
    const { default: Sqlite } = await import('better-sqlite3');
    const raw = new Sqlite(join(dir, 'ledger.db'));
    // Its maker signature gone, only imported_by (the importer's fingerprint) says who made it.
    raw.exec('DROP TRIGGER maker_signatures_no_delete; DELETE FROM maker_signatures;');
    raw.close();
    const { fingerprintOf } = await import('../../src/domain/approver-key.js');
    const pending = await run(['approvals', 'pending', '--json']);
    expect(json(pending).batches).toEqual([
      expect.objectContaining({ id: 1, makers: [], importedBy: { fingerprint: fingerprintOf(publicKeys.maker!), name: 'maker' }, waitingFor: ['ana', 'bruno'], command: 'paybatch batch claim 1' }),
    ]);
    const human = await run(['approvals', 'pending']);
    expect(human.stdout.split('\n')[2]).toMatch(/^1\tfolha [^\t]+\tR\$ 1\.750,00\tmaker\t\t1\tana, bruno\t/);
    // A key no approver of the profile has: its fingerprint is all there is to show.
    const again = new Sqlite(join(dir, 'ledger.db'));
    again.prepare("UPDATE batches SET imported_by = '0123456789abcdef'").run();
    again.close();
    expect((await run(['approvals', 'pending'])).stdout.split('\n')[2]).toMatch(/^1\tfolha [^\t]+\tR\$ 1\.750,00\t0123456789abcdef\t\t1\tmaker, ana, bruno\t/);
  });

  it('every refusal of an approval exits 3: the maker, a second signature, a batch started already', async () => {
    const { run, dir, key } = await approvalWorld('1');
    expect((await run(['import', sheet(dir), '--yes'])).code).toBe(0);
    const maker = await run(['batch', 'approve', '1', '--yes', '--json', '--key', key('maker')]);
    expect(maker.code).toBe(3);
    expect(json(maker).error).toEqual({ type: 'input_invalid', exitCode: 3, message: 'You made batch #1; the maker of a batch can never approve it. Another approver must.', problems: [] });
    expect((await run(['batch', 'approve', '1', '--yes', '--key', key('ana')])).code).toBe(0);
    const twice = await run(['batch', 'approve', '1', '--yes', '--key', key('ana')]);
    expect(twice.code).toBe(3);
    expect(twice.stderr).toContain('"ana" has already approved batch:1 as it is now');
    expect((await run(['batch', 'start', '1', '--yes'])).code).toBe(0);
    const started = await run(['batch', 'approve', '1', '--yes', '--key', key('bruno')]);
    expect(started.code).toBe(3);
    expect(started.stderr).toContain('Batch #1 is started: there is nothing left to approve.');
  });
});

describe('approvals in Portuguese', () => {
  it('batch start refuses in Portuguese, naming the command that signs; --json stays English', async () => {
    const { run, dir } = await approvalWorld('1', { LC_ALL: 'pt_BR.UTF-8' });
    expect((await run(['import', sheet(dir), '--yes'])).code).toBe(0);
    const start = await run(['batch', 'start', '1', '--yes']);
    expect(start.code).toBe(3);
    expect(start.stderr).toMatch(/^erro: O lote #1 "folha[^"]*" precisa de 1 aprovação antes de iniciar \(o total passa de R\$ 1\.000,00\); tem 0 válidas\. Nada foi enviado\.\n/);
    expect(start.stderr).toContain("Um aprovador que não seja quem fez o lote assina com 'paybatch batch approve 1' (registrados: ana, bruno); depois rode isto de novo.");
    const json = await run(['batch', 'start', '1', '--yes', '--json']);
    expect(JSON.parse(json.stdout).error.message).toMatch(/^Batch #1 "folha[^"]*" needs 1 approval before it can start \(its total is above R\$ 1\.000,00\); it has 0 valid\. Nothing was sent\.$/);
  });
});

describe('approvals before a bill is paid', () => {
  it('a bill above the threshold is refused, then paid once an approver signed it', async () => {
    const { run, key } = await approvalWorld('1', { PAYBATCH_APPROVAL_ABOVE: '100,00' });
    const line = bankLine({ amountCents: 15_990 });
    const refused = await run(['boleto', 'pay', line, '--yes', '--json']);
    expect(refused.code).toBe(3);
    expect(json(refused).error).toMatchObject({ type: 'approval_required', approvals: { subjects: [{ subject: `bill:${line}`, required: 1, valid: 0, missing: 1 }] } });
    expect(JSON.stringify(json(refused))).toContain(`paybatch boleto approve ${line}`);

    const approved = await run(['boleto', 'approve', line, '--yes', '--json', '--key', key('ana')]);
    expect(approved.code, approved.stderr).toBe(0);
    // The amount approved is the one the provider gives for today (the sandbox's discount included), which the payment pays.
    expect(json(approved)).toMatchObject({ bill: { line, dueDate: '2025-03-20' }, approver: 'ana', subject: `bill:${line}`, valid: 1, missing: 0 });
    const approvedCents = json(approved).bill.amountCents as number;
    expect(approvedCents).toBeGreaterThan(10_000);

    const pending = await run(['approvals', 'pending', '--json']);
    expect(json(pending).bills).toEqual([expect.objectContaining({ line, valid: 1, missing: 0, command: `paybatch boleto pay ${line}` })]);

    const paid = await run(['boleto', 'pay', line, '--yes', '--json']);
    expect(paid.code, paid.stderr).toBe(0);
    expect(json(paid).counts).toMatchObject({ paid: 1 });
    expect(json(paid).bills[0].amountCents).toBe(approvedCents);
    expect(json(await run(['approvals', 'pending', '--json'])).bills).toEqual([]);

    // The approval paid it once: paying the same bill again needs a new one.
    const again = await run(['boleto', 'pay', line, '--yes', '--force', '--json']);
    expect(again.code).toBe(3);
    expect(json(again).error.type).toBe('approval_required');
  });

  it('a bill below the threshold is paid without approvals', async () => {
    const { run } = await approvalWorld('1', { PAYBATCH_APPROVAL_ABOVE: '1.000,00' });
    const paid = await run(['boleto', 'pay', bankLine({ amountCents: 15_990 }), '--yes', '--json']);
    expect(paid.code, paid.stderr).toBe(0);
  });
});

import { Option, type Command } from 'commander';
import { UsageError } from '../../errors.js';
import { noOptions, type RawInput, type RegisterCommands } from '../command.js';
import type { Context } from '../context.js';
import { approvalMessages, type ApprovalMessages } from '../messages/approvals.js';
import { arg, flag, optionalText } from '../raw-input.js';

export interface ApproverInitOptions {
  /** The private key file; absent: the approver folder of the config directory. */
  readonly key?: string;
  readonly passphrase: boolean;
}

export interface ApproverAddOptions {
  readonly name: string;
  readonly publicKey: string;
}

export interface ApproverRemoveOptions {
  readonly name: string;
}

export interface ApproverListOptions {
  readonly key?: string;
}

/** `--key <file>` (PAYBATCH_APPROVER_KEY): which approver key a command uses. */
export const keyOption = () =>
  new Option('--key <file>', 'the approver private key (default: approver/approver-key.pem in the paybatch config folder)').env('PAYBATCH_APPROVER_KEY');

/** `paybatch approver init|add|list|remove`. */
export const registerApprover: RegisterCommands = (program, runner) => {
  const approver = program
    .command('approver')
    .description("approvers' keys: make your own key pair, and register the public keys of a profile's approvers");

  approver
    .command('init')
    .description('make your Ed25519 approver key pair (private key 0600 in your config folder) and print the public key to register')
    .addOption(keyOption())
    .option('--passphrase', 'encrypt the private key with a passphrase (asked twice, or PAYBATCH_APPROVER_PASSPHRASE in scripts)', false)
    .addHelpText(
      'after',
      `
The public key is printed as one line, ed25519:<base64>, to hand to whoever keeps the profile. With a passphrase,
every approval asks for it (or reads PAYBATCH_APPROVER_PASSPHRASE). An existing key is never replaced.

Examples:
  paybatch approver init --passphrase
  PAYBATCH_APPROVER_PASSPHRASE=… paybatch approver init --passphrase --json`,
    )
    .action(runner.action(parseApproverInitOptions, runApproverInit));

  approver
    .command('add')
    .description("register an approver's public key in the profile's config file (not in the ledger)")
    .argument('<name>', "the approver's name, e.g. ana.souza")
    .argument('<public-key>', "the line 'paybatch approver init' printed: ed25519:<base64>")
    .addHelpText('after', '\nExamples:\n  paybatch approver add ana.souza ed25519:Zm9vYmFy…\n  paybatch --profile prod approver add bruno ed25519:… --json')
    .action(runner.action(parseApproverAddOptions, runApproverAdd));

  approver
    .command('list')
    .description("the profile's approvers with their key fingerprints")
    .addOption(keyOption())
    .addHelpText('after', '\nExamples:\n  paybatch approver list\n  paybatch --profile prod approver list --json')
    .action(runner.action(parseApproverListOptions, runApproverList));

  approver
    .command('remove')
    .description('remove an approver from the profile: approvals signed with that key stop counting')
    .argument('<name>', "the approver's name")
    .addHelpText('after', '\nExamples:\n  paybatch approver remove bruno')
    .action(runner.action(parseApproverRemoveOptions, runApproverRemove));
};

/** `paybatch approvals pending`. */
export const registerApprovals: RegisterCommands = (program, runner) => {
  const approvals = program.command('approvals').description('signed approvals (maker-checker) of batches and bills');
  approvals
    .command('pending')
    .description('what waits for approvals: batches and bills the policy names, who signed, how many are missing, the command to sign')
    .addHelpText('after', '\nExamples:\n  paybatch approvals pending\n  paybatch approvals pending --json')
    .action(runner.action(noOptions, runApprovalsPending));
};

export function parseApproverInitOptions(raw: RawInput): ApproverInitOptions {
  const key = optionalText(raw, 'key');
  return { ...(key === undefined ? {} : { key }), passphrase: flag(raw, 'passphrase') };
}

export function parseApproverAddOptions(raw: RawInput): ApproverAddOptions {
  return { name: arg(raw, 0, 'name'), publicKey: arg(raw, 1, 'public-key') };
}

export function parseApproverRemoveOptions(raw: RawInput): ApproverRemoveOptions {
  return { name: arg(raw, 0, 'name') };
}

export function parseApproverListOptions(raw: RawInput): ApproverListOptions {
  const key = optionalText(raw, 'key');
  return key === undefined ? {} : { key };
}

async function words(ctx: Context): Promise<ApprovalMessages> {
  return approvalMessages[await ctx.locale()];
}

export async function runApproverInit(ctx: Context, opts: ApproverInitOptions): Promise<void> {
  const { approverKeyFiles, createApproverKey } = await import('../../config/approver-key.js');
  const w = await words(ctx);
  const files = approverKeyFiles(ctx.io.env, opts.key);
  const fromEnv = ctx.io.env.PAYBATCH_APPROVER_PASSPHRASE;
  let passphrase: string | null = null;
  if (opts.passphrase || fromEnv) {
    if (fromEnv) passphrase = fromEnv;
    else {
      const { canPrompt } = await import('../io.js');
      if (!canPrompt(ctx.io)) throw new UsageError(w.noPassphrase(files.privateKey));
      passphrase = await ctx.prompter.password(w.newPassphrase);
      if ((await ctx.prompter.password(w.repeatPassphrase)) !== passphrase) throw new UsageError(w.passphrasesDiffer);
    }
    if (passphrase === '') throw new UsageError(w.emptyPassphrase);
  }
  const made = await createApproverKey(files, passphrase);
  const doc = { publicKey: made.publicKey, fingerprint: made.fingerprint, privateKeyFile: files.privateKey, publicKeyFile: files.publicKey, encrypted: made.encrypted };
  ctx.out.result(doc, () => {
    ctx.out.info(w.keyMade(files.privateKey, made.encrypted));
    // The key alone on stdout: one line to copy, or to pipe.
    ctx.out.print(made.publicKey);
    ctx.out.info(w.fingerprint(made.fingerprint));
    ctx.out.info(w.registerIt(made.publicKey));
  });
}

export async function runApproverAdd(ctx: Context, opts: ApproverAddOptions): Promise<void> {
  const { addApprover } = await import('../../config/approvers.js');
  const { fingerprintOf } = await import('../../domain/approver-key.js');
  const w = await words(ctx);
  const profile = await ctx.profile();
  const { outcome, publicKey } = addApprover(profile.configPath, profile.name, opts.name, opts.publicKey);
  const fingerprint = fingerprintOf(publicKey);
  ctx.out.result({ profile: profile.name, name: opts.name, publicKey, fingerprint, outcome }, () =>
    ctx.out.print(outcome === 'added' ? w.added(opts.name, profile.name, fingerprint) : w.unchanged(opts.name, profile.name)),
  );
}

export async function runApproverList(ctx: Context, opts: ApproverListOptions): Promise<void> {
  const { registeredApprovers } = await import('../../config/approvers.js');
  const { approverKeyFiles, ownFingerprint } = await import('../../config/approver-key.js');
  const { fingerprintOf } = await import('../../domain/approver-key.js');
  const w = await words(ctx);
  const profile = await ctx.profile();
  const mine = ownFingerprint(approverKeyFiles(ctx.io.env, opts.key));
  const approvers = Object.entries(registeredApprovers(profile.configPath, profile.name)).map(([name, publicKey]) => ({
    name,
    publicKey,
    fingerprint: fingerprintOf(publicKey),
    you: fingerprintOf(publicKey) === mine,
  }));
  ctx.out.result({ profile: profile.name, approvers }, () => {
    if (!approvers.length) return ctx.out.print(w.noApprovers(profile.name));
    ctx.out.print(ctx.out.table(w.listHead, approvers.map((a) => [`${a.name}${a.you ? ` ${w.you}` : ''}`, a.fingerprint, a.publicKey])));
  });
}

export async function runApproverRemove(ctx: Context, opts: ApproverRemoveOptions): Promise<void> {
  const { removeApprover } = await import('../../config/approvers.js');
  const w = await words(ctx);
  const profile = await ctx.profile();
  if (!removeApprover(profile.configPath, profile.name, opts.name)) throw new UsageError(w.notRegistered(opts.name, profile.name), { hint: "See 'paybatch approver list'." });
  ctx.out.result({ profile: profile.name, name: opts.name, removed: true }, () => ctx.out.print(w.removed(opts.name, profile.name)));
}

export async function runApprovalsPending(ctx: Context): Promise<void> {
  const { approvalGate, approvalCheckDoc, pendingApprovals } = await import('../../engine/approvals.js');
  const { formatBRL } = await import('../../domain/money.js');
  const { localDateTime, zoneLabel } = await import('../../domain/local-time.js');
  const locale = await ctx.locale();
  const w = approvalMessages[locale];
  const gate = approvalGate(await ctx.profile(), ctx.out.json ? 'en' : locale);
  const pending = await pendingApprovals(await ctx.ledger(), gate);
  const doc = {
    policy: gate.policy,
    approvers: Object.keys(gate.approvers),
    batches: pending.batches.map(({ check, command }) => {
      const batch = check.target.kind === 'batch' ? check.target.batch : null;
      return { id: batch?.id, name: batch?.name, items: check.figures.rows, totalCents: check.figures.totalCents, createdAt: batch?.created_at, ...approvalCheckDoc(check), command };
    }),
    bills: pending.bills.map(({ check, command }) => ({ line: check.target.kind === 'bill' ? check.target.line : null, ...approvalCheckDoc(check), command })),
  };
  const signers = (names: readonly { approver: string; counted: boolean }[]) => names.filter((a) => a.counted).map((a) => a.approver).join(', ');
  ctx.out.result(doc, () => {
    if (!doc.batches.length && !doc.bills.length) return ctx.out.print(w.nothingPending);
    if (doc.batches.length) {
      ctx.out.print(w.pendingBatchesTitle);
      ctx.out.print(
        ctx.out.table(
          w.pendingHead(zoneLabel(locale)),
          doc.batches.map((b) => [
            b.id,
            b.name,
            formatBRL(b.totalCents),
            b.makers.join(', '),
            signers(b.approvals),
            b.missing || w.ready,
            b.waitingFor.join(', '),
            b.createdAt ? localDateTime(new Date(b.createdAt), locale) : '',
            b.command,
          ]),
        ),
      );
    }
    if (doc.bills.length) {
      ctx.out.print(w.pendingBillsTitle);
      ctx.out.print(ctx.out.table(w.pendingBillHead, doc.bills.map((b) => [b.line, signers(b.approvals), b.missing || w.ready, b.command])));
    }
  });
}

/** For `batch approve` and `boleto approve`: registers the `--key` option and `--yes`. */
export function approveOptions(cmd: Command): Command {
  return cmd.addOption(keyOption()).option('-y, --yes', 'sign without asking for confirmation (the summary is still printed)', false);
}

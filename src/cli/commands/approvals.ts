import { Option, type Command } from 'commander';
import type { Locale } from '../../words/locale.js';
import { UsageError } from '../../errors.js';
import { noOptions, type RawInput, type RegisterCommands } from '../command.js';
import type { Context } from '../context.js';
import type { ApprovalMessages } from '../messages/approvals.js';
import { approvalsHelp } from '../messages/help/approvals.js';
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
export const keyOption = (locale: Locale) => new Option('--key <file>', approvalsHelp[locale].key).env('PAYBATCH_APPROVER_KEY');

/** `paybatch approver init|add|list|remove`. */
export const registerApprover: RegisterCommands = (program, runner, locale) => {
  const h = approvalsHelp[locale].approver;
  const approver = program.command('approver').description(h.group);

  approver
    .command('init')
    .description(h.init.description)
    .addOption(keyOption(locale))
    .option('--passphrase', h.init.passphrase, false)
    .addHelpText('after', h.init.examples)
    .action(runner.action(parseApproverInitOptions, runApproverInit));

  approver
    .command('add')
    .description(h.add.description)
    .argument('<name>', h.add.name)
    .argument('<public-key>', h.add.publicKey)
    .addHelpText('after', h.add.examples)
    .action(runner.action(parseApproverAddOptions, runApproverAdd));

  approver
    .command('list')
    .description(h.list.description)
    .addOption(keyOption(locale))
    .addHelpText('after', h.list.examples)
    .action(runner.action(parseApproverListOptions, runApproverList));

  approver
    .command('remove')
    .description(h.remove.description)
    .argument('<name>', h.remove.name)
    .addHelpText('after', h.remove.examples)
    .action(runner.action(parseApproverRemoveOptions, runApproverRemove));
};

/** `paybatch approvals pending`. */
export const registerApprovals: RegisterCommands = (program, runner, locale) => {
  const h = approvalsHelp[locale].approvals;
  const approvals = program.command('approvals').description(h.group);
  approvals
    .command('pending')
    .description(h.pending.description)
    .addHelpText('after', h.pending.examples)
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
  const { approvalMessages } = await import('../messages/approvals.js');
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
  const { approvalCheckDoc, pendingApprovals } = await import('../../engine/approvals/index.js');
  const { approvalGateOf } = await import('../approval-gate.js');
  const { formatBRL } = await import('../../domain/money.js');
  const { localDateTime, zoneLabel } = await import('../../words/local-time.js');
  const { approvalMessages } = await import('../messages/approvals.js');
  const locale = await ctx.locale();
  const w = approvalMessages[locale];
  const gate = await approvalGateOf(ctx);
  const pending = await pendingApprovals(await ctx.ledger(), gate);
  const doc = {
    policy: gate.policy,
    approvers: Object.keys(gate.approvers),
    batches: pending.batches.map(({ check, command }) => {
      const batch = check.target.kind === 'batch' ? check.target.batch : null;
      return { id: batch?.id, name: batch?.name, items: check.figures.rows, totalCents: check.figures.totalCents, createdAt: batch?.created_at, ...approvalCheckDoc(check), command: ctx.out.forProfile(command) };
    }),
    bills: pending.bills.map(({ check, command }) => ({ line: check.target.kind === 'bill' ? check.target.line : null, ...approvalCheckDoc(check), command: ctx.out.forProfile(command) })),
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
            madeBy(b),
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

/**
 * Who made a batch, for people: the makers its signatures prove; else whoever imported it, by the name the profile
 * registers their key under (the fingerprint only when no approver has that key).
 */
export function madeBy(check: { readonly makers: readonly string[]; readonly importedBy: { readonly fingerprint: string; readonly name: string | null } | null }): string {
  if (check.makers.length) return check.makers.join(', ');
  return check.importedBy === null ? '' : (check.importedBy.name ?? check.importedBy.fingerprint);
}

/** For `batch approve` and `boleto approve`: registers the `--key` option and `--yes`, their help in `locale`. */
export function approveOptions(cmd: Command, locale: Locale): Command {
  return cmd.addOption(keyOption(locale)).option('-y, --yes', approvalsHelp[locale].yes, false);
}

import type { ApproverSigner } from '../config/approver-key.js';
import type { ApprovalGate, MakerKey } from '../engine/approvals/index.js';
import type { Settings } from '../config/settings.js';
import type { OnProgress } from '../engine/progress.js';
import type { Ledger } from '../engine/ledger-door.js';
import type { Context } from './context.js';

/**
 * The profile's approval gate for a command that moves money: its policy, its registered approvers, and refusals in
 * the run's language (English under --json, whose documents never change with the locale).
 */
export async function approvalGateOf(ctx: Context): Promise<ApprovalGate> {
  const { approvalGate } = await import('../engine/approvals/index.js');
  const { explainApprovalRefusal } = await import('./messages/approval-words.js');
  return approvalGate(await ctx.profile(), explainApprovalRefusal(await refusalLocale(ctx)));
}

/** The language of refusals: English under --json, whose documents never change with the locale. */
async function refusalLocale(ctx: Context) {
  return ctx.out.json ? 'en' : ctx.locale();
}

/**
 * This user's approver key (`keyFile`, else PAYBATCH_APPROVER_KEY, else their own), opened: an encrypted one's
 * passphrase comes from PAYBATCH_APPROVER_PASSPHRASE, from the file PAYBATCH_APPROVER_PASSPHRASE_FILE names (systemd
 * credentials, CI secrets), or is asked on a terminal.
 */
export async function openOwnApproverKey(ctx: Context, keyFile?: string): Promise<ApproverSigner> {
  const { approverKeyFiles, openApproverKey } = await import('../config/approver-key.js');
  const { UsageError } = await import('../errors.js');
  const { secretInput } = await import('./secret-input.js');
  const { approvalMessages } = await import('./messages/approvals.js');
  const w = approvalMessages[await ctx.locale()];
  const files = approverKeyFiles(ctx.io.env, keyFile ?? (ctx.io.env.PAYBATCH_APPROVER_KEY || undefined));
  return openApproverKey(files, () =>
    secretInput(ctx, 'PAYBATCH_APPROVER_PASSPHRASE', { question: w.passphraseOf(files.privateKey), noTerminal: () => new UsageError(w.noPassphrase(files.privateKey)) }),
  );
}

/**
 * Under an approval policy, the key of whoever makes a batch or pays a bill, opened and checked against the profile's
 * approvers before anything is read or written: they sign as its maker. Without a policy nobody's identity is needed.
 * Hostnames and OS users are never identities.
 */
export async function makerKeyOf(ctx: Context): Promise<MakerKey | undefined> {
  const { policyActive } = await import('../domain/approval-policy.js');
  const gate = await approvalGateOf(ctx);
  if (!policyActive(gate.policy)) return undefined;
  const { osIdentity } = await import('../config/approver-key.js');
  const { PaybatchError, ConfigError } = await import('../errors.js');
  const { APPROVAL_WORDS } = await import('./messages/approval-words.js');
  const { approvalMessages } = await import('./messages/approvals.js');
  const why = approvalMessages[await ctx.locale()].makerKeyNeeded(gate.profile);
  let signer: ApproverSigner;
  try {
    signer = await openOwnApproverKey(ctx);
  } catch (e) {
    if (!(e instanceof PaybatchError)) throw e;
    throw new ConfigError(`${why} ${e.message}`, e.hint === undefined ? {} : { hint: e.hint });
  }
  if (!Object.values(gate.approvers).includes(signer.publicKey)) {
    const w = APPROVAL_WORDS[await refusalLocale(ctx)];
    throw new ConfigError(`${why} ${w.keyNotRegistered(signer.fingerprint, gate.profile)}`, { hint: w.registerHint(signer.publicKey) });
  }
  return { signer, signedFrom: osIdentity() };
}

/** What a use case that sends payments needs from the command: the ledger, the provider, the rules and the gate. */
export async function sendingDeps(ctx: Context, ledger: Ledger, settings: Settings, onProgress: OnProgress) {
  return { ledger, provider: () => ctx.provider(), settings, now: ctx.now, onProgress, approvals: await approvalGateOf(ctx), maker: await makerKeyOf(ctx) };
}

import type { ApprovalReason } from '../../domain/approval-policy.js';
import { formatBRL } from '../../domain/money.js';
import type { ApprovalProblem, ApprovalRefusal, ApprovalShortfall, ExplainRefusal } from '../../engine/approvals/index.js';
import type { Locale } from '../../words/locale.js';
import { counted } from '../../words/plural.js';

/** What the approval gate and the approval commands' refusals say, per locale (the CLI passes 'en' under --json). */
const en = {
  problem: (p: ApprovalProblem, name: string): string =>
    ({
      'not-registered': `"${name}" is not an approver registered in this profile`,
      'key-mismatch': `the key stored with it is not the key this profile registers for "${name}"`,
      'bad-signature': 'its signature does not verify (the row was altered, or it was never signed by that key)',
      'content-changed': 'the content changed after it was signed',
      maker: `"${name}" made this batch, and the maker cannot approve it`,
      duplicate: `"${name}" approved it already; one approver counts once`,
    })[p],
  reason: (r: ApprovalReason): string =>
    r.rule === 'total' ? `its total is above ${formatBRL(r.aboveCents)}` : r.rule === 'item' ? `it pays more than ${formatBRL(r.aboveCents)} at once` : `it has more than ${r.above} rows`,
  batchRefused: (id: number, name: string, required: number, valid: number, reasons: string) =>
    `Batch #${id} "${name}" needs ${counted('en', required, { one: 'approval', other: 'approvals' })} before it can start (${reasons}); it has ${valid} valid. Nothing was sent.`,
  billRefused: (line: string, required: number, valid: number, reasons: string) =>
    `The bill ${line} needs ${counted('en', required, { one: 'approval', other: 'approvals' })} before it is paid (${reasons}); it has ${valid} valid. Nothing was paid.`,
  notCounted: (name: string, why: string) => `The approval by "${name}" does not count: ${why}.`,
  signBatch: (id: number, waitingFor: readonly string[]) =>
    `An approver other than its maker signs it with 'paybatch batch approve ${id}'${waitingFor.length ? ` (registered: ${waitingFor.join(', ')})` : ''}, then run this again.`,
  signBill: (line: string, waitingFor: readonly string[]) =>
    `An approver signs it with 'paybatch boleto approve ${line}'${waitingFor.length ? ` (registered: ${waitingFor.join(', ')})` : ''}, then run this again.`,
  noApprovers: (profile: string) => `The profile "${profile}" registers no approvers yet: add them with 'paybatch approver add <name> <public key>'.`,
  keyNotRegistered: (fingerprint: string, profile: string) => `Your approver key (${fingerprint}) is not registered in the profile "${profile}".`,
  registerHint: (publicKey: string) => `Ask whoever keeps the profile to run: paybatch approver add <your name> ${publicKey}`,
  makerCannotApprove: (id: number) => `You made batch #${id}; the maker of a batch can never approve it. Another approver must.`,
  alreadyApproved: (subject: string, name: string) => `"${name}" has already approved ${subject} as it is now; a second signature by the same approver would not count.`,
  notStartable: (id: number, status: string) => `Batch #${id} is ${status}: there is nothing left to approve.`,
  reprocessBatch: (id: number) => `Batch #${id} pays again returns of a started batch; it needs no approval of its own.`,
  changedWhileSigning: (subject: string) => `${subject} changed while it was being approved; nothing was signed. Look at it again and approve it again.`,
  batchMakerUnproven: (id: number) =>
    `Nobody is proven to have made batch #${id} (no maker signature that verifies: made before makers signed, or its signature erased or edited), so nobody can be kept from approving their own batch.`,
  billMakerUnproven: 'The payer of this bill is not proven: paying it needs your registered approver key, which signs you as its maker (PAYBATCH_APPROVER_KEY, PAYBATCH_APPROVER_PASSPHRASE or PAYBATCH_APPROVER_PASSPHRASE_FILE).',
  claimBatch: (id: number) => `A person with a registered key signs as its maker with 'paybatch batch claim ${id}' (and can then never approve it).`,
};

export type ApprovalWords = typeof en;

const ptBR: ApprovalWords = {
  problem: (p, name) =>
    ({
      'not-registered': `"${name}" não é um aprovador registrado neste perfil`,
      'key-mismatch': `a chave guardada com ela não é a que este perfil registra para "${name}"`,
      'bad-signature': 'a assinatura não confere (a linha foi alterada, ou nunca foi assinada por essa chave)',
      'content-changed': 'o conteúdo mudou depois de assinado',
      maker: `"${name}" fez este lote, e quem faz não pode aprovar`,
      duplicate: `"${name}" já aprovou; cada aprovador conta uma vez`,
    })[p],
  reason: (r) =>
    r.rule === 'total' ? `o total passa de ${formatBRL(r.aboveCents)}` : r.rule === 'item' ? `paga mais de ${formatBRL(r.aboveCents)} de uma vez` : `tem mais de ${r.above} linhas`,
  batchRefused: (id, name, required, valid, reasons) =>
    `O lote #${id} "${name}" precisa de ${counted('pt-BR', required, { one: 'aprovação', other: 'aprovações' })} antes de iniciar (${reasons}); tem ${counted('pt-BR', valid, { one: 'válida', other: 'válidas' })}. Nada foi enviado.`,
  billRefused: (line, required, valid, reasons) =>
    `O boleto ${line} precisa de ${counted('pt-BR', required, { one: 'aprovação', other: 'aprovações' })} antes de ser pago (${reasons}); tem ${counted('pt-BR', valid, { one: 'válida', other: 'válidas' })}. Nada foi pago.`,
  notCounted: (name, why) => `A aprovação de "${name}" não conta: ${why}.`,
  signBatch: (id, waitingFor) =>
    `Um aprovador que não seja quem fez o lote assina com 'paybatch batch approve ${id}'${waitingFor.length ? ` (registrados: ${waitingFor.join(', ')})` : ''}; depois rode isto de novo.`,
  signBill: (line, waitingFor) =>
    `Um aprovador assina com 'paybatch boleto approve ${line}'${waitingFor.length ? ` (registrados: ${waitingFor.join(', ')})` : ''}; depois rode isto de novo.`,
  noApprovers: (profile) => `O perfil "${profile}" ainda não registra aprovadores: inclua-os com 'paybatch approver add <nome> <chave pública>'.`,
  keyNotRegistered: (fingerprint, profile) => `Sua chave de aprovador (${fingerprint}) não está registrada no perfil "${profile}".`,
  registerHint: (publicKey) => `Peça a quem cuida do perfil para rodar: paybatch approver add <seu nome> ${publicKey}`,
  makerCannotApprove: (id) => `Você fez o lote #${id}; quem faz um lote nunca pode aprová-lo. Outro aprovador precisa aprovar.`,
  alreadyApproved: (subject, name) => `"${name}" já aprovou ${subject} como está agora; uma segunda assinatura do mesmo aprovador não contaria.`,
  notStartable: (id, status) => `O lote #${id} está ${status}: não há mais nada a aprovar.`,
  reprocessBatch: (id) => `O lote #${id} paga de novo devoluções de um lote já iniciado; não precisa de aprovação própria.`,
  changedWhileSigning: (subject) => `${subject} mudou enquanto era aprovado; nada foi assinado. Confira de novo e aprove de novo.`,
  batchMakerUnproven: (id) =>
    `Não há prova de quem fez o lote #${id} (nenhuma assinatura de quem fez que confira: feito antes dessas assinaturas, ou a assinatura foi apagada ou alterada), então ninguém pode ser impedido de aprovar o próprio lote.`,
  billMakerUnproven: 'Quem paga este boleto não está provado: pagá-lo exige sua chave de aprovador registrada, que assina você como quem o fez (PAYBATCH_APPROVER_KEY, PAYBATCH_APPROVER_PASSPHRASE ou PAYBATCH_APPROVER_PASSPHRASE_FILE).',
  claimBatch: (id) => `Uma pessoa com chave registrada assina como quem fez o lote com 'paybatch batch claim ${id}' (e depois nunca pode aprová-lo).`,
};

export const APPROVAL_WORDS: Readonly<Record<Locale, ApprovalWords>> = { en, 'pt-BR': ptBR };

/** The gate's refusals in `locale`: the engine says why as data, these are its words. */
export function explainApprovalRefusal(locale: Locale): ExplainRefusal {
  const w = APPROVAL_WORDS[locale];
  return (r: ApprovalRefusal) => {
    switch (r.code) {
      case 'reprocess_batch':
        return { message: w.reprocessBatch(r.batchId) };
      case 'batch_not_startable':
        return { message: w.notStartable(r.batchId, r.status) };
      case 'changed_while_signing':
        return { message: w.changedWhileSigning(r.subject) };
      case 'key_not_registered':
        return { message: w.keyNotRegistered(r.fingerprint, r.profile), hint: w.registerHint(r.publicKey) };
      case 'maker_cannot_approve':
        return { message: w.makerCannotApprove(r.batchId) };
      case 'already_approved':
        return { message: w.alreadyApproved(r.subject, r.approver) };
      case 'approvals_missing':
        return approvalsMissing(w, r);
    }
  };
}

/** One line per target lacking approvals (and why each recorded approval does not count), then what to do. */
function approvalsMissing(w: ApprovalWords, r: Extract<ApprovalRefusal, { code: 'approvals_missing' }>): { message: string; hint: string } {
  const lines: string[] = [];
  const hints: string[] = [];
  for (const s of r.lacking) {
    const reasons = s.reasons.map(w.reason).join('; ');
    const { target } = s;
    lines.push(target.kind === 'batch' ? w.batchRefused(target.id, target.name, s.required, s.valid, reasons) : w.billRefused(target.line, s.required, s.valid, reasons));
    for (const a of s.notCounted) lines.push(`  ${w.notCounted(a.approver, w.problem(a.problem, a.approver))}`);
    if (!s.makerProven) {
      lines.push(`  ${target.kind === 'batch' ? w.batchMakerUnproven(target.id) : w.billMakerUnproven}`);
      if (target.kind === 'batch') hints.push(w.claimBatch(target.id));
    }
    if (s.missing > 0) hints.push(signCommand(w, s));
  }
  if (!r.approversRegistered) hints.push(w.noApprovers(r.profile));
  return { message: lines.join('\n'), hint: hints.join('\n') };
}

function signCommand(w: ApprovalWords, s: ApprovalShortfall): string {
  return s.target.kind === 'batch' ? w.signBatch(s.target.id, s.waitingFor) : w.signBill(s.target.line, s.waitingFor);
}

import type { Locale } from '../../words/locale.js';
import { counted, pluralForm } from '../../words/plural.js';

/** What `approver init|add|list|remove`, `batch approve`, `boleto approve` and `approvals pending` say to people. */
export interface ApprovalMessages {
  keyMade(file: string, encrypted: boolean): string;
  fingerprint(fp: string): string;
  registerIt(publicKey: string): string;
  readonly newPassphrase: string;
  readonly repeatPassphrase: string;
  readonly passphrasesDiffer: string;
  readonly emptyPassphrase: string;
  passphraseOf(file: string): string;
  noPassphrase(file: string): string;
  /** Why an import, a retry or a bill payment under an approval policy needs the person's own key. */
  makerKeyNeeded(profile: string): string;
  added(name: string, profile: string, fp: string): string;
  unchanged(name: string, profile: string): string;
  removed(name: string, profile: string): string;
  notRegistered(name: string, profile: string): string;
  noApprovers(profile: string): string;
  readonly listHead: readonly string[];
  readonly you: string;
  readonly batchLabel: string;
  readonly billLabel: string;
  readonly itemsLabel: string;
  readonly totalLabel: string;
  readonly largestLabel: string;
  readonly dueLabel: string;
  readonly digestLabel: string;
  readonly needsLabel: string;
  readonly signedLabel: string;
  readonly approverLabel: string;
  needs(required: number, reasons: string): string;
  readonly needsNone: string;
  signedSoFar(valid: number, names: readonly string[]): string;
  confirmBatch(id: number, name: string, items: number, total: string): string;
  confirmBill(line: string, amount: string): string;
  approved(subject: string, as: string): string;
  confirmClaim(id: number, name: string): string;
  claimed(id: number, as: string): string;
  stillMissing(missing: number, waitingFor: readonly string[]): string;
  readyBatch(id: number): string;
  readyBill(line: string): string;
  readonly nothingPending: string;
  readonly pendingBatchesTitle: string;
  readonly pendingBillsTitle: string;
  pendingHead(zone: string): readonly string[];
  readonly pendingBillHead: readonly string[];
  readonly showTitle: string;
  showHead(zone: string): readonly string[];
  readonly counted: string;
  readonly notCounted: string;
  readonly ready: string;
}

export const approvalMessages: Readonly<Record<Locale, ApprovalMessages>> = {
  en: {
    keyMade: (file, encrypted) => `✓ Approver key made: ${file} (${encrypted ? 'encrypted with your passphrase' : 'not encrypted'}, readable by you alone).`,
    fingerprint: (fp) => `Fingerprint: ${fp}`,
    registerIt: (key) => `Have it registered in the profile by whoever keeps it: paybatch approver add <your name> ${key}`,
    newPassphrase: 'Passphrase for the new approver key',
    repeatPassphrase: 'The same passphrase again',
    passphrasesDiffer: 'The two passphrases differ; nothing was made.',
    emptyPassphrase: 'The passphrase must not be empty; nothing was made.',
    passphraseOf: (file) => `Passphrase of the approver key ${file}`,
    noPassphrase: (file) => `The approver key ${file} is encrypted and there is no terminal to ask its passphrase on; set PAYBATCH_APPROVER_PASSPHRASE, or PAYBATCH_APPROVER_PASSPHRASE_FILE naming a file that holds it.`,
    makerKeyNeeded: (profile) =>
      `The profile "${profile}" has an approval policy: whoever makes a batch or pays a bill signs as its maker with their own registered approver key (PAYBATCH_APPROVER_KEY names one kept elsewhere), so that nobody approves their own payments.`,
    added: (name, profile, fp) => `✓ "${name}" (${fp}) is an approver of the profile "${profile}".`,
    unchanged: (name, profile) => `"${name}" was already registered with this key in the profile "${profile}"; nothing changed.`,
    removed: (name, profile) => `✓ "${name}" is no longer an approver of the profile "${profile}". Approvals signed with that key no longer count.`,
    notRegistered: (name, profile) => `There is no approver "${name}" in the profile "${profile}".`,
    noApprovers: (profile) => `The profile "${profile}" has no approvers. Register one with: paybatch approver add <name> <public key>`,
    listHead: ['name', 'fingerprint', 'public key'],
    you: '(you)',
    batchLabel: 'batch',
    billLabel: 'bill',
    itemsLabel: 'payments',
    totalLabel: 'total',
    largestLabel: 'largest payment',
    dueLabel: 'due date',
    digestLabel: 'content digest (SHA-256)',
    needsLabel: 'policy',
    signedLabel: 'approved by',
    approverLabel: 'you sign as',
    needs: (required, reasons) => `${counted('en', required, { one: 'approval', other: 'approvals' })}: ${reasons}`,
    needsNone: 'no approval needed under the current policy',
    signedSoFar: (valid, names) => (valid ? `${names.join(', ')} (${valid} valid)` : 'nobody yet'),
    confirmBatch: (id, name, items, total) => `Approve batch #${id} "${name}": ${counted('en', items, { one: 'payment', other: 'payments' })}, ${total}?`,
    confirmBill: (line, amount) => `Approve paying ${amount} for the bill ${line}?`,
    approved: (subject, as) => `✓ Approved ${subject} as "${as}".`,
    confirmClaim: (id, name) => `Sign as the maker of batch #${id} "${name}"? You can then never approve it.`,
    claimed: (id, as) => `✓ Signed as the maker of batch #${id} ("${as}"); other approvers can now approve it.`,
    stillMissing: (missing, waitingFor) => `Still ${counted('en', missing, { one: 'approval', other: 'approvals' })} to go${waitingFor.length ? `; can sign: ${waitingFor.join(', ')}` : ''}.`,
    readyBatch: (id) => `It has every approval it needs. Start it with: paybatch batch start ${id}`,
    readyBill: (line) => `It has every approval it needs. Pay it with: paybatch boleto pay ${line}`,
    nothingPending: 'Nothing waits for approval.',
    pendingBatchesTitle: 'Batches:',
    pendingBillsTitle: 'Bills:',
    pendingHead: (zone) => ['#', 'name', 'total', 'made by', 'approved by', 'missing', 'can sign', `created (${zone})`, 'next'],
    pendingBillHead: ['line', 'approved by', 'missing', 'next'],
    showTitle: '\nApprovals:',
    showHead: (zone) => ['approver', 'fingerprint', `signed (${zone})`, 'from', 'counts'],
    counted: 'yes',
    notCounted: 'no',
    ready: 'ready',
  },
  'pt-BR': {
    keyMade: (file, encrypted) => `✓ Chave de aprovador criada: ${file} (${encrypted ? 'cifrada com sua frase-senha' : 'sem cifra'}, legível só por você).`,
    fingerprint: (fp) => `Impressão digital: ${fp}`,
    registerIt: (key) => `Peça a quem cuida do perfil para registrá-la: paybatch approver add <seu nome> ${key}`,
    newPassphrase: 'Frase-senha da nova chave de aprovador',
    repeatPassphrase: 'A mesma frase-senha de novo',
    passphrasesDiffer: 'As duas frases-senha diferem; nada foi criado.',
    emptyPassphrase: 'A frase-senha não pode ser vazia; nada foi criado.',
    passphraseOf: (file) => `Frase-senha da chave de aprovador ${file}`,
    noPassphrase: (file) => `A chave de aprovador ${file} é cifrada e não há terminal para pedir a frase-senha; defina PAYBATCH_APPROVER_PASSPHRASE, ou PAYBATCH_APPROVER_PASSPHRASE_FILE com o caminho de um arquivo que a contenha.`,
    makerKeyNeeded: (profile) =>
      `O perfil "${profile}" tem uma política de aprovação: quem faz um lote ou paga um boleto assina como quem o fez com a própria chave de aprovador registrada (PAYBATCH_APPROVER_KEY aponta uma guardada em outro lugar), para que ninguém aprove os próprios pagamentos.`,
    added: (name, profile, fp) => `✓ "${name}" (${fp}) é aprovador do perfil "${profile}".`,
    unchanged: (name, profile) => `"${name}" já estava registrado com esta chave no perfil "${profile}"; nada mudou.`,
    removed: (name, profile) => `✓ "${name}" não é mais aprovador do perfil "${profile}". Aprovações assinadas com essa chave deixam de contar.`,
    notRegistered: (name, profile) => `Não há aprovador "${name}" no perfil "${profile}".`,
    noApprovers: (profile) => `O perfil "${profile}" não tem aprovadores. Registre um com: paybatch approver add <nome> <chave pública>`,
    listHead: ['nome', 'impressão digital', 'chave pública'],
    you: '(você)',
    batchLabel: 'lote',
    billLabel: 'boleto',
    itemsLabel: 'pagamentos',
    totalLabel: 'total',
    largestLabel: 'maior pagamento',
    dueLabel: 'vencimento',
    digestLabel: 'resumo do conteúdo (SHA-256)',
    needsLabel: 'política',
    signedLabel: 'aprovado por',
    approverLabel: 'você assina como',
    needs: (required, reasons) => `${counted('pt-BR', required, { one: 'aprovação', other: 'aprovações' })}: ${reasons}`,
    needsNone: 'nenhuma aprovação exigida pela política atual',
    signedSoFar: (valid, names) => (valid ? `${names.join(', ')} (${counted('pt-BR', valid, { one: 'válida', other: 'válidas' })})` : 'ninguém ainda'),
    confirmBatch: (id, name, items, total) => `Aprovar o lote #${id} "${name}": ${counted('pt-BR', items, { one: 'pagamento', other: 'pagamentos' })}, ${total}?`,
    confirmBill: (line, amount) => `Aprovar o pagamento de ${amount} do boleto ${line}?`,
    approved: (subject, as) => `✓ ${subject} aprovado como "${as}".`,
    confirmClaim: (id, name) => `Assinar como quem fez o lote #${id} "${name}"? Depois você nunca poderá aprová-lo.`,
    claimed: (id, as) => `✓ Assinado como quem fez o lote #${id} ("${as}"); os outros aprovadores já podem aprová-lo.`,
    stillMissing: (missing, waitingFor) =>
      `Ainda ${pluralForm('pt-BR', missing, { one: 'falta', other: 'faltam' })} ${counted('pt-BR', missing, { one: 'aprovação', other: 'aprovações' })}${waitingFor.length ? `; podem assinar: ${waitingFor.join(', ')}` : ''}.`,
    readyBatch: (id) => `Tem todas as aprovações necessárias. Inicie com: paybatch batch start ${id}`,
    readyBill: (line) => `Tem todas as aprovações necessárias. Pague com: paybatch boleto pay ${line}`,
    nothingPending: 'Nada aguarda aprovação.',
    pendingBatchesTitle: 'Lotes:',
    pendingBillsTitle: 'Boletos:',
    pendingHead: (zone) => ['#', 'nome', 'total', 'feito por', 'aprovado por', 'faltam', 'podem assinar', `criado (${zone})`, 'próximo passo'],
    pendingBillHead: ['linha', 'aprovado por', 'faltam', 'próximo passo'],
    showTitle: '\nAprovações:',
    showHead: (zone) => ['aprovador', 'impressão digital', `assinada (${zone})`, 'de', 'conta'],
    counted: 'sim',
    notCounted: 'não',
    ready: 'pronto',
  },
};

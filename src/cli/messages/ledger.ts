import type { Locale } from '../../words/locale.js';
import type { LedgerHolder } from '../../daemon/lock.js';
import { localDateTime, zoneLabel } from '../../words/local-time.js';
import { counted } from '../../words/plural.js';

/** An instant the ledger stores (ISO) as São Paulo time in pt-BR; English keeps the stored text, as it always printed it. */
function brTime(iso: string): string {
  const instant = new Date(iso);
  return Number.isNaN(instant.getTime()) ? iso : localDateTime(instant, 'pt-BR');
}
const BR_ZONE = zoneLabel('pt-BR');

/** What `paybatch ledger migrate|copy|backup|check` says to people; `--json` keeps its own fields. */
export interface LedgerMessages {
  upToDateApplied(ledger: string, applied: string): string;
  upToDate(ledger: string, migrations: number): string;
  readonly sameLedger: string;
  noLedgerFrom(from: string): string;
  holder(h: LedgerHolder): string;
  heldByDaemon(file: string, holders: string): string;
  readonly heldHint: string;
  readonly copyHead: readonly [string, string, string];
  copied(from: string, to: string): string;
  postgresBackup(file: string): string;
  readonly postgresBackupHint: string;
  backedUp(file: string, path: string, bytes: number): string;
  noLedger(file: string): string;
  readonly noLedgerHint: string;
  ledgerTitle(file: string): string;
  readonly checkHead: readonly [string, string];
  readonly integritySqlite: string;
  integrityProblems(n: number): string;
  readonly ok: string;
  readonly integrityPostgres: string;
  readonly checkedByServer: string;
  readonly providerCalls: string;
  calls(calls: number, open: number, settled: number, unpaired: number): string;
  readonly paidTwice: string;
  payments(n: number): string;
  readonly none: string;
  readonly batchTotals: string;
  batchTotalsResult(batches: number, mismatches: number): string;
  readonly remoteBatches: string;
  remoteBatchesResult(stray: number, refused: number): string;
  readonly integrityTitle: string;
  readonly messageHead: readonly [string];
  readonly openTitle: string;
  readonly openHead: readonly [string, string, string, string, string];
  readonly yes: string;
  readonly no: string;
  /** A stored instant in a table cell (its header says the zone). */
  time(iso: string): string;
  readonly strayCallsTitle: string;
  readonly strayCallsHead: readonly [string, string, string, string];
  readonly paidTwiceTitle: string;
  readonly paidTwiceHead: readonly [string, string, string];
  readonly mismatchTitle: string;
  readonly mismatchHead: readonly [string, string, string, string, string, string];
  readonly strayBatchesTitle: string;
  readonly strayBatchesHead: readonly [string, string, string, string];
  readonly notLookedAt: string;
  readonly refusedTitle: string;
  readonly refusedHead: readonly [string];
  readonly clean: string;
  readonly attention: string;
}

export const ledgerMessages: Readonly<Record<Locale, LedgerMessages>> = {
  en: {
    upToDateApplied: (ledger, applied) => `Ledger ${ledger} brought up to date: ${applied}.`,
    upToDate: (ledger, migrations) => `Ledger ${ledger} is up to date (${migrations} migrations).`,
    sameLedger: '--from and --to name the same ledger.',
    noLedgerFrom: (from) => `There is no ledger at ${from} (--from).`,
    holder: (h) => (h.kind === 'lock' ? `the daemon pid ${h.pid} on ${h.host}, since ${h.since}` : `${h.holder}, working on ${h.work} until ${h.until}`),
    heldByDaemon: (file, holders) =>
      `${file} is held by a running daemon (${holders}): whatever it writes once the copy has begun would be missing from the copy. Nothing was copied.`,
    heldHint: 'Stop the daemon first (SIGTERM; systemctl stop), then copy; or pass --force to copy what the ledger holds now.',
    copyHead: ['table', 'rows', 'centavos by status (equal on both sides)'],
    copied: (from, to) => `Copied ${from} to ${to}; every table's rows and sums match.`,
    postgresBackup: (file) => `The ledger ${file} is a PostgreSQL database: back it up with PostgreSQL's own tools.`,
    postgresBackupHint: "pg_dump --format=custom (or your server's continuous archiving); paybatch ledger copy --to <file.db> also makes an SQLite copy.",
    backedUp: (file, path, bytes) => `Backed up ${file} to ${path} (${bytes} bytes).`,
    noLedger: (file) => `There is no ledger at ${file}.`,
    noLedgerHint: 'Pass --ledger <path> (or set PAYBATCH_LEDGER) to name the ledger file.',
    ledgerTitle: (file) => `Ledger ${file}`,
    checkHead: ['check', 'result'],
    integritySqlite: 'integrity (SQLite)',
    integrityProblems: (n) => `${n} problems`,
    ok: 'ok',
    integrityPostgres: 'integrity (PostgreSQL)',
    checkedByServer: 'checked by the server itself',
    providerCalls: 'provider calls',
    calls: (calls, open, settled, unpaired) =>
      `${counted('en', calls, { one: 'call', other: 'calls' })}; ${open} without outcome${settled ? ` (+${settled} settled by a retry)` : ''}; ${unpaired} unpaired`,
    paidTwice: 'paid twice',
    payments: (n) => counted('en', n, { one: 'payment', other: 'payments' }),
    none: 'none',
    batchTotals: 'batch totals',
    batchTotalsResult: (batches, mismatches) =>
      `${counted('en', batches, { one: 'batch', other: 'batches' })}; ${mismatches ? `${mismatches} differ from their items` : 'all match their items'}`,
    remoteBatches: 'remote batches',
    remoteBatchesResult: (stray, refused) =>
      `${stray ? `${counted('en', stray, { one: 'stray batch', other: 'stray batches' })} at the provider` : 'no stray batch'}; ${refused ? `${counted('en', refused, { one: 'batch', other: 'batches' })} refused by the provider` : 'none refused'}`,
    integrityTitle: 'SQLite integrity check',
    messageHead: ['message'],
    openTitle: 'Calls without outcome (the provider may or may not have acted on them)',
    openHead: ['call', 'operation', 'subject', 'sent at', 'settled by a retry'],
    yes: 'yes',
    no: 'no',
    time: (iso) => iso,
    strayCallsTitle: 'Unpaired call log rows',
    strayCallsHead: ['row', 'operation', 'subject', 'problem'],
    paidTwiceTitle: 'Payments marked paid more than once',
    paidTwiceHead: ['original item', 'identifiers', 'batches'],
    mismatchTitle: 'Batches whose count or total differ from their items',
    mismatchHead: ['batch', 'name', 'items (batch)', 'items (counted)', 'total (batch)', 'total (counted)'],
    strayBatchesTitle: 'Remote batches a run created after losing its claim (delete them at the provider)',
    strayBatchesHead: ['batch', 'remote batch', 'found at', 'why it is still there'],
    notLookedAt: 'not looked at yet (the daemon deletes it while it is empty)',
    refusedTitle: "Batches the provider keeps refusing (the daemon no longer sends them; see 'paybatch batch show')",
    refusedHead: ['batch'],
    clean: 'Nothing needs attention.',
    attention: 'Something above needs attention.',
  },
  'pt-BR': {
    upToDateApplied: (ledger, applied) => `Registro ${ledger} atualizado: ${applied}.`,
    upToDate: (ledger, migrations) => `O registro ${ledger} está atualizado (${counted('pt-BR', migrations, { one: 'migração', other: 'migrações' })}).`,
    sameLedger: '--from e --to apontam para o mesmo registro.',
    noLedgerFrom: (from) => `Não existe registro em ${from} (--from).`,
    holder: (h) =>
      h.kind === 'lock'
        ? `o daemon pid ${h.pid} em ${h.host}, desde ${brTime(h.since)} (${BR_ZONE})`
        : `${h.holder}, trabalhando em ${h.work} até ${brTime(h.until)} (${BR_ZONE})`,
    heldByDaemon: (file, holders) =>
      `${file} está em uso por um daemon em execução (${holders}): o que ele gravar depois de a cópia começar ficaria fora da cópia. Nada foi copiado.`,
    heldHint: 'Pare o daemon antes (SIGTERM; systemctl stop) e então copie; ou use --force para copiar o que o registro tem agora.',
    copyHead: ['tabela', 'linhas', 'centavos por situação (iguais dos dois lados)'],
    copied: (from, to) => `${from} copiado para ${to}; as linhas e as somas de cada tabela conferem.`,
    postgresBackup: (file) => `O registro ${file} é um banco PostgreSQL: faça a cópia de segurança com as ferramentas do próprio PostgreSQL.`,
    postgresBackupHint: 'pg_dump --format=custom (ou o arquivamento contínuo do seu servidor); paybatch ledger copy --to <arquivo.db> também faz uma cópia em SQLite.',
    backedUp: (file, path, bytes) => `Cópia de segurança de ${file} salva em ${path} (${counted('pt-BR', bytes, { one: 'byte', other: 'bytes' })}).`,
    noLedger: (file) => `Não existe registro em ${file}.`,
    noLedgerHint: 'Use --ledger <caminho> (ou defina PAYBATCH_LEDGER) para indicar o arquivo do registro.',
    ledgerTitle: (file) => `Registro ${file}`,
    checkHead: ['verificação', 'resultado'],
    integritySqlite: 'integridade (SQLite)',
    integrityProblems: (n) => counted('pt-BR', n, { one: 'problema', other: 'problemas' }),
    ok: 'ok',
    integrityPostgres: 'integridade (PostgreSQL)',
    checkedByServer: 'verificada pelo próprio servidor',
    providerCalls: 'chamadas ao provedor',
    calls: (calls, open, settled, unpaired) =>
      `${counted('pt-BR', calls, { one: 'chamada', other: 'chamadas' })}; ${open} sem resultado${settled ? ` (+${counted('pt-BR', settled, { one: 'resolvida', other: 'resolvidas' })} por uma nova tentativa)` : ''}; ${unpaired} sem par`,
    paidTwice: 'pagos duas vezes',
    payments: (n) => counted('pt-BR', n, { one: 'pagamento', other: 'pagamentos' }),
    none: 'nenhum',
    batchTotals: 'totais dos lotes',
    batchTotalsResult: (batches, mismatches) =>
      `${counted('pt-BR', batches, { one: 'lote', other: 'lotes' })}; ${mismatches ? `${mismatches} não batem com seus itens` : 'todos batem com seus itens'}`,
    remoteBatches: 'lotes no provedor',
    remoteBatchesResult: (stray, refused) =>
      `${stray ? `${counted('pt-BR', stray, { one: 'lote perdido', other: 'lotes perdidos' })} no provedor` : 'nenhum lote perdido'}; ${refused ? `${counted('pt-BR', refused, { one: 'lote recusado', other: 'lotes recusados' })} pelo provedor` : 'nenhum recusado'}`,
    integrityTitle: 'Verificação de integridade do SQLite',
    messageHead: ['mensagem'],
    openTitle: 'Chamadas sem resultado (o provedor pode ou não ter agido sobre elas)',
    openHead: ['chamada', 'operação', 'assunto', `enviada em (${BR_ZONE})`, 'resolvida por nova tentativa'],
    yes: 'sim',
    no: 'não',
    time: brTime,
    strayCallsTitle: 'Linhas sem par no histórico de chamadas',
    strayCallsHead: ['linha', 'operação', 'assunto', 'problema'],
    paidTwiceTitle: 'Pagamentos marcados como pagos mais de uma vez',
    paidTwiceHead: ['item original', 'identificadores', 'lotes'],
    mismatchTitle: 'Lotes cuja contagem ou total não batem com seus itens',
    mismatchHead: ['lote', 'nome', 'itens (lote)', 'itens (contados)', 'total (lote)', 'total (contado)'],
    strayBatchesTitle: 'Lotes no provedor criados por uma execução depois de perder sua vez (apague-os no provedor)',
    strayBatchesHead: ['lote', 'lote no provedor', `encontrado em (${BR_ZONE})`, 'por que ainda está lá'],
    notLookedAt: 'ainda não examinado (o daemon o apaga enquanto estiver vazio)',
    refusedTitle: "Lotes que o provedor continua recusando (o daemon não os envia mais; veja 'paybatch batch show')",
    refusedHead: ['lote'],
    clean: 'Nada precisa de atenção.',
    attention: 'Algo acima precisa de atenção.',
  },
};

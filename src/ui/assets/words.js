// The page's own words in each language; status words, amounts and dates come formatted from the server.
export const lang = document.documentElement.lang === 'pt-BR' ? 'pt-BR' : 'en';
const plural = new Intl.PluralRules(lang);
/** The form of `forms` (`{ one, other }`) for `n`, by the language's plural rules. */
const counted = (n, forms) => forms[plural.select(n)] ?? forms.other;

const WORDS = {
  en: {
    batches: 'Batches', alerts: 'Alerts', bills: 'Bills', receipts: 'Receipts', approvals: 'Approvals',
    batch: 'Batch', name: 'Name', status: 'Status', progress: 'Progress', items: 'Items', total: 'Total', paid: 'Paid',
    created: 'Created', started: 'Started', settled: 'Settled', noBatches: 'No batch in this ledger yet. Import a sheet with paybatch import.',
    amountByStatus: 'Amount by status', paidOverTime: 'Paid over time', nothingPaid: 'Nothing paid yet.',
    allStatuses: 'All statuses', search: 'Search name, key, document or line', line: 'Line', key: 'Key', document: 'Document',
    amount: 'Amount', reason: 'Reason', receipt: 'Receipt', open: 'Open', close: 'Close', previous: 'Previous', next: 'Next',
    ofTotal: (from, to, total) => `${from}–${to} of ${total}`, noItems: 'No item matches.',
    calls: 'Provider calls', time: 'Time', operation: 'Operation', phase: 'Phase', outcome: 'Outcome', detail: 'Detail', noCalls: 'No call recorded.',
    showAcked: 'Show acknowledged', acknowledge: 'Acknowledge', acknowledged: (at) => `acknowledged ${at}`, noAlerts: 'No open alert.',
    more: (n) => `and ${n} more`, beneficiary: 'Beneficiary', due: 'Due', settleDate: 'Settles', returnableUntil: 'Returnable until',
    noBills: 'No bill paid through this ledger.', noReceipts: 'No receipt saved yet.',
    approvalsUnavailable: 'Approvals are not available in this version of paybatch: nothing waits for a signature here.',
    noApprovals: 'Nothing waits for an approval.', sign: 'To approve, run', ready: 'Approved; to pay, run', bill: 'Bill',
    approvalSummary: (total, rows, largest) => `${total} · ${rows} payments · largest ${largest}`,
    signatures: (valid, required) => `Approvals: ${valid} of ${required}`, waitingFor: 'waiting for', madeBy: 'made by',
    updated: (at) => `live · updated ${at}`, offline: 'offline: retrying…', signedOut: 'Signed out: open the address printed by paybatch ui again.',
    zone: (z) => `Times in ${z}.`, receiptOf: (what) => `Receipt: ${what}`, settledShare: 'settled',
    daemonRunning: (n) => (n > 1 ? `${n} daemons running` : 'Daemon running'), daemonStopped: 'No daemon running',
    lastPass: (at, lag) => `last pass ${at} (${lag} ago)`, lastPassOnce: (at, lag) => `last pass ${at} (${lag} ago, by daemon --once)`,
    noPass: 'no pass recorded yet', late: 'no pass for longer than usual: a pass may be stuck (see the daemon’s log)',
    openAlerts: (n) => (n === 0 ? 'no open alert' : `${n} ${counted(n, { one: 'open alert', other: 'open alerts' })}`),
    notFollowed: (n) => `The payments of ${n} started ${counted(n, { one: 'batch are', other: 'batches are' })} not being followed: no daemon is running. Start one:`,
  },
  'pt-BR': {
    batches: 'Lotes', alerts: 'Alertas', bills: 'Boletos', receipts: 'Comprovantes', approvals: 'Aprovações',
    batch: 'Lote', name: 'Nome', status: 'Situação', progress: 'Progresso', items: 'Itens', total: 'Total', paid: 'Pago',
    created: 'Criado', started: 'Iniciado', settled: 'Concluído', noBatches: 'Nenhum lote neste livro-razão. Importe uma planilha com paybatch import.',
    amountByStatus: 'Valor por situação', paidOverTime: 'Pago ao longo do tempo', nothingPaid: 'Nada pago ainda.',
    allStatuses: 'Todas as situações', search: 'Buscar nome, chave, documento ou linha', line: 'Linha', key: 'Chave', document: 'Documento',
    amount: 'Valor', reason: 'Motivo', receipt: 'Comprovante', open: 'Abrir', close: 'Fechar', previous: 'Anterior', next: 'Próxima',
    ofTotal: (from, to, total) => `${from}–${to} de ${total}`, noItems: 'Nenhum item corresponde.',
    calls: 'Chamadas ao provedor', time: 'Hora', operation: 'Operação', phase: 'Fase', outcome: 'Resultado', detail: 'Detalhe', noCalls: 'Nenhuma chamada registrada.',
    showAcked: 'Mostrar reconhecidos', acknowledge: 'Reconhecer', acknowledged: (at) => `reconhecido em ${at}`, noAlerts: 'Nenhum alerta aberto.',
    more: (n) => `e mais ${n}`, beneficiary: 'Beneficiário', due: 'Vencimento', settleDate: 'Liquidação', returnableUntil: 'Devolvível até',
    noBills: 'Nenhum boleto pago por este livro-razão.', noReceipts: 'Nenhum comprovante salvo ainda.',
    approvalsUnavailable: 'Aprovações não estão disponíveis nesta versão do paybatch: nada espera assinatura aqui.',
    noApprovals: 'Nada espera aprovação.', sign: 'Para aprovar, execute', ready: 'Aprovado; para pagar, execute', bill: 'Boleto',
    approvalSummary: (total, rows, largest) => `${total} · ${rows} pagamentos · maior ${largest}`,
    signatures: (valid, required) => `Aprovações: ${valid} de ${required}`, waitingFor: 'aguardando', madeBy: 'feito por',
    updated: (at) => `ao vivo · atualizado às ${at}`, offline: 'sem conexão: tentando de novo…', signedOut: 'Sessão encerrada: abra de novo o endereço mostrado por paybatch ui.',
    zone: (z) => `Horários: ${z}.`, receiptOf: (what) => `Comprovante: ${what}`, settledShare: 'concluído',
    daemonRunning: (n) => (n > 1 ? `${n} daemons rodando` : 'Daemon rodando'), daemonStopped: 'Nenhum daemon rodando',
    lastPass: (at, lag) => `última passada ${at} (há ${lag})`, lastPassOnce: (at, lag) => `última passada ${at} (há ${lag}, por daemon --once)`,
    noPass: 'nenhuma passada registrada', late: 'sem passada há mais tempo que o normal: uma passada pode estar travada (veja o log do daemon)',
    openAlerts: (n) => (n === 0 ? 'nenhum alerta aberto' : `${n} ${counted(n, { one: 'alerta aberto', other: 'alertas abertos' })}`),
    notFollowed: (n) => `Os pagamentos de ${n} ${counted(n, { one: 'lote iniciado não estão', other: 'lotes iniciados não estão' })} sendo acompanhados: nenhum daemon está rodando. Inicie um:`,
  },
};

export const t = WORDS[lang];

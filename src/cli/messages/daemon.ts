import type { DaemonEvent, DaemonLogEntry } from '../../daemon/log-events.js';
import { alertTitle } from '../../alerts/alert.js';
import type { Locale } from '../../words/locale.js';
import { counted } from '../../words/plural.js';
import type { PassStep } from '../../engine/follow-up/index.js';

/** The frame of the daemon's human log lines and the lines the command itself logs; the engine's own stay English. */
export interface DaemonMessages {
  /** Said once, before the first line: the times are São Paulo's. */
  timesAre(zone: string): string;
  readonly level: Readonly<Record<'info' | 'warn' | 'error', string>>;
  readonly noSecret: string;
  readonly stopping: string;
  /** The receiver cannot listen on --listen (`address` is host:port): the port is taken, privileged, or not this machine's. */
  listenFailed(address: string, code: 'EADDRINUSE' | 'EACCES' | 'EADDRNOTAVAIL'): string;
  readonly listenHint: string;
}

export const daemonMessages: Readonly<Record<Locale, DaemonMessages>> = {
  en: {
    timesAre: (zone) => `Times below: ${zone}.`,
    level: { info: 'INFO ', warn: 'WARN ', error: 'ERROR' },
    noSecret: "no webhook secret: no receiver runs, payments are followed by polling alone (set one with 'paybatch config set webhookSecret')",
    stopping: 'stopping: finishing the pass in flight',
    listenFailed: (address, code) =>
      `--listen ${address}: the webhook receiver cannot listen there: ${
        { EADDRINUSE: 'the port is already in use', EACCES: 'permission denied, ports below 1024 need privileges', EADDRNOTAVAIL: "the address is not one of this machine's" }[code]
      } (${code}).`,
    listenHint: 'Pick another --listen address (port 0 picks a free one), or stop what is listening there.',
  },
  'pt-BR': {
    timesAre: (zone) => `Horas abaixo no ${zone}.`,
    level: { info: 'INFO ', warn: 'AVISO', error: 'ERRO ' },
    noSecret:
      "sem segredo de webhook: nenhum receptor é aberto e os pagamentos são acompanhados só por consultas ao provedor (defina um com 'paybatch config set webhookSecret')",
    stopping: 'parando: terminando a passada em andamento',
    listenFailed: (address, code) =>
      `--listen ${address}: o receptor de webhooks não consegue escutar nesse endereço: ${
        { EADDRINUSE: 'a porta já está em uso', EACCES: 'permissão negada, portas abaixo de 1024 exigem privilégios', EADDRNOTAVAIL: 'o endereço não é desta máquina' }[code]
      } (${code}).`,
    listenHint: 'Escolha outro endereço em --listen (a porta 0 escolhe uma livre) ou pare o que está escutando nele.',
  },
};

type EventWords = Readonly<Record<DaemonEvent, (e: DaemonLogEntry) => string>>;

const n = (v: unknown): number => (typeof v === 'number' ? v : 0);

/**
 * The refusals of webhook requests by their logged reason (accept-delivery.ts, webhook-proof.ts, the receiver): a fixed
 * set of short phrases; one missing here is shown as logged.
 */
const REFUSALS: Readonly<Record<string, string>> = {
  'not found': 'caminho desconhecido',
  'method not allowed': 'método não aceito',
  'content type must be application/json': 'o tipo de conteúdo deve ser application/json',
  'body too large': 'corpo grande demais',
  'invalid UTF-8': 'UTF-8 inválido',
  'invalid JSON': 'JSON inválido',
  'invalid event': 'evento inválido',
  'no usable secret configured': 'nenhum segredo utilizável configurado',
  'repeated signature headers': 'cabeçalhos de assinatura repetidos',
  'missing signature headers': 'faltam os cabeçalhos de assinatura',
  'missing credentials': 'faltam as credenciais',
  'malformed webhook-id': 'webhook-id malformado',
  'malformed webhook-timestamp': 'webhook-timestamp malformado',
  'malformed webhook-signature': 'webhook-signature malformado',
  'malformed signature header': 'cabeçalho de assinatura malformado',
  'timestamp outside tolerance': 'horário fora da tolerância',
  'no signature matches': 'nenhuma assinatura confere',
  'repeated secret header': 'cabeçalho do segredo repetido',
  'wrong secret': 'segredo errado',
  'repeated authorization header': 'cabeçalho authorization repetido',
  'malformed authorization header': 'cabeçalho authorization malformado',
  'request timeout': 'o pedido demorou demais',
  'headers too large': 'cabeçalhos grandes demais',
  'malformed request': 'pedido malformado',
};

/**
 * The daemon's events in each language but English, for the human log format: English is the line's own `msg`,
 * which the JSON format keeps for log shippers. Fields stay after the sentence as `name=value`, as logged.
 */
const PORTUGUESE_EVENTS: EventWords = {
  shared_ledger: () => 'registro local compartilhado: trabalhando junto com os outros daemons que o usam',
  clock_skewed: () => 'o relógio deste servidor difere do banco de dados do registro: vale o do banco (acerte o relógio deste servidor, NTP)',
  clock_agrees: () => 'o relógio deste servidor voltou a concordar com o do banco de dados do registro',
  subscribed: () => 'inscrito nos eventos do provedor',
  ledger_unreachable: () => 'o registro local não responde (ou ficou ocupado com outros servidores); tentando de novo',
  timeout_reached: () => 'parando: o --timeout chegou com pagamentos ainda em aberto',
  pass_done: () => 'passada concluída',
  pass_problem: (e) => `problema na passada, ${PASS_STEPS[e.step as PassStep]?.(e) ?? String(e.step)}: ${String(e.error)}`,
  receipt_files_swept: (e) => `${counted('pt-BR', n(e.count), { one: 'arquivo temporário', other: 'arquivos temporários' })} de comprovante deixados por gravações interrompidas removidos`,
  scheduled_start: () => 'lote agendado iniciado (import --pay-on)',
  scheduled_bills_sent: (e) => `${counted('pt-BR', n(e.count), { one: 'conta agendada enviada', other: 'contas agendadas enviadas' })} (remessa CNAB 240)`,
  return_file_written: () => 'arquivo retorno CNAB 240 gravado',
  return_file_failed: () => 'não foi possível gravar arquivos retorno CNAB 240 (os pagamentos seguem)',
  unknown_status: () => 'situação de item desconhecida vinda do provedor (guardada, não adivinhada)',
  // The kind's own title in Portuguese; a kind without one keeps the title the line was logged with.
  alert_raised: (e) => `alerta: ${alertTitle({ kind: String(e.kind), title: e.msg.replace(/^alert: /, ''), sandbox: false, items: Array.from({ length: n(e.items) }) }, 'pt-BR')}`,
  alert_channel_failed: (e) => `o canal de alerta ${String(e.channel)} falhou`,
  healthz_unreachable: () => 'healthz: o registro local não responde; respondendo 503',
  healthz_answers: () => 'healthz: o registro local voltou a responder',
  webhook_refused: (e) => `pedido de webhook recusado: ${REFUSALS[String(e.reason)] ?? String(e.reason)}`,
  webhook_proof_found: (e) => `as entregas de webhook se provam por ${String(e.method)}; fixe com: paybatch config set webhookVerification ${String(e.method)}`,
  webhook_aborted: () => 'entrega de webhook interrompida pelo cliente antes do fim do corpo',
  webhook_id_differs: () => 'o webhook-id difere do eventId do corpo; o eventId do corpo é o que identifica o evento',
  webhook_not_stored: () => 'evento de webhook não gravado; o provedor vai tentar de novo',
  webhook_not_stored_unreachable: () => 'evento de webhook não gravado: o registro local não responde; o provedor vai tentar de novo',
  webhook_stored: () => 'evento de webhook gravado',
  webhook_duplicate: () => 'evento de webhook já gravado',
  webhook_not_applied: () => 'evento de webhook gravado mas ainda não aplicado; tentando de novo em instantes',
  receiver_request_failed: () => 'o receptor de webhooks falhou ao tratar um pedido',
  receiver_server_error: () => 'erro no servidor do receptor de webhooks',
  receiver_listening: () => 'receptor de webhooks escutando',
  receiver_closed: () => 'receptor de webhooks fechado',
  no_webhook_secret: () => daemonMessages['pt-BR'].noSecret,
  stopping: () => daemonMessages['pt-BR'].stopping,
  dashboard_listening: (e) => `painel: ${String(e.url)}`,
};

/** The step of a pass that failed, as the Portuguese line says it. */
const PASS_STEPS: { readonly [S in PassStep]: (e: DaemonLogEntry) => string } = {
  reconcile: (e) => `ao conciliar o lote #${String(e.batchId)}`,
  reprocess: () => 'ao pagar de novo o que a instabilidade deixou sem pagar',
  send: (e) => `ao enviar o lote #${String(e.batchId)}`,
  stray_batches: () => 'ao resolver lotes remotos soltos',
  scheduled_start: (e) => `ao iniciar o lote agendado #${String(e.batchId)}`,
  scheduled_bill: (e) => `ao pagar a conta agendada ${String(e.subject)}`,
  receipt: (e) => `no comprovante de ${String(e.subject)}`,
};

const EVENT_WORDS: Readonly<Record<Exclude<Locale, 'en'>, EventWords>> = { 'pt-BR': PORTUGUESE_EVENTS };

/** What a log line says in `locale`: its event's words, or its English `msg` (in English, or a line with no event). */
export function logLineText(e: DaemonLogEntry, locale: Locale): string {
  return locale === 'en' || e.event === undefined ? e.msg : EVENT_WORDS[locale][e.event](e);
}

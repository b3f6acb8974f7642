import { saoPauloDateTime } from '../domain/bank-calendar.js';
import { centsToReais, formatBRL, formatReais } from '../domain/money.js';
import { englishBillEvents } from './bill-events.js';
import { URL_SAFE_CURSORS } from './cursor.js';
import type { Answer, Dialect, DialectName } from './dialect-contract.js';
import { iso } from './dialect-iso.js';
import { centavosAmount, reaisAmount } from './request-amounts.js';
import { secretProblem, signWebhook } from './webhook-signature.js';
import { batchBody, itemBody, specItemBody } from './wire.js';

export { DIALECTS, type Answer, type DeliveryAuth, type Dialect, type DialectName } from './dialect-contract.js';

/**
 * Dialects of the sandbox: where SPEC.md leaves a choice open ("not shown", or two readings), each dialect makes one.
 * `paybatch` makes the choices paybatch was built on; `spec` makes the other ordinary choice on every such point, so
 * a client can be proven against choices it did not make; `iso` (dialect-iso.ts) makes the choices of providers that
 * speak in upper-case states, ISO 20022 error codes and decimal reais. Storage, timing, faults and the inspection
 * routes are the same for all (the store keeps paybatch's words); only what goes over the wire differs, and all of
 * it is in the dialects (what they decide: dialect-contract.ts).
 */

/** Header that carries the subscription's secret, verbatim, on every webhook delivery of the `spec` dialect. */
export const SPEC_SECRET_HEADER = 'x-service-secret';

const unixText = (ms: number): string => String(Math.floor(ms / 1000));

// ---------------------------------------------------------------------------------------------------------------
// paybatch: the choices paybatch was built on (see docs/sandbox.md).

const paybatch: Dialect = {
  name: 'paybatch',
  defaults: { tokenTtlSeconds: 3_600, faults: {} },
  createdStatus: 201,
  batchBody: (batch) => batchBody(batch, batch.status),
  batchStatus: (stored) => stored,
  itemBody: (item) => itemBody(item, item.status),
  accountPix: true,
  itemAmount: centavosAmount,
  pageSize: (configured) => configured,
  cursors: URL_SAFE_CURSORS,
  deletedBody: (body) => body,
  subscribedBody: (s) => ({ id: s.id, url: s.url, createdAt: Math.floor(s.createdAtMs / 1000) }),
  secretProblem,
  errorAnswer: (error) => ({ status: error.status, body: error.body() }),
  unknownRoute: (method, path) => ({ status: 404, body: { error: { code: 'not_found', message: `no route ${method} ${path}`, details: [] } } }),
  retryAfter: () => '1',
  billDetailsMethods: ['GET', 'POST'],
  billPaymentAmount: reaisAmount,
  billDate: (date) => date,
  billAmount: centsToReais,
  billTimestamp: unixText,
  billStatus: (paidNow) => (paidNow ? 'paid' : 'scheduled'),
  billEvents: englishBillEvents(centsToReais, unixText, 'api'),
  pixReason: (r) => `${r.code} - ${r.description}`,
  pixEvents: {
    accepted: false,
    title: (kind) => ({ accepted: 'Pix accepted', paid: 'Pix sent', rejected: 'Pix rejected', refund: 'Pix refunded' })[kind],
    subtitle: (kind, cents, payee) => `${formatBRL(cents)} ${kind === 'refund' ? 'back from' : 'to'} ${payee}`,
    status: (kind) => (kind === 'rejected' ? 'rejected' : 'approved'),
    amount: (cents) => cents,
    reason: (stored) => ({ reason: stored }),
    extras: true,
  },
  // Standard Webhooks: the id, a real-clock timestamp and an HMAC of both with the body.
  deliveryHeaders: (a) => ({
    'webhook-id': a.eventId,
    'webhook-timestamp': String(a.timestampSeconds),
    'webhook-signature': signWebhook(a.secret, a.eventId, a.timestampSeconds, a.body),
  }),
  oauth: { basic: true, json: true, answer: (issued) => issued },
};

// ---------------------------------------------------------------------------------------------------------------
// spec: the other ordinary choice on each open point.

/** Item statuses: the words of card and Pix APIs that say `approved` where paybatch says `paid`. */
const SPEC_ITEM_STATUS: Readonly<Record<string, string>> = { waiting: 'waiting', processing: 'processing', paid: 'approved', failed: 'rejected', returned: 'refunded' };
/** A batch whose items are all done is `finished` (SPEC.md shows only pending and processing). */
const SPEC_BATCH_STATUS: Readonly<Record<string, string>> = { pending: 'pending', processing: 'processing', completed: 'finished' };

/**
 * Error codes and messages in the Portuguese, upper-case style of Brazilian bank APIs; the message is fixed per code,
 * and field problems (when any) follow it, so the English text of the sandbox never reaches the client.
 */
const SPEC_ERRORS: Readonly<Record<string, readonly [string, string]>> = {
  invalid_input: ['REQUISICAO_INVALIDA', 'Requisição inválida'],
  invalid_json: ['JSON_INVALIDO', 'O corpo da requisição não é um JSON válido'],
  bad_request: ['REQUISICAO_INVALIDA', 'Requisição inválida'],
  not_found: ['NAO_ENCONTRADO', 'Recurso não encontrado'],
  batch_not_pending: ['LOTE_NAO_PENDENTE', 'O lote não está pendente'],
  identifier_conflict: ['IDENTIFICADOR_DUPLICADO', 'Identificador já usado em outro pagamento'],
  bill_already_paid: ['BOLETO_PAGO', 'Boleto já pago'],
  payload_too_large: ['CORPO_MUITO_GRANDE', 'Corpo da requisição muito grande'],
  too_many_items: ['ITENS_DEMAIS', 'Itens demais em uma requisição'],
  unsupported_media_type: ['TIPO_DE_CONTEUDO_INVALIDO', 'O corpo deve ser application/json'],
  item_rejected: ['ITEM_RECUSADO', 'Itens recusados; nenhum foi incluído'],
  batch_full: ['LOTE_CHEIO', 'O lote atingiu o máximo de itens'],
  batch_empty: ['LOTE_VAZIO', 'Um lote sem itens não pode ser iniciado'],
  amount_mismatch: ['VALOR_DIVERGENTE', 'O valor deste boleto não pode ser alterado'],
  amount_out_of_range: ['VALOR_FORA_DOS_LIMITES', 'Valor fora dos limites do boleto'],
  missing_api_key: ['CHAVE_API_AUSENTE', 'Cabeçalho Service-ApiKey ausente'],
  invalid_api_key: ['CHAVE_API_INVALIDA', 'Service-ApiKey desconhecida'],
  missing_token: ['TOKEN_AUSENTE', 'Token de acesso ausente'],
  invalid_token: ['TOKEN_INVALIDO', 'Token de acesso inválido'],
  token_expired: ['TOKEN_EXPIRADO', 'Token de acesso expirado'],
  rate_limited: ['LIMITE_DE_REQUISICOES', 'Muitas requisições; tente novamente em instantes'],
  injected_fault: ['ERRO_INTERNO', 'Erro interno; nada foi aplicado'],
  internal_error: ['ERRO_INTERNO', 'Erro interno'],
};

/** Reasons of rejected Pix as sentences, without the ISO 20022 code paybatch shows. */
const SPEC_REJECTIONS: Readonly<Record<string, string>> = {
  AC03: 'Conta do recebedor inexistente',
  AC06: 'Conta do recebedor bloqueada',
  AC07: 'Conta do recebedor encerrada',
  AC14: 'Tipo de conta do recebedor incorreto',
  AG03: 'Transação não permitida para a conta do recebedor',
  AM02: 'Valor acima do limite da conta do recebedor',
  AM04: 'Saldo insuficiente na instituição pagadora',
  AM09: 'Valor incorreto',
  BE01: 'CPF/CNPJ do recebedor não confere com o titular da conta',
  BE17: 'Pagamento recusado pelo recebedor',
  CH11: 'CPF/CNPJ do recebedor incorreto',
  DS27: 'Instituição do recebedor não opera no SPI',
  RR04: 'Pagamento recusado por motivo regulatório',
  SL02: 'Pagamento recusado pelo recebedor',
};
/** Reasons of refunds for instability, as sentences: a client must tell them by `isRefund`, not by a code. */
const SPEC_INSTABILITY: Readonly<Record<string, string>> = {
  AB03: 'Devolução por instabilidade no SPI',
  AB09: 'Devolução por indisponibilidade da instituição do recebedor',
  AB11: 'Devolução por tempo esgotado na instituição pagadora',
  ED05: 'Devolução por instabilidade na liquidação',
};

/** ISO date-time without a zone, São Paulo wall clock implied: 2025-03-10T10:00:05. */
const localDateTime = (ms: number): string =>
  `${saoPauloDateTime(new Date(ms)).replace(' ', 'T')}:${String(new Date(ms).getUTCSeconds()).padStart(2, '0')}`;
/** A date as the start of its day, without a zone: 2025-03-10T00:00:00. */
const midnight = (date: string): string => `${date}T00:00:00`;

/** API gateways answer unknown routes and methods 403 before any authentication, with their own body. */
const GATEWAY_REFUSAL: Answer = { status: 403, body: { message: 'Missing Authentication Token' } };

const spec: Dialect = {
  name: 'spec',
  defaults: { tokenTtlSeconds: 3_600, faults: {} },
  createdStatus: 200,
  batchBody: (batch) => batchBody(batch, spec.batchStatus(batch.status)),
  batchStatus: (stored) => SPEC_BATCH_STATUS[stored] ?? stored,
  itemBody: (item) => specItemBody(item, SPEC_ITEM_STATUS[item.status] ?? item.status),
  // SPEC.md's `to` is the key lookup's answer: an item without `to.key` is refused (400).
  accountPix: false,
  itemAmount: centavosAmount,
  pageSize: (configured) => configured,
  cursors: URL_SAFE_CURSORS,
  // SPEC.md shows only the 202.
  deletedBody: () => undefined,
  // SPEC.md does not show the answer: a bare 200, so nothing can be read from it.
  subscribedBody: () => undefined,
  // The secret is a password sent back verbatim, not an HMAC key: any text will do.
  secretProblem: (secret) => (secret.trim() === '' ? 'must not be empty' : null),
  errorAnswer: (error) => {
    const [codigo, mensagem] = SPEC_ERRORS[error.code] ?? ['ERRO', 'Erro na requisição'];
    const fields = error.details.map((d) => `${d.field} ${d.problem}`).join('; ');
    // Business errors (conflicts and broken rules) are all 400, told apart by `codigo`.
    const status = error.status === 409 || error.status === 422 ? 400 : error.status;
    return { status, body: { codigo, mensagem: fields === '' ? mensagem : `${mensagem}: ${fields}` } };
  },
  unknownRoute: () => GATEWAY_REFUSAL,
  retryAfter: () => '1',
  billDetailsMethods: ['GET'],
  billPaymentAmount: reaisAmount,
  billDate: midnight,
  billAmount: formatReais,
  billTimestamp: localDateTime,
  billStatus: (paidNow) => (paidNow ? 'paid' : 'pending'),
  billEvents: {
    type: 'boleto',
    category: { scheduled: 'pagamento_agendado', paid: 'pagamento_confirmado', returned: 'pagamento_devolvido' },
    title: { scheduled: 'Pagamento agendado', paid: 'Boleto pago', returned: 'Pagamento devolvido' },
    subtitle: (kind, f) => `${formatBRL(f.amountCents)} ${kind === 'returned' ? 'devolvido por' : 'para'} ${f.beneficiary}`,
    detail: (kind, f) => ({
      idTransacao: f.transactionId,
      linhaDigitavel: f.line,
      valor: formatReais(f.amountCents),
      ...(kind === 'returned' ? { motivo: f.reason } : { dataPagamento: midnight(f.settleDate) }),
    }),
    timestamp: localDateTime,
    deviceType: 'API',
  },
  pixReason: (r) => (r.action === 'reprocess' ? SPEC_INSTABILITY[r.code] ?? 'Devolução por instabilidade no SPI' : SPEC_REJECTIONS[r.code] ?? 'Pagamento recusado pelo recebedor'),
  pixEvents: {
    accepted: false,
    title: (kind) => ({ accepted: 'Pix em processamento', paid: 'Pix enviado', rejected: 'Pix recusado', refund: 'Pix devolvido' })[kind],
    subtitle: (kind, cents, payee) => `${formatBRL(cents)} ${kind === 'refund' ? 'devolvido por' : 'para'} ${payee}`,
    status: (kind) => (kind === 'rejected' ? 'rejected' : 'approved'),
    amount: (cents) => cents,
    reason: (stored) => ({ reason: stored }),
    extras: false,
  },
  // The secret chosen at subscription, sent back in a header: the receiver compares it (in constant time).
  deliveryHeaders: (a) => ({ [SPEC_SECRET_HEADER]: a.secret }),
  // RFC 6749 client_secret_post only, with the form encoding the RFC requires; expires_in as text.
  oauth: { basic: false, json: false, answer: (issued) => ({ ...issued, expires_in: String(issued.expires_in) }) },
};

const BY_NAME: Readonly<Record<DialectName, Dialect>> = { paybatch, spec, iso };

/** The dialect of a name (checked by resolveOptions). */
export function dialectOf(name: DialectName): Dialect {
  return BY_NAME[name];
}

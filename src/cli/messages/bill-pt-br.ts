/**
 * The words of `boleto pay|details|list` in Portuguese: the same values as bill-messages.ts words in English, for
 * people only (`--json` documents keep the English texts). Dates are São Paulo's, DD/MM/AAAA.
 */
import { formatBoletoLine, type BoletoDecode } from '../../domain/boleto.js';
import { localDateTime, localDay } from '../../words/local-time.js';
import { formatBRL } from '../../domain/money.js';
import type { BillRefusal, BillTiming, BillWarning } from '../../engine/bill-plan.js';
import type { BillOutcome, PaymentWarning } from '../../engine/pay-bill.js';
import type { BillRow } from '../../ledger/bill-repository.js';
import { statusWord } from '../../words/status-words.js';

const day = (ymd: string) => (/^\d{4}-\d{2}-\d{2}$/.test(ymd) ? localDay(ymd, 'pt-BR') : ymd);
const ledgerTime = (row: BillRow) => `${localDateTime(new Date(row.created_at), 'pt-BR')} (horário de São Paulo)`;

export function refusalText(r: BillRefusal, howToGive: string): string {
  const give = howToGive === 'the amount column' ? 'a coluna de valor' : howToGive;
  switch (r.kind) {
    case 'no-code':
      return 'nenhum código de conta informado';
    case 'invalid-code':
    case 'invalid-amount':
      return r.detail;
    case 'description-too-long':
      return `mais longa que ${r.max} caracteres (${r.length})`;
    case 'same-bill-twice':
      return `a mesma conta que ${r.firstLine === null ? 'outro pedido' : `a linha ${r.firstLine}`}; uma conta é paga uma vez só`;
    case 'already-paid-in-ledger':
      return `${paidInLedgerText(r.row)}; use --force para pagá-la de novo`;
    case 'unknown-outcome-in-ledger':
      return `um pagamento desta conta em ${ledgerTime(r.row)} tem resultado desconhecido (conta #${r.row.id}): confira o extrato do provedor; pague de novo só se ele não estiver lá, com --force`;
    case 'unfinished-payment-in-ledger':
      return `um pagamento desta conta está sendo enviado desde ${ledgerTime(r.row)} (conta #${r.row.id}), por outra execução agora ou por uma que parou antes de registrar o resultado: espere essa execução ou confira o extrato do provedor; pague de novo só se ele não estiver lá, com --force`;
    case 'unknown-to-provider':
      return 'o provedor não conhece esta conta (HTTP 404); confira os dígitos com o boleto';
    case 'code-refused-by-provider':
      return `o provedor recusou o código: ${r.detail}`;
    case 'another-bill':
      return `o provedor descreve outra conta (linha ${r.providerLine}); compare cada dígito digitado com o boleto`;
    case 'amount-mismatch':
      return `o código diz ${formatBRL(r.codeCents)}, mas a conta do provedor é de ${formatBRL(r.providerCents)}: um dígito errado pode passar pelos dígitos verificadores; compare a linha com o boleto`;
    case 'fixed-amount':
      return `o valor desta conta não pode mudar: é ${formatBRL(r.billCents)}, não ${formatBRL(r.requestedCents)} (deixe o valor de fora para pagá-la)`;
    case 'amount-not-choosable':
      return 'o provedor não dá valor para esta conta e não deixa o pagador escolher um';
    case 'below-minimum':
      return `${r.requested ? 'o valor' : 'o valor da conta'} ${formatBRL(r.amountCents)} está abaixo do mínimo da conta, ${formatBRL(r.minCents)}`;
    case 'above-maximum':
      return `${r.requested ? 'o valor' : 'o valor da conta'} ${formatBRL(r.amountCents)} está acima do máximo da conta, ${formatBRL(r.maxCents)}`;
    case 'reference-value':
      return `o código traz um valor de referência, não o valor devido: informe o valor a pagar (${give})`;
    case 'amount-needed': {
      const range = r.range === null ? '' : ` entre ${formatBRL(r.range.minCents)} e ${formatBRL(r.range.maxCents)}`;
      return `esta conta não fixa o valor: informe o valor a pagar${range} (${give})`;
    }
    case 'no-amount':
      return 'o provedor não dá valor para esta conta';
  }
}

export function warningText(w: BillWarning | PaymentWarning): string {
  switch (w.kind) {
    case 'due-date-differs':
      return `o vencimento do código é ${day(w.codeDueDate)}, o do provedor é ${day(w.providerDueDate)}`;
    case 'past-due':
      return `vencida desde ${day(w.dueDate)}${w.interestCents ? `; o provedor acrescenta ${formatBRL(w.interestCents)} de juros e multa` : ''}`;
    case 'discount':
      return `o provedor concede um desconto de ${formatBRL(w.discountCents)}`;
    case 'settle-date-differs':
      return `o provedor dá ${day(w.providerSettleDate)} como data de liquidação, mas o relógio deste computador espera ${day(w.expectedSettleDate)}: vale o relógio do provedor`;
    case 'paid-amount-differs':
      return `o provedor informa ${formatBRL(w.paidCents)} pagos, mas foram pedidos ${formatBRL(w.askedCents)}`;
    case 'receipt-not-written':
      return `o comprovante não pôde ser gravado: ${w.detail}`;
    case 'scheduled-unexpectedly':
      return 'o provedor agendou um pagamento que o paybatch esperava ver feito na hora (confira o relógio deste computador)';
  }
}

export function timingText(t: BillTiming): string {
  const hours = `dias úteis das 08:00 às ${t.closeHour}:00, horário de São Paulo`;
  return t.windowOpen
    ? `Dentro do horário bancário (${hours}): pago na hora.`
    : `Fora do horário bancário (${hours}): o pagamento será agendado para ${localDateTime(new Date(t.opensAt), 'pt-BR')}.`;
}

export function billKindName(decoded: BoletoDecode): string {
  if (decoded.kind === 'bank') return `boleto bancário (banco ${decoded.bankCode ?? '?'})`;
  const segment = decoded.segmentName ?? `segmento ${decoded.segment ?? '?'}`;
  if (decoded.government) return `arrecadação de órgão público: ${segment}`;
  if (decoded.utility) return `conta de consumo: ${segment}`;
  return `boleto de arrecadação: ${segment}`;
}

export function previousText(rows: readonly BillRow[]): string {
  return rows.map((p) => `${statusWord(p.status, 'pt-BR')} (#${p.id})`).join(', ');
}

export function outcomeText(o: BillOutcome): { message: string; hint: string | null } {
  const { bill, answer } = o;
  const billId = o.row.id;
  switch (answer.kind) {
    case 'lost':
      return {
        message: `A resposta ao pagamento de ${formatBRL(bill.amountCents)} para ${bill.details.beneficiary || 'o beneficiário'} se perdeu (${answer.error}): a conta pode ou não ter sido paga. Ela fica registrada como desconhecida (conta #${billId}) e não será repetida.`,
        hint:
          `Confira o extrato do provedor, ou os pagamentos de contas da linha ${formatBoletoLine(bill.decoded.line)}, por volta de ${localDateTime(answer.startedAt, 'pt-BR')} (horário de São Paulo). ` +
          'Se o pagamento não estiver lá, pague de novo com --force; se estiver, não faça nada (um daemon recebendo webhooks também o conclui quando o provedor avisar).',
      };
    case 'refused':
      return {
        message: answer.alreadyPaid
          ? `O provedor recusou o pagamento: esta conta já foi paga ou agendada no provedor (${answer.error}). Nada foi pago agora.`
          : `O provedor recusou o pagamento (${answer.error}). Nada foi pago.`,
        hint: answer.alreadyPaid
          ? bill.previous.length
            ? `O registro local tem esta conta como ${previousText(bill.previous)}: esse pagamento muito provavelmente foi feito. Confira o extrato do provedor.`
            : 'Outra pessoa pode tê-la pago: confira o extrato do provedor e o beneficiário antes de qualquer coisa.'
          : answer.providerHint,
      };
    case 'taken': {
      const result = answer.payment;
      const amount = formatBRL(result.amountPaidCents ?? bill.amountCents);
      const to = result.beneficiary || bill.details.beneficiary || 'o beneficiário';
      const tx = result.transactionId ? `transação ${result.transactionId}` : 'sem id de transação';
      if (o.status === 'scheduled') return { message: `Agendado: ${amount} para ${to} em ${result.settleDate ? day(result.settleDate) : 'o próximo horário bancário'} (${tx}).`, hint: null };
      if (o.status === 'paid') return { message: `Pago: ${amount} para ${to} (${tx}${result.settleDate ? `, liquidação em ${day(result.settleDate)}` : ''}).`, hint: null };
      return {
        message: `O provedor aceitou o pagamento de ${amount} para ${to} (${tx}) com a situação "${result.status}", que o paybatch não conhece; ele fica registrado como desconhecido (conta #${billId}).`,
        hint: 'Confira o pagamento no provedor antes de qualquer outra coisa; ele não será repetido.',
      };
    }
  }
}

export function leftOutText(row: BillRow): string {
  return paidInLedgerText(row);
}

function paidInLedgerText(row: BillRow): string {
  const tx = row.transaction_id ? `, transação ${row.transaction_id}` : '';
  return `já ${statusWord(row.status, 'pt-BR')} em ${ledgerTime(row)} (conta #${row.id}${tx})`;
}

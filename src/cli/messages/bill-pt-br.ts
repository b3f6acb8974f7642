/**
 * The words of `boleto pay|details|list` in Portuguese: the same values as bill-messages.ts words in English, for
 * people only (`--json` documents keep the English texts). Dates are São Paulo's, DD/MM/AAAA.
 */
import { formatBoletoLine, type BoletoDecode } from '../../domain/boleto.js';
import { localDateTime, localDay } from '../../words/local-time.js';
import { formatBRL } from '../../domain/money.js';
import { ledgerAttempt, type BillRefusal, type BillTiming, type BillWarning } from '../../engine/bills/index.js';
import { alreadyDoneText, billWarningSentence, refusalSentence, type AmountWay } from './bill-refusals.js';
import type { BillOutcome, PaymentWarning } from '../../engine/bills/index.js';
import type { BillRow } from '../../ledger/bill-repository.js';
import { statusWord } from '../../words/status-words.js';

const day = (ymd: string) => (/^\d{4}-\d{2}-\d{2}$/.test(ymd) ? localDay(ymd, 'pt-BR') : ymd);

export function refusalText(r: BillRefusal, way: AmountWay): string {
  return refusalSentence(r, way, 'pt-BR');
}

export function warningText(w: BillWarning | PaymentWarning): string {
  return billWarningSentence(w, 'pt-BR');
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
  return alreadyDoneText(ledgerAttempt(row), 'pt-BR');
}

/**
 * Why a payment came back, for people: the ISO 20022 Pix reason codes paybatch knows (domain/reasons.ts) described
 * in the wording of the Banco Central's catalogue of SPI messages (Catálogo de Mensagens e Serviços do SPI,
 * ExternalStatusReason1Code for pacs.002 rejections, ExternalReturnReason1Code for pacs.004 returns), and the
 * meanings of bill returns. The ledger and `--json` keep the provider's own text; these words are for what people
 * read under their locale.
 */
import {
  classifyPixReason,
  matchBillReturnReason,
  type BillReturnFamily,
  type PixReason,
  type PixRejectionCode,
  type PixReturnCode,
} from '../domain/reasons.js';
import { splitWords } from '../domain/provider-words.js';
import type { Locale } from './locale.js';
import { statusWord } from './status-words.js';

interface PixReasonWords {
  readonly rejection: Readonly<Record<PixRejectionCode, string>>;
  readonly return: Readonly<Record<PixReturnCode, string>>;
}

export const PIX_REASON_WORDS: Readonly<Record<Locale, PixReasonWords>> = {
  en: {
    rejection: {
      AB03: 'Settlement aborted: timeout in the instant payment system (SPI)',
      AB09: "Transaction interrupted by an error at the receiver's institution",
      AB11: "Timeout at the payer's institution, which issued the payment order",
      AC03: "Receiver's branch or account number does not exist or is invalid",
      AC06: "Receiver's account is blocked",
      AC07: "Receiver's account is closed",
      AC14: "Wrong account type for the receiver's account",
      AG03: "Transaction type not supported or not allowed on the receiver's account (e.g. a salary account)",
      AM02: 'Amount above the limit allowed for the type of the credited account',
      AM04: "Insufficient balance in the settlement (PI) account of the payer's institution",
      AM09: 'Wrong amount: a return above the amount of the original payment',
      BE01: "Receiver's CPF/CNPJ is not consistent with the holder of the account",
      BE17: "Creditor identification invalid: QR code rejected by the receiver's institution",
      CH11: "Receiver's CPF/CNPJ is incorrect",
      DS27: 'Participant not registered in the SPI or not yet operating',
      ED05: 'Settlement failed: generic error processing the instant payment',
      RR04: 'Regulatory reason: payer sanctioned by a UN Security Council resolution',
      SL02: 'Return refused: the original payment is not a Pix Saque or Pix Troco',
    },
    return: {
      BE08: "Returned because of an operational failure (bank error) at the payer's or the receiver's institution",
      FR01: 'Returned for well-founded suspicion of fraud (special return mechanism, MED)',
      MD06: 'Refund requested by the end customer who received the payment',
      SL02: "Returned for a specific service of the receiver's institution (Pix Saque or Pix Troco)",
    },
  },
  'pt-BR': {
    rejection: {
      AB03: 'Liquidação da transação interrompida devido a timeout no SPI',
      AB09: 'Transação interrompida devido a erro no participante do usuário recebedor',
      AB11: 'Timeout do participante emissor da ordem de pagamento',
      AC03: 'Número da agência e/ou conta transacional do usuário recebedor inexistente ou inválido',
      AC06: 'Conta transacional do usuário recebedor encontra-se bloqueada',
      AC07: 'Número da conta transacional do usuário recebedor encerrada',
      AC14: 'Tipo incorreto para a conta transacional do usuário recebedor',
      AG03: 'Tipo de transação não é suportado/autorizado na conta transacional do usuário recebedor',
      AM02: 'Ordem de pagamento/devolução em valor que faz superar o limite permitido para o tipo de conta transacional creditada',
      AM04: 'Saldo insuficiente na conta PI do participante do usuário pagador',
      AM09: 'Devolução de pagamento em valor que faz superar o valor da ordem de pagamento instantâneo correspondente',
      BE01: 'CPF/CNPJ do usuário recebedor não é consistente com o titular da conta transacional especificada',
      BE17: 'QR Code rejeitado pelo participante do usuário recebedor',
      CH11: 'CPF/CNPJ do usuário recebedor incorreto',
      DS27: 'Participante não se encontra cadastrado ou ainda não iniciou a operação no SPI',
      ED05: 'Erro no processamento do pagamento instantâneo (erro genérico)',
      RR04: 'Ordem de pagamento em que o usuário pagador é sancionado por resolução do Conselho de Segurança das Nações Unidas (CSNU)',
      SL02: 'A transação referenciada na mensagem de devolução não está relacionada aos serviços de Pix Saque ou Pix Troco',
    },
    return: {
      BE08: 'Devolução de pagamento por falha operacional do participante do usuário pagador ou do usuário recebedor',
      FR01: 'Devolução de pagamento motivada por fundada suspeita de fraude, no âmbito do Mecanismo Especial de Devolução',
      MD06: 'Devolução de pagamento solicitada pelo usuário recebedor',
      SL02: 'Devolução de pagamento solicitada pelo usuário recebedor por erro na transação ou desacordo entre as partes relacionados ao Pix Saque ou ao Pix Troco',
    },
  },
};

/** The meanings of bill returns (SPEC.md "Return of a bill payment"), by family. */
export const BILL_RETURN_WORDS: Readonly<Record<Locale, Readonly<Record<BillReturnFamily, string>>>> = {
  en: {
    'due-date-expired': 'due date expired',
    'value-differs': 'value differs from the central registry',
    'already-paid': 'bill already paid',
    'written-off': 'bill already written off',
    'generic-refusal': 'generic refusal; contact support',
    'registry-mismatch': 'information differs from the central registry',
    'not-found': 'bill not found',
    'same-day': 'bill received within the same day',
    fraud: 'payment identified as fraud',
    protested: 'bill protested',
    'deadline-exceeded': 'payment deadline exceeded',
    'bill-differs': 'bill differs from the central registry',
  },
  'pt-BR': {
    'due-date-expired': 'prazo de validade ou vencimento expirado',
    'value-differs': 'valor diferente do registrado na base centralizada',
    'already-paid': 'boleto já pago',
    'written-off': 'boleto já baixado',
    'generic-refusal': 'recusa genérica; fale com o suporte',
    'registry-mismatch': 'informações divergentes da base centralizada',
    'not-found': 'boleto não encontrado na base centralizada',
    'same-day': 'boleto já recebido no mesmo dia',
    fraud: 'pagamento identificado como fraude',
    protested: 'boleto em cartório ou protestado',
    'deadline-exceeded': 'prazo de pagamento excedido',
    'bill-differs': 'boleto divergente da base centralizada',
  },
};

/** The first Pix reason code of a provider's text ("AC06 - …", "ac06", "motivo AC06: …"), or null. */
function pixReasonIn(text: string, kind: PixReason['kind']): PixReason | null {
  for (const word of splitWords(text)) {
    if (!/^[a-z]{2}\d{2}$/.test(word)) continue;
    const known = classifyPixReason(word, kind) ?? classifyPixReason(word);
    if (known !== null) return known;
  }
  return null;
}

/**
 * A provider's Pix rejection or return reason for people: under pt-BR, a text naming a code paybatch knows reads as
 * that code with the Banco Central's description ("AC06 - Conta transacional do usuário recebedor encontra-se
 * bloqueada"); any other text, and every text in English, is shown as the provider wrote it. `kind`: `return` for a
 * returned payment (SL02 is both), else `rejection`.
 */
export function pixReasonText(text: string, locale: Locale, kind: PixReason['kind'] = 'rejection'): string {
  return locale === 'en' ? text : pixReasonInLocale(text, locale, kind);
}

/**
 * A provider's Pix reason in the locale whatever language the provider wrote it in (the dashboard's): a text naming
 * a code paybatch knows reads as that code with its description in the locale ("AC06 - Receiver's account is
 * blocked" for "AC06 - Conta do recebedor bloqueada" under English); any other text is shown as the provider wrote it.
 */
export function pixReasonInLocale(text: string, locale: Locale, kind: PixReason['kind'] = 'rejection'): string {
  const known = pixReasonIn(text, kind);
  if (known === null) return text;
  const words = PIX_REASON_WORDS[locale];
  const description = known.kind === 'return' ? words.return[known.code as PixReturnCode] : words.rejection[known.code as PixRejectionCode];
  return `${known.code} - ${description}`;
}

/**
 * What a bill's return means, for people: the meaning of the row of SPEC.md's table the provider's reason text
 * names, in the locale; else the meaning the ledger recorded (null when none).
 */
export function billReturnMeaningText(reason: string | null, recordedMeaning: string | null, locale: Locale): string | null {
  const row = reason === null ? null : matchBillReturnReason(reason);
  return row === null ? recordedMeaning : BILL_RETURN_WORDS[locale][row.family];
}

/**
 * A status with the provider's reason after it, for people: the status word, the Pix reason and a bill return's
 * meaning (`returnMeaning` present, even null: a bill's return) in the locale. No reason: the status word alone.
 */
export function statusReasonText(s: { readonly status: string; readonly reason?: string | null; readonly returnMeaning?: string | null }, locale: Locale): string {
  if (s.returnMeaning !== undefined) {
    const received = s.reason ?? '?';
    return `${statusWord(s.status, locale)}: ${received} → ${billReturnMeaningText(received, s.returnMeaning ?? 'unknown reason', locale)}`;
  }
  if (!s.reason) return statusWord(s.status, locale);
  return `${statusWord(s.status, locale)}: ${pixReasonText(s.reason, locale, s.status === 'returned' ? 'return' : 'rejection')}`;
}

/**
 * An older stored alert item's status, the provider's reason joined after it in one text as the ledger's reports
 * wrote it before they kept the reason apart ("failed: AC06 - …",
 * "returned: 23 - … → bill already paid" for a bill), for people: the status word, the Pix reason and a bill return's
 * meaning in the locale. Other texts come back as they are.
 */
export function statusWithReasonText(text: string, locale: Locale): string {
  const at = text.indexOf(': ');
  if (at < 0) return statusWord(text, locale);
  const status = text.slice(0, at);
  // Only a status word of the table (each has a Portuguese word) starts such a line; other texts stay as they are.
  if (statusWord(status, 'pt-BR') === status) return text;
  const reason = text.slice(at + 2);
  const arrow = reason.lastIndexOf(' → ');
  if (arrow >= 0) {
    const received = reason.slice(0, arrow);
    const meaning = billReturnMeaningText(received, reason.slice(arrow + 3), locale);
    return `${statusWord(status, locale)}: ${received} → ${meaning}`;
  }
  return `${statusWord(status, locale)}: ${pixReasonText(reason, locale, status === 'returned' ? 'return' : 'rejection')}`;
}

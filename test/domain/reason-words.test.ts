import { describe, expect, it } from 'vitest';
import { BILL_RETURN_REASONS, PIX_REASONS } from '../../src/domain/reasons.js';
import { LOCALES } from '../../src/words/locale.js';
import { BILL_RETURN_WORDS, PIX_REASON_WORDS, billReturnMeaningText, pixReasonText, statusWithReasonText } from '../../src/words/payment-reasons.js';

describe('the words of Pix reasons and bill returns', () => {
  it('describes every Pix rejection and return code paybatch knows, in every language', () => {
    const codes = (kind: 'rejection' | 'return') => PIX_REASONS.filter((r) => r.kind === kind).map((r) => r.code).sort();
    for (const locale of LOCALES) {
      expect(Object.keys(PIX_REASON_WORDS[locale].rejection).sort()).toEqual(codes('rejection'));
      expect(Object.keys(PIX_REASON_WORDS[locale].return).sort()).toEqual(codes('return'));
    }
  });

  it('gives every bill return family a meaning in every language', () => {
    const families = [...new Set(BILL_RETURN_REASONS.map((r) => r.family))].sort();
    for (const locale of LOCALES) expect(Object.keys(BILL_RETURN_WORDS[locale]).sort()).toEqual(families);
  });

  it("reads a provider's AC06 failure in the Banco Central's Portuguese; English keeps the provider's text", () => {
    const received = "AC06 - Receiver's account is blocked";
    expect(pixReasonText(received, 'pt-BR')).toBe('AC06 - Conta transacional do usuário recebedor encontra-se bloqueada');
    expect(pixReasonText('ac06', 'pt-BR')).toBe('AC06 - Conta transacional do usuário recebedor encontra-se bloqueada');
    expect(pixReasonText(received, 'en')).toBe(received);
  });

  it('tells SL02 the rejection from SL02 the return', () => {
    expect(pixReasonText('SL02', 'pt-BR', 'rejection')).toBe('SL02 - A transação referenciada na mensagem de devolução não está relacionada aos serviços de Pix Saque ou Pix Troco');
    expect(pixReasonText('SL02', 'pt-BR', 'return')).toMatch(/^SL02 - Devolução de pagamento solicitada pelo usuário recebedor/);
    expect(pixReasonText('MD06 - refund', 'pt-BR', 'return')).toBe('MD06 - Devolução de pagamento solicitada pelo usuário recebedor');
  });

  it('keeps a text without a known code as the provider wrote it', () => {
    expect(pixReasonText('ZZ99 - something else', 'pt-BR')).toBe('ZZ99 - something else');
    expect(pixReasonText('conta bloqueada', 'pt-BR')).toBe('conta bloqueada');
  });

  it('an alert line of a failed item: status word and reason in Portuguese', () => {
    expect(statusWithReasonText("failed: AC06 - Receiver's account is blocked", 'pt-BR')).toBe('falhou: AC06 - Conta transacional do usuário recebedor encontra-se bloqueada');
    expect(statusWithReasonText('returned: 23 - bill cannot be received because it is settled → bill already paid', 'pt-BR')).toBe(
      'devolvido: 23 - bill cannot be received because it is settled → boleto já pago',
    );
    expect(statusWithReasonText('paid', 'pt-BR')).toBe('pago');
    expect(statusWithReasonText('amount_cents: the ledger has 100', 'pt-BR')).toBe('amount_cents: the ledger has 100');
  });

  it("a bill return's meaning: the row the provider's text names, else what the ledger recorded", () => {
    expect(billReturnMeaningText('12 - validity or due date expired, payment after due date not allowed', 'due date expired', 'pt-BR')).toBe('prazo de validade ou vencimento expirado');
    expect(billReturnMeaningText('Already paid', 'bill already paid', 'en')).toBe('bill already paid');
    expect(billReturnMeaningText('a reason of its own', null, 'pt-BR')).toBeNull();
  });
});

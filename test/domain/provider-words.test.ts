import { describe, expect, it } from 'vitest';
import type { ItemState } from '../../src/domain/item-state.js';
import { DEFAULT_STATUS_WORDS, itemStateFromWord, normaliseWord, splitWords } from '../../src/domain/provider-words.js';

describe('splitWords', () => {
  it.each([
    ['PaymentConfirmed', ['payment', 'confirmed']],
    ['paymentConfirmed', ['payment', 'confirmed']],
    ['SPITimeout', ['spi', 'timeout']],
    ['AB03Timeout', ['ab03', 'timeout']],
    ['AB03', ['ab03']],
    ['EM_PROCESSAMENTO', ['em', 'processamento']],
    ['Não realizado', ['nao', 'realizado']],
    ['NÃO-REALIZADO', ['nao', 'realizado']],
    ['cobrança', ['cobranca']],
    ['  pix.out / ted-in  ', ['pix', 'out', 'ted', 'in']],
    ['2 - PaymentConfirmed', ['2', 'payment', 'confirmed']],
    ['', []],
    ['---', []],
  ])('%j → %j', (text, words) => {
    expect(splitWords(text)).toEqual(words);
  });
});

describe('normaliseWord', () => {
  it.each([
    ['waiting', 'waiting'],
    ['WAITING', 'waiting'],
    ['  Waiting\t', 'waiting'],
    ['EM_PROCESSAMENTO', 'em_processamento'],
    ['em-processamento', 'em_processamento'],
    ['Em Processamento', 'em_processamento'],
    ['em  __ processamento', 'em_processamento'],
    ['Não Realizado', 'nao_realizado'],
    ['NAO_REALIZADO', 'nao_realizado'],
    ['Concluída', 'concluida'],
    ['Devolução', 'devolucao'],
    ['PaymentConfirmed', 'payment_confirmed'],
    ['inProgress', 'in_progress'],
    ['NotFinished', 'not_finished'],
    ['2 PaymentConfirmed', 'payment_confirmed'],
    ['2 - PaymentConfirmed', 'payment_confirmed'],
    ['12 Pending', 'pending'],
    ['13-Aborted', 'aborted'],
    ['0: NotFinished', 'not_finished'],
    ['2', '2'],
    ['3d_secure', '3d_secure'],
    ['PARTIALLY_REFUNDED', 'partially_refunded'],
    ['REMOVIDA_PELO_PSP', 'removida_pelo_psp'],
    ['', ''],
    ['   ', ''],
  ])('%j → %j', (word, normal) => {
    expect(normaliseWord(word)).toBe(normal);
  });
});

describe('itemStateFromWord, default table', () => {
  it.each<[string, ItemState]>([
    // waiting / in the queue
    ['waiting', 'submitted'],
    ['pending', 'submitted'],
    ['created', 'submitted'],
    ['queued', 'submitted'],
    ['scheduled', 'submitted'],
    ['agendado', 'submitted'],
    ['aguardando', 'submitted'],
    ['ativa', 'submitted'],
    ['ATIVA', 'submitted'],
    ['em_espera', 'submitted'],
    ['Em espera', 'submitted'],
    ['12 Pending', 'submitted'],
    ['pendente', 'submitted'],
    // in flight
    ['processing', 'processing'],
    ['in_progress', 'processing'],
    ['IN-PROGRESS', 'processing'],
    ['InProgress', 'processing'],
    ['inprogress', 'processing'],
    ['em_processamento', 'processing'],
    ['EM_PROCESSAMENTO', 'processing'],
    ['processando', 'processing'],
    ['authorized', 'processing'],
    ['1 Authorized', 'processing'],
    ['sending', 'processing'],
    // paid
    ['approved', 'paid'],
    ['paid', 'paid'],
    ['settled', 'paid'],
    ['success', 'paid'],
    ['successful', 'paid'],
    ['completed', 'paid'],
    ['done', 'paid'],
    ['executed', 'paid'],
    ['liquidated', 'paid'],
    ['LIQUIDATED', 'paid'],
    ['realizado', 'paid'],
    ['REALIZADO', 'paid'],
    ['concluido', 'paid'],
    ['concluida', 'paid'],
    ['CONCLUÍDA', 'paid'],
    ['pago', 'paid'],
    ['aprovado', 'paid'],
    ['liquidado', 'paid'],
    ['confirmed', 'paid'],
    ['payment_confirmed', 'paid'],
    ['PaymentConfirmed', 'paid'],
    ['2 PaymentConfirmed', 'paid'],
    ['2 - PaymentConfirmed', 'paid'],
    ['paymentconfirmed', 'paid'],
    // failed
    ['rejected', 'failed'],
    ['failed', 'failed'],
    ['denied', 'failed'],
    ['refused', 'failed'],
    ['error', 'failed'],
    ['canceled', 'failed'],
    ['CANCELED', 'failed'],
    ['cancelled', 'failed'],
    ['expired', 'failed'],
    ['nao_realizado', 'failed'],
    ['NAO_REALIZADO', 'failed'],
    ['Não realizado', 'failed'],
    ['recusado', 'failed'],
    ['rejeitado', 'failed'],
    ['falhou', 'failed'],
    ['cancelado', 'failed'],
    ['aborted', 'failed'],
    ['13 Aborted', 'failed'],
    ['not_finished', 'failed'],
    ['0 NotFinished', 'failed'],
    ['removida_pelo_psp', 'failed'],
    ['REMOVIDA_PELO_PSP', 'failed'],
    // returned
    ['refunded', 'returned'],
    ['REFUNDED', 'returned'],
    ['11 Refunded', 'returned'],
    ['returned', 'returned'],
    ['reversed', 'returned'],
    ['devolvido', 'returned'],
    ['DEVOLVIDO', 'returned'],
    ['estornado', 'returned'],
    ['chargeback', 'returned'],
    ['charged_back', 'returned'],
    ['ChargedBack', 'returned'],
    ['partially_refunded', 'returned'],
    ['PARTIALLY_REFUNDED', 'returned'],
    ['devolucao', 'returned'],
    ['Devolução', 'returned'],
  ])('%j → %s', (word, state) => {
    expect(itemStateFromWord(word)).toBe(state);
  });

  it.each(['', '   ', 'unknown', 'paid twice', '2', '99 Mystery', 'processed?!maybe', 'waitings', 'pay'])(
    '%j is unknown',
    (word) => {
      expect(itemStateFromWord(word)).toBeNull();
    },
  );

  it('never gives one key two states', () => {
    const seen = new Map<string, string>();
    for (const [state, words] of Object.entries(DEFAULT_STATUS_WORDS)) {
      for (const word of words) {
        const key = word.replaceAll('_', '');
        expect(seen.get(key) ?? state, word).toBe(state);
        seen.set(key, state);
      }
    }
  });

  it('writes every word of the table in normal form and reads it back to its own state', () => {
    for (const [state, words] of Object.entries(DEFAULT_STATUS_WORDS)) {
      for (const word of words) {
        expect(normaliseWord(word)).toBe(word);
        expect(itemStateFromWord(word)).toBe(state);
      }
    }
  });

  it('is frozen data', () => {
    expect(Object.isFrozen(DEFAULT_STATUS_WORDS)).toBe(true);
    expect(Object.isFrozen(DEFAULT_STATUS_WORDS.paid)).toBe(true);
  });
});

describe('itemStateFromWord, overrides', () => {
  const overrides: Record<string, ItemState> = {
    ACCEPTED: 'processing',
    'Em Análise': 'processing',
    'em-espera': 'processing',
    '7 - WeirdPaid': 'paid',
    canceled: 'returned',
  };

  it.each<[string, ItemState | null]>([
    ['accepted', 'processing'],
    ['em_analise', 'processing'],
    ['EM ANALISE', 'processing'],
    ['em espera', 'processing'],
    ['weird_paid', 'paid'],
    ['WeirdPaid', 'paid'],
    ['CANCELED', 'returned'],
    ['cancelled', 'failed'],
    ['paid', 'paid'],
    ['waiting', 'submitted'],
    ['nothing', null],
  ])('%j → %s', (word, state) => {
    expect(itemStateFromWord(word, overrides)).toBe(state);
  });

  it('treats an empty override table as none', () => {
    expect(itemStateFromWord('paid', {})).toBe('paid');
  });
});

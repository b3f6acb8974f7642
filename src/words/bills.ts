/**
 * The words of a refused boleto code and of what a valid one leaves unknown (domain/boleto-problem.ts), one table
 * per language. English is also the text of `--json` documents and of the sandbox's answers.
 */
import type { BoletoProblem, BoletoWarning } from '../domain/boleto-problem.js';
import type { Locale } from './locale.js';
import { localDay } from './local-time.js';

type ProblemWords = { readonly [C in BoletoProblem['code']]: (p: Extract<BoletoProblem, { code: C }>) => string };
type WarningWords = { readonly [C in BoletoWarning['code']]: (w: Extract<BoletoWarning, { code: C }>) => string };

export const BOLETO_PROBLEM_WORDS: Readonly<Record<Locale, ProblemWords>> = {
  en: {
    stray_character: (p) => `only digits, dots, spaces and dashes are allowed, got "${p.character}"`,
    wrong_length: (p) => `must be 44 (barcode), 47 (bank line) or 48 (collection line) digits, got ${p.length}`,
    short_collection_line: (p) => `a line starting with 8 is a collection line of 48 digits, got ${p.length}`,
    not_reais: (p) => `currency code is ${p.currency}, should be 9 (real); only slips in reais are accepted`,
    general_check_digit: (p) => `general check digit is ${p.actual}, should be ${p.expected}`,
    field_check_digit: (p) => `field ${p.field} check digit is ${p.actual}, should be ${p.expected}`,
    block_check_digit: (p) => `block ${p.block} check digit is ${p.actual}, should be ${p.expected}`,
    not_collection_product: (p) => `a collection slip starts with 8, got ${p.digit}`,
    unknown_segment: (p) => `segment ${p.segment} does not exist`,
    unknown_value_identifier: (p) => `value identifier ${p.valueId} does not exist (6 or 7: modulo 10; 8 or 9: modulo 11)`,
  },
  'pt-BR': {
    stray_character: (p) => `só são aceitos dígitos, pontos, espaços e hífens; veio "${p.character}"`,
    wrong_length: (p) => `deve ter 44 (código de barras), 47 (linha digitável de boleto bancário) ou 48 (linha de arrecadação) dígitos, tem ${p.length}`,
    short_collection_line: (p) => `uma linha que começa com 8 é de arrecadação e tem 48 dígitos, esta tem ${p.length}`,
    not_reais: (p) => `o código da moeda é ${p.currency}, deveria ser 9 (real); só são aceitos boletos em reais`,
    general_check_digit: (p) => `o dígito verificador geral é ${p.actual}, deveria ser ${p.expected}`,
    field_check_digit: (p) => `o dígito verificador do campo ${p.field} é ${p.actual}, deveria ser ${p.expected}`,
    block_check_digit: (p) => `o dígito verificador do bloco ${p.block} é ${p.actual}, deveria ser ${p.expected}`,
    not_collection_product: (p) => `um boleto de arrecadação começa com 8, este começa com ${p.digit}`,
    unknown_segment: (p) => `o segmento ${p.segment} não existe`,
    unknown_value_identifier: (p) => `o identificador de valor ${p.valueId} não existe (6 ou 7: módulo 10; 8 ou 9: módulo 11)`,
  },
};

export const BOLETO_WARNING_WORDS: Readonly<Record<Locale, WarningWords>> = {
  en: {
    due_date_unplaced: (w) =>
      `due-date factor ${w.factor} names no date between ${w.earliest} and ${w.latest} (3000 days before and 5500 days after ${w.today}); the due date is unknown`,
  },
  'pt-BR': {
    due_date_unplaced: (w) =>
      `o fator de vencimento ${w.factor} não indica nenhuma data entre ${localDay(w.earliest, 'pt-BR')} e ${localDay(w.latest, 'pt-BR')} ` +
      `(3000 dias antes e 5500 dias depois de ${localDay(w.today, 'pt-BR')}); o vencimento é desconhecido`,
  },
};

export function boletoProblemText(p: BoletoProblem, locale: Locale): string {
  return (BOLETO_PROBLEM_WORDS[locale][p.code] as (p: BoletoProblem) => string)(p);
}

/** Every problem of a refused code in one sentence ("field 1 check digit is 6, should be 7; field 2 …"). */
export function boletoProblemsText(problems: readonly BoletoProblem[], locale: Locale): string {
  return problems.map((p) => boletoProblemText(p, locale)).join('; ');
}

export function boletoWarningText(w: BoletoWarning, locale: Locale): string {
  return (BOLETO_WARNING_WORDS[locale][w.code] as (w: BoletoWarning) => string)(w);
}

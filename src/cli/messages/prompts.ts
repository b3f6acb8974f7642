import type { Locale } from '../../words/locale.js';

/** How a yes/no question is put and answered in each language. */
export interface PromptMessages {
  /** The hint after a question: the default in capitals. */
  choices(defaultYes: boolean): string;
  /** Answers that mean yes and no (lower case, compared without accents); an empty answer takes the default. */
  readonly yes: readonly string[];
  readonly no: readonly string[];
  readonly notAnAnswer: string;
  noTerminal(flag: string): string;
}

export const promptMessages: Readonly<Record<Locale, PromptMessages>> = {
  en: {
    choices: (d) => (d ? '(Y/n)' : '(y/N)'),
    yes: ['y', 'yes'],
    no: ['n', 'no'],
    notAnAnswer: 'Answer y (yes) or n (no).',
    noTerminal: (flag) => `This needs confirmation and there is no terminal to ask on; pass ${flag}.`,
  },
  'pt-BR': {
    choices: (d) => (d ? '(S/n)' : '(s/N)'),
    // y/yes too: people used to English prompts type them.
    yes: ['s', 'sim', 'y', 'yes'],
    no: ['n', 'nao', 'no'],
    notAnAnswer: 'Responda s (sim) ou n (não).',
    noTerminal: (flag) => `Isto precisa de confirmação e não há terminal para perguntar; passe ${flag}.`,
  },
};

/** A yes/no answer in `locale`: true, false, the default for an empty answer, or null for anything else. */
export function yesOrNo(answer: string, locale: Locale, defaultYes: boolean): boolean | null {
  const a = answer.trim().toLowerCase().normalize('NFD').replace(/\p{Diacritic}/gu, '');
  if (a === '') return defaultYes;
  const w = promptMessages[locale];
  if (w.yes.includes(a)) return true;
  if (w.no.includes(a)) return false;
  return null;
}

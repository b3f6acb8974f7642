import type { Locale } from './locale.js';

const RULES: Readonly<Record<Locale, Intl.PluralRules>> = { en: new Intl.PluralRules('en'), 'pt-BR': new Intl.PluralRules('pt-BR') };

/**
 * `n` and the form of a noun its number takes in `locale`, by CLDR's plural rules (Intl.PluralRules): "1 item",
 * "2 itens". `forms` holds the forms both languages use (one, other).
 */
export function counted(locale: Locale, n: number, forms: { readonly one: string; readonly other: string }): string {
  return `${n} ${pluralForm(locale, n, forms)}`;
}

/** The form a word agreeing with `n` takes ("escrita" or "escritas"), by the same rules. */
export function pluralForm(locale: Locale, n: number, forms: { readonly one: string; readonly other: string }): string {
  // CLDR's pt puts 0 with 1 (for 0,5 and 1,5 hora); a count of nothing is written in the plural in Brazil: 0 pagamentos.
  return RULES[locale].select(n) === 'one' && n !== 0 ? forms.one : forms.other;
}

/** The languages paybatch speaks to people in; `--json` stays English keys and ISO values whatever the locale. */
export type Locale = 'pt-BR' | 'en';

export const LOCALES: readonly Locale[] = ['pt-BR', 'en'];

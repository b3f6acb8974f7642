/** The languages paybatch speaks to people in; `--json` stays English keys and ISO values whatever the locale. */
export type Locale = 'pt-BR' | 'en';

export const LOCALES: readonly Locale[] = ['pt-BR', 'en'];

/**
 * The locale of human output, alerts, e-mails and receipts: the profile's `locale` setting, else the environment's
 * (LC_ALL, then LC_MESSAGES, then LANG). An environment that names no language (unset, C, POSIX — what cron and
 * systemd units usually give) means pt-BR: paybatch pays in Brazil, and a receipt's language must not flip with the
 * shell that happened to run the daemon.
 */
export function resolveLocale(setting: Locale | undefined, env: NodeJS.ProcessEnv): Locale {
  if (setting) return setting;
  const named = [env.LC_ALL, env.LC_MESSAGES, env.LANG].find((v) => v && v.trim() !== '');
  const language = named?.trim().split(/[_.@-]/)[0]?.toLowerCase() ?? '';
  if (language === '' || language === 'c' || language === 'posix' || language === 'pt') return 'pt-BR';
  return 'en';
}

/** Where a ledger lives, told from the text that names it (a file, or a PostgreSQL URL). */

/** A `postgres://` or `postgresql://` URL names a PostgreSQL ledger; anything else is an SQLite file. */
export const isPostgresUrl = (location: string) => /^postgres(ql)?:\/\//i.test(location);

/** The URL without its password, to show in messages and `--json`. */
export function shownUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    u.searchParams.delete('password');
    return u.toString();
  } catch {
    return 'postgres://(a URL that could not be read)';
  }
}

/** Any URL's password in a text replaced by `***`: errors from a driver or a library may quote the URL they were given. */
export const withoutPasswords = (text: string) => text.replace(/\b([a-z][a-z0-9+.-]*:\/\/[^:/?#\s@]+:)[^@\s/]+@/gi, '$1***@');

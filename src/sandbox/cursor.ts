import { invalidInput } from './api-error.js';

/**
 * Cursors of the list endpoints: an opaque base64url text naming the list (its scope) and the position after which
 * the next page starts. A cursor of another list (another batch, another account) is refused with 400.
 */
function encodeCursor(scope: string, afterSeq: number): string {
  return Buffer.from(`${scope}|${afterSeq}`).toString('base64url');
}

export function decodeCursor(cursor: string, scope: string): number {
  const match = /^(.*)\|(\d+)$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!match || match[1] !== scope) throw invalidInput([{ field: 'cursor', problem: 'is not a cursor of this list' }]);
  return Number(match[2]);
}

/** A page of `size` rows out of `size + 1` fetched; the cursor is null when there is no further row. */
export function pageOf<T extends { seq: number }>(rows: readonly T[], size: number, scope: string): { rows: T[]; cursor: string | null } {
  const page = rows.slice(0, size);
  const last = page.at(-1);
  return { rows: page, cursor: rows.length > size && last ? encodeCursor(scope, last.seq) : null };
}

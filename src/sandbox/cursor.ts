import { createHash } from 'node:crypto';
import { invalidInput } from './api-error.js';

/**
 * How a dialect writes the cursor of a list endpoint: an opaque text naming the list (its scope) and the position
 * after which the next page starts. `decode` answers null for a text that is not a cursor of that list.
 */
export interface CursorCodec {
  encode(scope: string, afterSeq: number): string;
  decode(cursor: string, scope: string): number | null;
}

/** base64url of "scope|position": nothing in it needs escaping in a path. */
export const URL_SAFE_CURSORS: CursorCodec = {
  encode: (scope, afterSeq) => Buffer.from(`${scope}|${afterSeq}`).toString('base64url'),
  decode: (cursor, scope) => {
    const match = /^(.*)\|(\d+)$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
    return match && match[1] === scope ? Number(match[2]) : null;
  },
};

/**
 * A binary record in standard base64: a marker (FB EF FF, which always encodes as "++//"), the position (uint32)
 * and a tag of the list (4 bytes of its SHA-256). 11 bytes, so the text always ends in one "=": a client must
 * percent-encode it in the path and must not read it as base64url.
 */
const MARKER = Buffer.from([0xfb, 0xef, 0xff]);
const listTag = (scope: string): Buffer => createHash('sha256').update(scope).digest().subarray(0, 4);

export const BASE64_CURSORS: CursorCodec = {
  encode: (scope, afterSeq) => {
    const position = Buffer.alloc(4);
    position.writeUInt32BE(afterSeq);
    return Buffer.concat([MARKER, position, listTag(scope)]).toString('base64');
  },
  decode: (cursor, scope) => {
    if (!/^[A-Za-z0-9+/]{15}=$/.test(cursor)) return null;
    const bytes = Buffer.from(cursor, 'base64');
    const fits = bytes.length === 11 && bytes.subarray(0, 3).equals(MARKER) && bytes.subarray(7).equals(listTag(scope));
    return fits ? bytes.readUInt32BE(3) : null;
  },
};

/** The position a cursor names; a cursor of another list (another batch, another account) is refused with 400. */
export function decodeCursor(cursor: string, scope: string, codec: CursorCodec): number {
  const afterSeq = codec.decode(cursor, scope);
  if (afterSeq === null) throw invalidInput([{ field: 'cursor', problem: 'is not a cursor of this list' }]);
  return afterSeq;
}

/** A page of `size` rows out of `size + 1` fetched; the cursor is null when there is no further row. */
export function pageOf<T extends { seq: number }>(rows: readonly T[], size: number, scope: string, codec: CursorCodec): { rows: T[]; cursor: string | null } {
  const page = rows.slice(0, size);
  const last = page.at(-1);
  return { rows: page, cursor: rows.length > size && last ? codec.encode(scope, last.seq) : null };
}

/** Test helpers: a sheet's bytes in the encodings people export. */
export const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);
export const utf8Bom = (text: string): Uint8Array => new TextEncoder().encode('\uFEFF' + text);
/** Windows-1252 bytes of Latin-1 text (the two agree outside 0x80–0x9F). */
export const cp1252 = (text: string): Uint8Array => new Uint8Array(Buffer.from(text, 'latin1'));
/** Lines joined with CRLF and ended with one, as Excel on Windows writes them. */
export const crlf = (...lines: string[]): string => lines.join('\r\n') + '\r\n';
export const lf = (...lines: string[]): string => lines.join('\n') + '\n';

/** ANSI styling that collapses to plain text when colour is off. */
export interface Style {
  bold(s: string): string;
  dim(s: string): string;
  red(s: string): string;
  green(s: string): string;
  yellow(s: string): string;
  cyan(s: string): string;
}

const wrap = (open: number, close: number) => (s: string) => `\u001b[${open}m${s}\u001b[${close}m`;
const identity = (s: string) => s;

export function makeStyle(color: boolean): Style {
  if (!color) return { bold: identity, dim: identity, red: identity, green: identity, yellow: identity, cyan: identity };
  return { bold: wrap(1, 22), dim: wrap(2, 22), red: wrap(31, 39), green: wrap(32, 39), yellow: wrap(33, 39), cyan: wrap(36, 39) };
}

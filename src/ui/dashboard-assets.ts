import { readdirSync, readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import type { Locale } from '../words/locale.js';
import { PACKAGE_ROOT } from '../package-root.js';

export interface Asset {
  readonly type: string;
  readonly body: Buffer;
}

/**
 * The page and its files (src/ui/assets/, shipped as they are: plain HTML, CSS and ES modules, no build), read once
 * at start. A request names a file of this list, never a path on disk.
 */
export const ASSETS_DIR = join(PACKAGE_ROOT, 'src', 'ui', 'assets');

const TYPES: Readonly<Record<string, string>> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
};

export function dashboardAssets() {
  const files = new Map<string, Asset>();
  for (const name of readdirSync(ASSETS_DIR)) {
    const type = TYPES[extname(name)];
    if (type) files.set(name, { type, body: readFileSync(join(ASSETS_DIR, name)) });
  }
  const page = readFileSync(join(ASSETS_DIR, 'index.html'), 'utf8');
  return {
    file: (name: string) => files.get(name),
    /** The page for one session: its language and its CSRF token (base64url: nothing to escape). */
    page: (locale: Locale, csrf: string) => page.replace('{{lang}}', locale).replace('{{csrf}}', csrf),
  };
}

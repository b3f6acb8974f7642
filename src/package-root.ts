import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * paybatch's own folder (package.json, migrations/, fixtures/), found upwards from this module: the same whether it
 * runs from src/ (tests), compiled (dist/) or bundled (dist/bundle/, where module depths differ).
 */
export const PACKAGE_ROOT = findPackageRoot(dirname(fileURLToPath(import.meta.url)));

function findPackageRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) throw new Error(`paybatch's package.json was not found above ${from}`);
  }
}

import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The layers of docs/architecture.md, checked on the import graph of src/ (type imports included): each folder may
 * import only the folders listed for it, only src/ledger/ (and the sandbox's own state) speaks SQL, and there is no
 * circle of imports.
 */
const SRC = fileURLToPath(new URL('../src/', import.meta.url));

const MAY_IMPORT: Record<string, readonly string[]> = {
  domain: [],
  words: ['domain'],
  sheet: ['domain'],
  ledger: ['domain'],
  network: ['domain'],
  provider: ['domain', 'network'],
  config: ['domain', 'words'],
  alerts: ['domain', 'words', 'network'],
  receipts: ['domain', 'words'],
  reports: ['domain', 'words', 'config', 'sheet', 'receipts'],
  engine: ['domain', 'sheet', 'ledger', 'network', 'provider', 'config', 'alerts', 'receipts', 'reports'],
  daemon: ['domain', 'words', 'engine', 'ledger', 'network', 'provider', 'config', 'alerts'],
  sandbox: ['domain', 'words'],
  ui: ['domain', 'words', 'engine'],
  cli: ['domain', 'words', 'sheet', 'ledger', 'network', 'provider', 'config', 'alerts', 'receipts', 'reports', 'engine', 'daemon', 'sandbox', 'ui'],
};
/** Files at the top of src/ shared by every layer (typed errors, private file creation, the package's folder). */
const SHARED = new Set(['errors.ts', 'private-files.ts', 'package-root.ts']);

/**
 * The engine's features, each a folder whose index.ts is its door, in the one order they may use each other: a
 * feature uses only those before it (approvals gate batches and bills; the follow-up uses batches, bills and alerts;
 * importing a sheet sends batches and retries from what the follow-up read).
 */
const FEATURE_ORDER = ['approvals', 'batches', 'bills', 'webhooks', 'alerts', 'follow-up', 'pix-import', 'reports', 'dashboard', 'provider-check', 'ledger-admin'];
const featureOf = (rel: string): string | null => (rel.startsWith('engine/') && rel.split('/').length === 3 ? rel.split('/')[1]! : null);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sourceFiles(path) : path.endsWith('.ts') ? [path] : [];
  });
}

const files = sourceFiles(SRC);
const imports = new Map(
  files.map((file) => {
    const text = readFileSync(file, 'utf8');
    const specs = [...text.matchAll(/(?:^|\n)\s*(?:import|export)[^'"]*?from\s+'([^']+)'|import\(\s*'([^']+)'\s*\)/g)].map((m) => m[1] ?? m[2]!);
    const local = specs.filter((s) => s.startsWith('.')).map((s) => resolve(dirname(file), s.replace(/\.js$/, '.ts')));
    return [file, { text, specs, local }];
  }),
);
const layerOf = (file: string) => {
  const rel = relative(SRC, file);
  return rel.includes('/') ? rel.split('/')[0]! : null;
};

describe('the layers of src/', () => {
  it('every import goes down a floor (or stays in its folder)', () => {
    const wrong: string[] = [];
    for (const [file, { local }] of imports) {
      const from = layerOf(file);
      if (from === null) continue;
      for (const target of local) {
        const to = layerOf(target);
        if (to === null ? SHARED.has(relative(SRC, target)) : to === from || MAY_IMPORT[from]!.includes(to)) continue;
        wrong.push(`${relative(SRC, file)} → ${relative(SRC, target)}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('no file outside src/ledger/ and src/sandbox/ speaks SQL or imports a database driver', () => {
    const sql = /from 'kysely'|from 'better-sqlite3'|from 'pg'|\.selectFrom\(|\.updateTable\(|\.insertInto\(|\.deleteFrom\(|\.prepare\(/;
    const offenders = [...imports]
      .filter(([file, { text }]) => !['ledger', 'sandbox'].includes(layerOf(file) ?? '') && sql.test(text))
      .map(([file]) => relative(SRC, file));
    expect(offenders).toEqual([]);
  });

  it('commands, and what they load at start (context.ts, daemon-deps.ts, main.ts), reach the ledger only through feature doors of the engine', () => {
    const edge = (rel: string) => rel.startsWith('cli/commands/') || ['cli/context.ts', 'cli/daemon-deps.ts', 'cli/main.ts'].includes(rel);
    const reaching = [...imports].flatMap(([file, { local }]) => {
      const from = relative(SRC, file);
      if (!edge(from)) return [];
      return local.filter((target) => layerOf(target) === 'ledger').map((target) => `${from} → ${relative(SRC, target)}`);
    });
    expect(reaching).toEqual([]);
  });

  it('the engine is grouped by feature: the rest of paybatch enters a feature only by its door, and features use each other in one order', () => {
    const wrong: string[] = [];
    for (const [file, { local }] of imports) {
      const from = relative(SRC, file);
      for (const target of local) {
        const to = relative(SRC, target);
        const feature = featureOf(to);
        if (feature === null || featureOf(from) === feature) continue;
        if (!to.endsWith('/index.ts')) wrong.push(`${from} → ${to}: not through the door engine/${feature}/index.ts`);
        // Shared engine files (at its root) serve every feature and import none.
        if (from.startsWith('engine/') && featureOf(from) === null) wrong.push(`${from} → ${to}: a shared engine file uses a feature`);
        const above = featureOf(from);
        if (above !== null && FEATURE_ORDER.indexOf(above) <= FEATURE_ORDER.indexOf(feature)) wrong.push(`${from} → ${to}: ${above} may use only features before it`);
      }
    }
    const folders = readdirSync(join(SRC, 'engine')).filter((n) => statSync(join(SRC, 'engine', n)).isDirectory());
    expect(folders.sort()).toEqual([...FEATURE_ORDER].sort());
    expect(wrong).toEqual([]);
  });

  it('below the edge nothing knows a locale: domain, sheet, engine, provider, ledger and network return codes and data', () => {
    const CORE = ['domain', 'sheet', 'engine', 'provider', 'ledger', 'network'];
    const worded = [...imports]
      .filter(([file]) => CORE.includes(layerOf(file) ?? ''))
      .filter(([, { text }]) => /\blocale\b|\bLocale\b|resolveLocale/.test(text))
      .map(([file]) => relative(SRC, file));
    expect(worded).toEqual([]);
  });

  it('has no circle of imports', () => {
    const cycles: string[] = [];
    const state = new Map<string, 'visiting' | 'done'>();
    const visit = (file: string, path: string[]) => {
      if (state.get(file) === 'done') return;
      if (state.get(file) === 'visiting') {
        cycles.push([...path.slice(path.indexOf(file)), file].map((f) => relative(SRC, f)).join(' → '));
        return;
      }
      state.set(file, 'visiting');
      for (const next of imports.get(file)?.local ?? []) visit(next, [...path, file]);
      state.set(file, 'done');
    };
    for (const file of files) visit(file, []);
    expect(cycles).toEqual([]);
  });
});

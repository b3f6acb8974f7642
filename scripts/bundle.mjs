// Bundles the compiled CLI (dist/cli/main.js) into dist/bundle/ in two passes. esbuild turns hundreds of files and
// their packages (CommonJS included) into ES modules split at every lazy import; rollup then cuts those into chunks
// by what is loaded together: everything a start needs in main.cjs, one file, and each command's lazy part beside it.
// esbuild alone left a start 15 files to resolve and link, each a cost (see `npm run bench`). The chunks are written
// as CommonJS, which bin/bundle-loader.js loads with V8 code caches made after a run (ES modules give no hold on
// those, and starting Node's ES module loader cost a tenth of a short command).
// pdfkit stays outside (it reads its font files next to its own code), and so does better-sqlite3's native addon.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join } from 'node:path';
import { build } from 'esbuild';
import { rollup } from 'rollup';

// commander requires node:child_process (and with it dgram and the socket list) only to run stand-alone executable
// subcommands, which paybatch has none of: in the bundle it is required on first use, not at every start.
const EAGER_CHILD_PROCESS = "const childProcess = require('node:child_process');";
const commanderLazyChildProcess = {
  name: 'commander-lazy-child-process',
  setup(b) {
    b.onLoad({ filter: /[\\/]commander[\\/]lib[\\/]command\.js$/ }, (args) => {
      const source = readFileSync(args.path, 'utf8');
      if (!source.includes(EAGER_CHILD_PROCESS)) throw new Error(`${args.path} no longer has the line this patch makes lazy; update scripts/bundle.mjs`);
      const lazy = "const childProcess = { spawn: (...args) => require('node:child_process').spawn(...args) };";
      return { contents: source.replace(EAGER_CHILD_PROCESS, lazy), loader: 'js' };
    });
  },
};

// better-sqlite3's dozen CommonJS files cost each ledger-reading start 3 to 4 ms to resolve and load one by one: they
// go into the bundle. Only its native addon stays a file, which lib/binding.js finds beside its own folder: that
// folder is asked of Node (the package's entry, resolved from the bundle) instead of __dirname, absent from ES modules.
const BINDING_FOLDER = '__dirname';
const betterSqliteInBundle = {
  name: 'better-sqlite3-in-bundle',
  setup(b) {
    b.onLoad({ filter: /[\\/]better-sqlite3[\\/]lib[\\/]binding\.js$/ }, (args) => {
      const source = readFileSync(args.path, 'utf8');
      const uses = source.split(BINDING_FOLDER).length - 1;
      if (uses !== 3) throw new Error(`${args.path} names ${BINDING_FOLDER} ${uses} times, not 3; update scripts/bundle.mjs`);
      const folder = "path.dirname(require.resolve('better-sqlite3'))";
      return { contents: source.replaceAll(BINDING_FOLDER, folder), loader: 'js' };
    });
  },
};

// Node's own modules are taken with process.getBuiltinModule instead of imported: importing one as an ES module
// reads every export, and node:fs's lazy `promises` then loads fs/promises, readline and the streams at every start.
// Each becomes a module exporting the module object and its plain values by name, read once; an accessor (fs.promises,
// process.stdout) only where some code imports it by that name (`importedNames`), since reading one does its work.
// (Rollup's synthetic named exports built a namespace object for each instead: 4 ms for fs, path and os per start.)
// A module a bare start of Node has not loaded (crypto, fs/promises, timers/promises, net…) is not even taken until
// one of the functions imported from it by name is called, when each is a plain function or a class without static
// members (`lazyExport`): `batch list` paid for loading crypto (and fs/promises its readline and streams) for a
// ledger file name it never makes. Its named imports go to a shim of stand-ins; its module object (a package's
// `import crypto from "crypto"`) stays with the shim above, in the chunks that import it.
const BUILTIN = '\0builtin:';
const LAZY = 'paybatch-lazy-builtin:';
const builtinsByGetter = (texts, loadedAtStart) => {
  const named = namesImportedFromBuiltins(texts);
  const deferred = new Set(
    [...named].filter(([name, keys]) => !loadedAtStart.has(name) && [...keys].every((key) => lazyExport(process.getBuiltinModule(name)[key], key, texts))).map(([name]) => name),
  );
  return {
    name: 'builtins-by-getter',
    resolveId(id) {
      if (id.startsWith(LAZY)) return `\0${id}`;
      return id.startsWith('node:') || builtinModules.includes(id) ? `${BUILTIN}${builtinId(id)}` : null;
    },
    load(id) {
      const take = (name) => `process.getBuiltinModule(${JSON.stringify(name)})`;
      if (id.startsWith(`\0${LAZY}`)) {
        const name = id.slice(LAZY.length + 1);
        const keys = [...named.get(name)];
        // Named apart from the export, so no chunk's own use of a global (setTimeout) could meet a stand-in.
        const standIns = keys.map((key) => `function lazy_${key}(...a) { return new.target ? new (m()).${key}(...a) : m().${key}(...a); }`);
        const exports = keys.map((key) => `lazy_${key} as ${key}`);
        return `let taken;\nconst m = () => (taken ??= ${take(name)});\n${standIns.join('\n')}\nexport { ${exports.join(', ')} };\n`;
      }
      if (!id.startsWith(BUILTIN)) return null;
      const name = id.slice(BUILTIN.length);
      const wanted = named.get(name) ?? new Set();
      const exported = Object.entries(Object.getOwnPropertyDescriptors(process.getBuiltinModule(name)))
        .filter(([key, d]) => key !== 'default' && /^[A-Za-z_$][\w$]*$/.test(key) && ('value' in d || wanted.has(key)))
        .map(([key]) => key);
      return `const m = ${take(name)};\nexport default m;\nexport const { ${exported.join(', ')} } = m;\n`;
    },
    // `import * as tls from "node:tls"` takes the module object itself, whose accessors (tls.rootCertificates) work
    // when read; a namespace of the exports above would lack them.
    transform(code) {
      return code
        .replace(/import \* as ([\w$]+) from "((?:node:)?[\w/]+)";/g, (line, local, from) =>
          builtinModules.includes(from.replace(/^node:/, '')) ? `import ${local} from "${from}";` : line,
        )
        .replace(/(import\s*\{[^}]*\}\s*from\s*")((?:node:)?[\w/]+)"/g, (line, head, from) =>
          deferred.has(builtinId(from)) ? `${head}${LAZY}${builtinId(from)}"` : line,
        );
    },
  };
};

/**
 * A function a shim may stand in for until its module is taken: called or constructed through the stand-in, it does
 * the same. Not a class with static members (Readable.from), which the stand-in lacks, nor one some code tests with
 * `instanceof`, which a stand-in would always fail.
 */
const lazyExport = (value, key, texts) =>
  typeof value === 'function' &&
  Object.getOwnPropertyNames(value).every((own) => ['length', 'name', 'prototype'].includes(own)) &&
  !texts.some((text) => new RegExp(`instanceof\\s+${key}\\b`).test(text));

/** Node's own modules a bare `node -e ''` of the Node running the build has loaded: nothing saved by deferring them. */
function modulesLoadedAtStart() {
  const list = JSON.parse(execFileSync(process.execPath, ['-p', 'JSON.stringify(process.moduleLoadList)'], { encoding: 'utf8' }));
  return new Set(list.filter((m) => m.startsWith('NativeModule ')).map((m) => `node:${m.slice('NativeModule '.length)}`));
}

// Source text with a single character beyond ASCII is read by V8 as two bytes a character, the whole file: main.js
// held one (a minus sign in a regular expression) and its decoding alone cost 0.7 ms of each start. Each such
// character is written as its \u escape, which means the same in strings, templates, regular expressions,
// identifiers and comments; after a backslash it would not, so that fails the build.
const asciiOnly = {
  name: 'ascii-only',
  renderChunk(code, chunk) {
    if (/\\[^\x00-\x7f]/.test(code)) throw new Error(`${chunk.fileName}: a backslash before a character beyond ASCII; escaping it would change its meaning`);
    return { code: code.replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`), map: null };
  },
};

// bin/bundle-loader.js runs the chunks as scripts, which have no import() of their own: packages are required.
const requiredPackages = {
  name: 'required-packages',
  renderChunk(_code, chunk) {
    const imported = chunk.dynamicImports.filter((id) => !id.endsWith('.cjs'));
    if (imported.length) throw new Error(`${chunk.fileName} imports ${imported.join(', ')} with import(); require it (createRequire) instead`);
    return null;
  },
};

/** `node:x` for a Node module named `x` or `node:x`. */
const builtinId = (from) => `node:${from.replace(/^node:/, '')}`;

/** The names each of Node's modules is imported by (`import { a, b as c } from "node:x"`) in esbuild's output. */
function namesImportedFromBuiltins(texts) {
  const names = new Map();
  for (const text of texts) {
    for (const [, list, from] of text.matchAll(/import\s*\{([^}]*)\}\s*from\s*"((?:node:)?[\w/]+)"/g)) {
      const id = builtinId(from);
      if (!names.has(id)) names.set(id, new Set());
      for (const part of list.split(',')) if (part.trim()) names.get(id).add(part.trim().split(/\s+as\s+/)[0]);
    }
  }
  return names;
}

// A chunk smaller than this joins one loaded with it: each file a start loads costs it a resolution and a link
// (`batch list` loaded dozens of a few hundred bytes), more than compiling a few KB it may not run. Measured with
// valgrind's instruction counts: 8 KB took a tenth off `batch list` and left `--version` as it was; 32 and 64 KB
// did no better.
const MIN_CHUNK_BYTES = 8_000;

// Built beside the current bundle, then swapped in: a CLI already running (a test, a daemon) still finds the lazy
// chunks of its own build, which are removed only once they are old. A fresh folder leaves no stale chunk behind.
const stage = `dist/bundle.stage-${process.pid}`;
const next = `dist/bundle.next-${process.pid}`;
const { outputFiles } = await build({
  entryPoints: ['dist/cli/main.js'],
  outdir: stage,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node22',
  external: ['pdfkit'],
  plugins: [commanderLazyChildProcess, betterSqliteInBundle],
  logLevel: 'warning',
  write: false,
});
// CommonJS packages inside an ES module bundle still call require() for Node's own modules: the modules that do get
// a require of their own. Only those: each createRequire costs every start that loads it, and most have none.
const REQUIRE = "import { createRequire as __paybatchRequire } from 'node:module'; const require = __paybatchRequire(import.meta.url);\n";
for (const file of outputFiles) {
  mkdirSync(dirname(file.path), { recursive: true });
  writeFileSync(file.path, /(?<![\w$])require(?![\w$])/.test(file.text) ? REQUIRE + file.text : file.text);
}
try {
  // esbuild has already shaken the tree; rollup only regroups the modules.
  const regrouped = await rollup({
    input: join(stage, 'main.js'),
    treeshake: false,
    preserveEntrySignatures: 'allow-extension',
    external: ['pdfkit'],
    plugins: [builtinsByGetter(outputFiles.map((file) => file.text), modulesLoadedAtStart())],
    // The merging of small chunks reports its counts as info: not news at every build.
    onLog: (level, log, handler) => {
      if (log.code !== 'OPTIMIZE_CHUNK_STATUS') handler(level, log);
    },
    onwarn: (warning, warn) => {
      // esbuild's output has the cycles its packages have, and one package's eval (exceljs): both known and harmless.
      if (warning.code === 'MISSING_EXPORT') throw new Error(warning.message);
      if (warning.code !== 'CIRCULAR_DEPENDENCY' && warning.code !== 'EVAL') warn(warning);
    },
  });
  await regrouped.write({ dir: next, format: 'cjs', entryFileNames: '[name].cjs', chunkFileNames: 'chunk-[hash].cjs', plugins: [requiredPackages, asciiOnly], experimentalMinChunkSize: MIN_CHUNK_BYTES });
  await regrouped.close();
} finally {
  rmSync(stage, { recursive: true, force: true });
}
try {
  renameSync('dist/bundle', `dist/bundle.old-${process.pid}`);
} catch (e) {
  if (e.code !== 'ENOENT') throw e;
}
renameSync(next, 'dist/bundle');
const staleBefore = Date.now() - 15 * 60_000;
for (const entry of readdirSync('dist')) {
  if (entry.startsWith('bundle.old-') && statSync(`dist/${entry}`).mtimeMs < staleBefore) rmSync(`dist/${entry}`, { recursive: true, force: true });
}

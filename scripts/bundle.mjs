// Bundles the compiled CLI (dist/cli/main.js) into dist/bundle/: one module graph instead of hundreds of files
// halves the start-up of every command (see `npm run bench`). Heavy parts loaded lazily stay separate chunks.
// Native and data-carrying packages stay outside: better-sqlite3 (a native addon) and pdfkit (reads its font files
// next to its own code).
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { build } from 'esbuild';

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

// Built beside the current bundle, then swapped in: a CLI already running (a test, a daemon) still finds the lazy
// chunks of its own build, which are removed only once they are old. A fresh folder leaves no stale chunk behind.
const next = `dist/bundle.next-${process.pid}`;
const { outputFiles } = await build({
  entryPoints: ['dist/cli/main.js'],
  outdir: next,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node22',
  external: ['better-sqlite3', 'pdfkit'],
  plugins: [commanderLazyChildProcess],
  logLevel: 'warning',
  write: false,
});
// CommonJS packages inside an ES module bundle still call require() for Node's own modules: the chunks that do get
// a require of their own. Only those: each createRequire costs every start that loads its chunk, and most have none.
const REQUIRE = "import { createRequire as __paybatchRequire } from 'node:module'; const require = __paybatchRequire(import.meta.url);\n";
for (const file of outputFiles) {
  mkdirSync(dirname(file.path), { recursive: true });
  writeFileSync(file.path, /(?<![\w$])require(?![\w$])/.test(file.text) ? REQUIRE + file.text : file.text);
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

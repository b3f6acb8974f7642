// Bundles the compiled CLI (dist/cli/main.js) into dist/bundle/: one module graph instead of hundreds of files
// halves the start-up of every command (see `npm run bench`). Heavy parts loaded lazily stay separate chunks.
// Native and data-carrying packages stay outside: better-sqlite3 (a native addon) and pdfkit (reads its font files
// next to its own code).
import { rmSync } from 'node:fs';
import { build } from 'esbuild';

// Chunk names carry content hashes: a fresh folder leaves no chunk of an earlier build behind.
rmSync('dist/bundle', { recursive: true, force: true });

await build({
  entryPoints: ['dist/cli/main.js'],
  outdir: 'dist/bundle',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  external: ['better-sqlite3', 'pdfkit'],
  // CommonJS packages inside an ES module bundle still call require() for Node's own modules.
  banner: { js: "import { createRequire as __paybatchRequire } from 'node:module'; const require = __paybatchRequire(import.meta.url);" },
  logLevel: 'warning',
});

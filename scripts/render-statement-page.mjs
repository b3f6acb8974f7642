// Renders page 1 of a period statement's PDF to a PNG for the docs (not run in CI). Needs `pdftoppm` (Debian's
// poppler-utils: apt-get install -y poppler-utils).
//
//   node scripts/render-statement-page.mjs statement.pdf [docs/statement-page-1.png]
//       page 1 of a statement written by `paybatch report --month … --format pdf`;
//   node scripts/render-statement-page.mjs --fixture [docs/statement-page-1.png]
//       page 1 of the hand-built statement of the tests (test/reports/statement-fixture.ts), in Portuguese.
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const [source, out = 'docs/statement-page-1.png'] = process.argv.slice(2);
if (!source) {
  console.error('usage: node scripts/render-statement-page.mjs <statement.pdf | --fixture> [out.png]');
  process.exit(2);
}

const work = mkdtempSync(join(tmpdir(), 'statement-page-'));
try {
  let pdf = resolve(source);
  if (source === '--fixture') {
    // The renderer and the fixture are TypeScript: bundled to one module (pdfkit and exceljs stay packages), then run.
    const entry = join(work, 'entry.ts');
    writeFileSync(entry, [
      `import { statementRenderer } from ${JSON.stringify(resolve('src/reports/statement-renderer.ts'))};`,
      `import { NOVEMBER } from ${JSON.stringify(resolve('test/reports/statement-fixture.ts'))};`,
      "export const render = () => statementRenderer('pdf', 'pt-BR').render(NOVEMBER);",
    ].join('\n'));
    const bundle = join(process.cwd(), `.statement-page-${process.pid}.mjs`);
    await build({ entryPoints: [entry], outfile: bundle, bundle: true, format: 'esm', platform: 'node', packages: 'external', logLevel: 'warning' });
    try {
      const { render } = await import(pathToFileURL(bundle).href);
      pdf = join(work, 'statement.pdf');
      writeFileSync(pdf, await render());
    } finally {
      rmSync(bundle, { force: true });
    }
  }
  // 110 dpi: an A4 landscape page about 1280 pixels wide, legible on a README without zooming.
  execFileSync('pdftoppm', ['-png', '-r', '110', '-f', '1', '-l', '1', '-singlefile', pdf, join(work, 'page')], { stdio: 'inherit' });
  copyFileSync(join(work, 'page.png'), resolve(out));
  console.log(`wrote ${out}`);
} finally {
  rmSync(work, { recursive: true, force: true });
}

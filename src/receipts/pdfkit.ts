import Module, { createRequire } from 'node:module';

type PdfKit = typeof import('pdfkit');

/**
 * pdfkit, loaded on first use, without fontkit. pdfkit loads fontkit (font-file parsing, whose Unicode tables are
 * inflated at load) for fonts embedded from files; receipts use only the standard PDF fonts, so a stand-in that
 * refuses takes its place in the module cache: ~110 ms less CPU for every command that writes a receipt.
 */
export function loadPdfKit(): PdfKit {
  const require = createRequire(import.meta.url);
  const fontkitPath = createRequire(require.resolve('pdfkit')).resolve('fontkit');
  if (!require.cache[fontkitPath]) {
    const standIn = new Module(fontkitPath);
    standIn.filename = fontkitPath;
    standIn.loaded = true;
    standIn.exports = {
      create() {
        throw new Error('receipts use the standard PDF fonts only; fontkit is not loaded');
      },
    };
    require.cache[fontkitPath] = standIn;
    // pdfkit is outside the bundle: Node's own compile cache (off under NODE_DISABLE_COMPILE_CACHE=1) takes loading it
    // from 60 to 43 ms here. Turned on at the first load, not at every start.
    Module.enableCompileCache?.();
  }
  // Required, not imported: the bundle is CommonJS files run by bin/bundle-loader.js, which gives them no import().
  return require('pdfkit') as PdfKit;
}

import { inflateSync } from 'node:zlib';

/**
 * The text drawn in a pdfkit PDF with a standard font, good enough for tests: inflates every content stream and
 * decodes the hex strings of its TJ operators, one line per TJ.
 */
export function pdfText(pdf: Buffer): string {
  const lines: string[] = [];
  for (const content of pdfContentStreams(pdf)) {
    for (const tj of content.matchAll(/\[([^\]]*)\]\s*TJ/g)) {
      const hex = [...(tj[1] ?? '').matchAll(/<([0-9a-fA-F]*)>/g)].map((h) => h[1]).join('');
      lines.push(Buffer.from(hex, 'hex').toString('latin1'));
    }
  }
  return lines.join('\n');
}

/** Each content stream of a pdfkit PDF, inflated (latin1); streams that are not deflated content are skipped. */
export function* pdfContentStreams(pdf: Buffer): Generator<string> {
  const raw = pdf.toString('latin1');
  // The stream's bytes are taken by its /Length: compressed bytes may end in "\r", which a pattern up to
  // "endstream" would take for the line break and cut off.
  for (const match of raw.matchAll(/\/Length (\d+)[^>]*>>\s*stream\r?\n/g)) {
    const start = (match.index ?? 0) + match[0].length;
    try {
      yield inflateSync(pdf.subarray(start, start + Number(match[1]))).toString('latin1');
    } catch {
      continue;
    }
  }
}

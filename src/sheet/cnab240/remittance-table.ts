import { createHash } from 'node:crypto';
import { formatReais } from '../../domain/money.js';
import type { TableStreamer } from '../table.js';
import type { Remittance, RemittanceTitle } from './read-remittance.js';

/** The payment sheet's columns a remittance's Pix titles fill (read by the sheet's header mapping, headers.ts). */
const HEADER = ['key', 'key_type', 'amount', 'description', 'identifier', 'name', 'document'];

/**
 * A remittance's Pix-by-key titles as a payment sheet's table, streamed like any sheet (so an import validates,
 * looks up, stages and records them as it does a CSV's rows): one record per title on its segment A's line, the
 * amount written exactly from its centavos, "seu número" as the description, the identifier `identifierOf` gives.
 * The bytes from `open()` are only hashed: they are the remittance's identity, as a sheet's.
 */
export function remittanceTable(remittance: Remittance, titles: readonly RemittanceTitle[], identifierOf: (t: RemittanceTitle) => string): TableStreamer {
  return async (open, sinkFor) => {
    const hash = createHash('sha256');
    for await (const chunk of open()) hash.update(chunk);
    const format = { kind: 'cnab240', layout: remittance.layout.id } as const;
    const sink = sinkFor();
    sink.header(HEADER, 1, format, 'pt');
    for (const t of titles) {
      if (t.pixKey === null) continue;
      sink.record({
        line: t.line,
        cells: [t.pixKey.key, t.pixKey.type, formatReais(t.amountCents), t.yourNumber, identifierOf(t), t.payeeName, t.payeeDocument?.value ?? ''],
        misaligned: null,
      });
    }
    return { sha256: hash.digest('hex'), headerLine: 1, format, language: 'pt', problems: [] };
  };
}

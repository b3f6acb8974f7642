import type { DestinationType } from '../domain/account-destination.js';
import { formatBRL, formatReais } from '../domain/money.js';
import { csvLine, UTF8_BOM } from './csv-text.js';
import { SHEET_FIELDS, templateHeader } from './headers.js';

/** A payment written back as a sheet row: what a person fixes by hand and imports again. Amount in centavos. */
export interface PaymentSheetRow {
  readonly key: string;
  readonly keyType: DestinationType;
  readonly amountCents: number;
  readonly description: string;
  readonly name: string | null;
  readonly document: string | null;
  /** Why it was not paid, in a last column the import ignores. */
  readonly reason: string | null;
}

// An account's row ("conta") is not a key the import reads: the person gives the payee's key before importing it.
const KEY_TYPE_WORDS: Record<'pt' | 'en', Record<DestinationType, string>> = {
  pt: { cpf: 'cpf', cnpj: 'cnpj', phone: 'celular', email: 'email', evp: 'aleatoria', account: 'conta' },
  en: { cpf: 'cpf', cnpj: 'cnpj', phone: 'phone', email: 'email', evp: 'random', account: 'account' },
};

/**
 * Payments as a sheet in the import's own columns (the template's headers, delimiter and amounts of `lang`), plus a
 * reason column. The identifier column stays empty: the fixed sheet is a new import, whose rows get identifiers of
 * their own (an old one would only bring back the old payment). Cells are written by `csvCell`, so a name typed as
 * `=HYPERLINK(…)` opens as text. UTF-8 BOM and CRLF, as every CSV paybatch writes.
 */
export function paymentSheetCsv(rows: readonly PaymentSheetRow[], lang: 'pt' | 'en'): string {
  const delimiter = lang === 'pt' ? ';' : ',';
  const amount = (cents: number) => (lang === 'pt' ? formatBRL(cents).replace('R$ ', '') : formatReais(cents));
  const lines = [csvLine([...SHEET_FIELDS.map((f) => templateHeader(f, lang)), lang === 'pt' ? 'motivo' : 'reason'], delimiter)];
  for (const r of rows) {
    const cells: Record<(typeof SHEET_FIELDS)[number], string> = {
      key: r.key,
      keyType: KEY_TYPE_WORDS[lang][r.keyType],
      amount: amount(r.amountCents),
      description: r.description,
      identifier: '',
      name: r.name ?? '',
      document: r.document ?? '',
    };
    lines.push(csvLine([...SHEET_FIELDS.map((f) => cells[f]), r.reason ?? ''], delimiter));
  }
  return UTF8_BOM + lines.join('\r\n') + '\r\n';
}

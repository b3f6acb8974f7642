import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { accountReference, ACCOUNT_TYPE_CELLS, type AccountType } from '../../domain/account-destination.js';
import { titleIdentifier } from '../../domain/identifier.js';
import { formatReais } from '../../domain/money.js';
import type { SheetProblem } from '../../domain/sheet-reason.js';
import { decodeText } from '../decode-text.js';
import type { Cnab240Format, TableProblem, TableStreamer } from '../table.js';
import { readRemittance, type Remittance, type RemittanceReading, type RemittanceTitle } from './read-remittance.js';

/** The payment sheet's columns a remittance's Pix titles fill (read by the sheet's header mapping, headers.ts). */
const HEADER = ['key', 'key_type', 'amount', 'description', 'identifier', 'name', 'document'];

export interface RemittanceTableOptions {
  /** The layout the profile pins (`cnabLayout`); otherwise the file's bank chooses. */
  readonly pinned?: string;
  /** Today in São Paulo (YYYY-MM-DD): a Pix title due before it is refused. */
  readonly today?: string;
  /** Each title's identifier; by default its first attempt's (`titleIdentifier`). An import decides it with the ledger. */
  readonly identifierOf?: (title: RemittanceTitle, remittance: Remittance) => string;
  /** The remittance as an import already read it from these bytes: its rows are given again, not read again. */
  readonly remittance?: Remittance;
  /** The provider takes a Pix by account data (`pixByAccount`): a payment to an account is a row, not a refusal. */
  readonly accountsAccepted?: boolean;
}

/** The key-type cell of an account's row, by the account's kind (ACCOUNT_TYPE_CELLS read back). */
const ACCOUNT_CELLS = Object.fromEntries(Object.entries(ACCOUNT_TYPE_CELLS).map(([cell, type]) => [type, cell])) as Record<AccountType, string>;

/** A remittance's text from its bytes: UTF-8, or Windows-1252 (what banks' files are in); null with the reason otherwise. */
export function remittanceText(bytes: Uint8Array, file: string, pinned?: string): RemittanceReading {
  const decoded = decodeText(bytes);
  if (!decoded.ok) return { remittance: null, problems: [{ file, reason: decoded.error }] };
  return readRemittance(decoded.value.text, file, pinned, decoded.value.encoding);
}

/** A remittance file read whole (remittances are small: a line per record). */
export async function readRemittanceFile(file: string, pinned?: string): Promise<RemittanceReading> {
  return remittanceText(await readFile(file), file, pinned);
}

/**
 * A remittance as a payment sheet's table, streamed like any sheet (so an import validates, looks up, stages and
 * records its titles as it does a CSV's rows): one record per Pix title, on its segment A's line, with the amount
 * written exactly from its centavos, "seu número" as the description and its identifier. A title to an account is a
 * record whose key is its accountReference (never looked up) when the provider takes that, and a problem otherwise.
 * A file the reader refuses and a title it flags are the table's problems, each with its line and positions. Bills
 * (segment J) are not rows: they are paid by `boleto pay --file`.
 */
export function remittanceTable(o: RemittanceTableOptions = {}): TableStreamer {
  return async (open, sinkFor) => {
    const chunks: Buffer[] = [];
    for await (const chunk of open()) chunks.push(Buffer.from(chunk));
    const bytes = Buffer.concat(chunks);
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    // The bytes are hashed whatever: a file changed since the import read it is told by its hash.
    const reading = o.remittance ? { remittance: o.remittance, problems: [] } : remittanceText(bytes, '', o.pinned);
    const r = reading.remittance;
    const format: Cnab240Format = { kind: 'cnab240', layout: r?.layout.id ?? o.pinned ?? '' };
    if (r === null) return { sha256, headerLine: 0, format, language: 'pt', problems: reading.problems.map(withoutFile) };
    const bills = r.titles.filter((t) => t.kind === 'bill').length;
    const billsOnly: SheetProblem[] = bills > 0 && bills === r.titles.length ? [{ line: 1, reason: { code: 'cnab_bills_only', bills } }] : [];
    const problems = [...r.problems, ...accountTitles(r, o.accountsAccepted === true), ...(o.today === undefined ? [] : pastTitles(r, o.today)), ...billsOnly].map(withoutFile);
    if (problems.length) return { sha256, headerLine: 0, format, language: 'pt', problems };
    const identifierOf = o.identifierOf ?? ((t: RemittanceTitle) => titleIdentifier(r.company.value, t.yourNumber));
    const sink = sinkFor();
    sink.header(HEADER, 1, format, 'pt');
    for (const t of r.titles) {
      const to = t.pixKey ?? (t.account && { key: accountReference(t.account), type: ACCOUNT_CELLS[t.account.accountType] });
      if (to === null) continue;
      sink.record({
        line: t.line,
        cells: [to.key, to.type, formatReais(t.amountCents), t.yourNumber, identifierOf(t, r), t.payeeName, t.payeeDocument?.value ?? ''],
        misaligned: null,
      });
    }
    return { sha256, headerLine: 1, format, language: 'pt', problems: [] };
  };
}

/** The Pix titles due before `today`: paid on another day than the ERP asked, so refused with their lines. */
export function pastTitles(r: Remittance, today: string): SheetProblem[] {
  const at = r.layout.segmentA.paymentDate.at;
  return r.titles
    .filter((t) => t.kind !== 'bill' && t.paymentDate < today)
    .map((t) => ({ line: t.line, field: `${at[0]}-${at[1]}`, reason: { code: 'cnab_date_past', date: t.paymentDate, today } }));
}

/**
 * The payments to an account that cannot be sent: all of them when the provider does not take a Pix by account data
 * (the reason names the setting), otherwise those without the payee's document, which such a Pix needs (an account
 * the reader could not read is already flagged).
 */
function accountTitles(r: Remittance, accepted: boolean): SheetProblem[] {
  const at = r.layout.segmentA.payeeAccount.at;
  return r.titles
    .filter((t) => t.kind === 'account' && (!accepted || (t.account !== null && t.payeeDocument === null)))
    .map((t) => ({
      line: t.line,
      field: `${at[0]}-${at[1]}`,
      reason: accepted ? { code: 'cnab_account_no_document' } : { code: 'cnab_account_title', form: t.form },
    }));
}

function withoutFile({ file: _file, ...problem }: SheetProblem): TableProblem {
  return problem;
}

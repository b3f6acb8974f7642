/**
 * A bill title of a CNAB 240 remittance as its return file needs it: read by the sheet layer (`boleto pay --file`),
 * kept by the ledger with the bill it became (remittance_bills).
 */
export interface RemittanceBill {
  /** sha256 (hex) of the remittance's bytes: the same file is the same remittance whatever its name. */
  readonly fileHash: string;
  readonly fileName: string;
  readonly layout: string;
  readonly fileHeader: string;
  readonly companyDocument: string;
  readonly encoding: 'utf-8' | 'windows-1252';
  /** The line of its segment J. */
  readonly line: number;
  readonly lot: number;
  readonly lotHeader: string;
  /** The title's records as read (J, then J-52). */
  readonly records: readonly string[];
  readonly yourNumber: string;
}

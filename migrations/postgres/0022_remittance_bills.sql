-- Bills paid from a CNAB 240 remittance (`boleto pay --file REM.rem`): what their return file is written from. Each
-- bill keeps its title's records as read, written with the bill's intent, so no bill of a remittance is paid without.
CREATE TABLE remittance_bills (
  bill_id BIGINT PRIMARY KEY REFERENCES bills(id),
  file_hash TEXT NOT NULL,              -- sha256 (hex) of the remittance's bytes: its identity
  file_name TEXT NOT NULL,              -- the file as it was named to boleto pay
  layout TEXT NOT NULL,                 -- the layout's id (src/sheet/cnab240/layouts.ts)
  file_header TEXT NOT NULL,            -- the remittance's file header, as read
  company_document TEXT NOT NULL,
  encoding TEXT NOT NULL,               -- utf-8 or windows-1252: the return file is written in the remittance's own
  line INTEGER NOT NULL,                -- the line of its segment J in the remittance
  lot INTEGER NOT NULL,
  lot_header TEXT NOT NULL,
  records TEXT NOT NULL,                -- the J and J-52 records as read, one per line
  your_number TEXT NOT NULL             -- "seu número": the ERP's id of the title
);
CREATE INDEX remittance_bills_file ON remittance_bills (file_hash, line);

-- The last return file the daemon wrote for a remittance's bills (the cnabReturnDir setting): written once every bill
-- has ended, and again when what it says of them changes (a bill returned later), as banks send later returns.
CREATE TABLE bill_return_files (
  file_hash TEXT PRIMARY KEY,
  path TEXT NOT NULL,
  written_at TEXT NOT NULL,
  said TEXT NOT NULL                    -- each bill's occurrence codes, in order: a change writes the file again
);

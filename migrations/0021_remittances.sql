-- Imports read from a CNAB 240 payment remittance: what the bank's return file is written from. Each title keeps
-- its records as read, so the return echoes the ERP's own lines with the outcome written in.
CREATE TABLE remittances (
  import_id INTEGER PRIMARY KEY REFERENCES imports(id),
  layout TEXT NOT NULL,                 -- the layout's id (src/sheet/cnab240/layouts.ts)
  file_header TEXT NOT NULL,            -- the remittance's file header, as read
  company_document TEXT NOT NULL,
  encoding TEXT NOT NULL                -- utf-8 or windows-1252: the return file is written in the remittance's own
);

CREATE TABLE remittance_titles (
  identifier TEXT PRIMARY KEY,          -- the item paying this attempt of the title (items.identifier)
  import_id INTEGER NOT NULL REFERENCES imports(id),
  line INTEGER NOT NULL,                -- the line of its segment A in the remittance
  lot INTEGER NOT NULL,
  lot_header TEXT NOT NULL,
  records TEXT NOT NULL,                -- the title's records as read, one per line
  your_number TEXT NOT NULL,            -- "seu número": the ERP's id of the title
  payment_date TEXT NOT NULL            -- YYYY-MM-DD, as the remittance asked
);
CREATE INDEX remittance_titles_import ON remittance_titles (import_id, line);

-- The last return file the daemon wrote for a batch (the cnabReturnDir setting): written once its titles have ended,
-- and again when what it says of them changes (a title paid later by a retry), as banks send later returns.
CREATE TABLE return_files (
  batch_id INTEGER PRIMARY KEY REFERENCES batches(id),
  path TEXT NOT NULL,
  written_at TEXT NOT NULL,
  said TEXT NOT NULL                    -- each title's occurrence codes, in order: a change writes the file again
);

-- The remittance lines a `boleto pay --file REM.rem` run sets out to pay now, written before its first bill's intent.
-- The remittance's bills' return file waits until each has a bill that ended: a daemon's pass while the run still
-- pays would otherwise write one naming only the bills paid so far.
CREATE TABLE remittance_bill_lines (
  id INTEGER PRIMARY KEY,
  file_hash TEXT NOT NULL,              -- sha256 (hex) of the remittance's bytes: its identity
  line INTEGER NOT NULL,                -- the line of the title's segment J
  UNIQUE (file_hash, line)
);

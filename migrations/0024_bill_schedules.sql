-- Bills of a CNAB 240 remittance due on a later day (`boleto pay --file REM.rem`): recorded when the remittance is
-- confirmed, paid by the daemon on their day (pay_on, São Paulo). One per title: running the file again adds none.
CREATE TABLE bill_schedules (
  id INTEGER PRIMARY KEY,
  code TEXT NOT NULL,                   -- the bar code, as the remittance gives it
  amount_cents INTEGER NOT NULL,
  description TEXT,
  file TEXT NOT NULL,                   -- the file as it was named to boleto pay
  line INTEGER NOT NULL,                -- the line of its segment J
  file_hash TEXT NOT NULL,              -- sha256 (hex) of the remittance's bytes: its identity
  remittance TEXT NOT NULL,             -- the title as read (RemittanceBill, JSON): linked to the bill when paid
  pay_on TEXT NOT NULL,                 -- YYYY-MM-DD, as the remittance asked
  -- waiting: for its day; sent: a daemon claimed it and paid it (bill_id); refused: the payment was refused (error)
  status TEXT NOT NULL CHECK (status IN ('waiting', 'sent', 'refused')),
  bill_id INTEGER REFERENCES bills(id),
  error TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  UNIQUE (file_hash, line)
);
CREATE INDEX bill_schedules_due ON bill_schedules (status, pay_on);

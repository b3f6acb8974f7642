-- Bill payments (boletos, utility and government bills). Payment is synchronous and moves money at once, so the
-- intent row is written before the call and the row keeps what is known: paid, scheduled, unknown (the answer was
-- lost: never retried automatically), failed (refused before paying), returned (by the beneficiary, later).

CREATE TABLE bills (
  id INTEGER PRIMARY KEY,
  barcode TEXT NOT NULL,                   -- 44 digits: the bill's identity, whatever form was typed
  line TEXT NOT NULL,                      -- the 47/48-digit line
  kind TEXT NOT NULL CHECK (kind IN ('bank', 'collection')),
  description TEXT,
  beneficiary TEXT,
  beneficiary_document TEXT,
  assignor TEXT,
  due_date TEXT,
  amount_cents INTEGER NOT NULL CHECK (amount_cents > 0),  -- what paybatch asked to pay
  status TEXT NOT NULL CHECK (status IN ('intent', 'paid', 'scheduled', 'unknown', 'failed', 'returned')),
  remote_status TEXT,                      -- the provider's word, verbatim
  transaction_id TEXT,
  settle_date TEXT,
  amount_paid_cents INTEGER,
  result_json TEXT,                        -- the provider's payment result as received
  return_reason TEXT,                      -- the reason text received with a return
  return_meaning TEXT,                     -- the meaning given to the client (SPEC table), null when unknown
  returned_at TEXT,
  receipt_path TEXT,
  forced INTEGER NOT NULL DEFAULT 0,       -- paid again with --force although the ledger had it paid/unknown
  error TEXT,
  alerted_at TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX bills_barcode ON bills(barcode, status);
CREATE INDEX bills_transaction ON bills(transaction_id);

-- The provider's record against what the ledger took from claims.
--
-- The last word on a batch: when it settles, the item pages that settle it are compared with the ledger field by
-- field. What the ledger cannot follow by itself (an amount, an item only one side holds, an id) is kept here and
-- alerted once (record-differs).
CREATE TABLE record_differences (
  id INTEGER PRIMARY KEY,
  batch_id INTEGER NOT NULL REFERENCES batches(id),
  identifier TEXT NOT NULL,
  line INTEGER,
  field TEXT NOT NULL,                     -- status, amount, pixId, endToEndId or presence
  ledger_value TEXT,                       -- null: the ledger does not hold the item (or the field)
  provider_value TEXT,                     -- null: the provider's pages do not show the item (or the field)
  found_at TEXT NOT NULL,
  alerted_at TEXT
);
CREATE INDEX record_differences_unalerted ON record_differences(alerted_at);

-- Pix ids that events gave a payment (item pages seldom carry one). An event is a claim: when two events give one
-- payment different ids, the receipt endpoint decides — the id the provider has a receipt for is the payment's, and
-- the events of the others are quarantined.
CREATE TABLE pix_id_claims (
  id INTEGER PRIMARY KEY,
  item_id INTEGER NOT NULL REFERENCES items(id),
  pix_id TEXT NOT NULL,
  end_to_end_id TEXT,
  event_id TEXT NOT NULL,
  claimed_at TEXT NOT NULL
);
CREATE UNIQUE INDEX pix_id_claims_item ON pix_id_claims(item_id, pix_id);   -- one claim per id and payment

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

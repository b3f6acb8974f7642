-- `batch retry`: a new batch paying again the rows of an earlier batch that failed or were returned for good. Each
-- new item names the item it pays again (retry_of) and the first item of its row (retry_root_id), so a row is never
-- paid again while any payment of it is under way or paid.
CREATE TABLE retries (
  batch_id INTEGER PRIMARY KEY REFERENCES batches(id), -- the new batch
  source_batch_id INTEGER NOT NULL REFERENCES batches(id),
  statuses TEXT NOT NULL,                  -- the states retried, comma separated: failed, returned
  created_at TEXT NOT NULL
);
CREATE INDEX retries_source ON retries(source_batch_id);

ALTER TABLE items ADD COLUMN retry_of INTEGER REFERENCES items(id);
ALTER TABLE items ADD COLUMN retry_root_id INTEGER REFERENCES items(id);
CREATE INDEX items_retry_root ON items(retry_root_id);
CREATE INDEX items_retry_of ON items(retry_of);
CREATE INDEX items_original ON items(original_item_id); -- a row's reprocess attempts, read when deciding a retry

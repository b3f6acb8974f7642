CREATE TABLE retries (
  batch_id BIGINT PRIMARY KEY REFERENCES batches(id),
  source_batch_id BIGINT NOT NULL REFERENCES batches(id),
  statuses TEXT NOT NULL,
  created_at TEXT NOT NULL
);
CREATE INDEX retries_source ON retries(source_batch_id);

ALTER TABLE items ADD COLUMN retry_of BIGINT REFERENCES items(id);
ALTER TABLE items ADD COLUMN retry_root_id BIGINT REFERENCES items(id);
CREATE INDEX items_retry_root ON items(retry_root_id);
CREATE INDEX items_retry_of ON items(retry_of);
CREATE INDEX items_original ON items(original_item_id);

CREATE TABLE batch_claims (
  batch_id BIGINT PRIMARY KEY REFERENCES batches(id),
  pid INTEGER NOT NULL,
  host TEXT NOT NULL,
  started_at TEXT NOT NULL
);

-- A submission in progress: taken before a run creates, fills or starts the remote batch of a ledger batch, released
-- when it is done. Two runs sending one new batch at once (an import with --start and the daemon) would each create
-- a remote batch of the same name; the second run waits for the claim, or the daemon leaves the batch for its next
-- pass. A holder whose process is gone is replaced.
CREATE TABLE batch_claims (
  batch_id INTEGER PRIMARY KEY REFERENCES batches(id),
  pid INTEGER NOT NULL,
  host TEXT NOT NULL,
  started_at TEXT NOT NULL
);

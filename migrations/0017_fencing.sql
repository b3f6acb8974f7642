-- Several hosts that disagree on time or pause: one clock (the database's) and fencing.
--
-- A lease's generation grows each time it is taken; work done under a lease checks it in the statement that writes,
-- so a holder that paused past its lease (and lost it) writes nothing. A released lease stays, expired, so its
-- generation keeps growing.
ALTER TABLE work_leases ADD COLUMN generation INTEGER NOT NULL DEFAULT 0;

-- The same for a batch's submission claim: the batch row carries the generation of the claim that may write its
-- remote batch and status, and a run that lost its claim changes nothing of it. A claim runs until its expires_at
-- (by the database's clock), which its holder renews: each holder says how long its own claim lasts.
ALTER TABLE batches ADD COLUMN claim_generation INTEGER NOT NULL DEFAULT 0;
ALTER TABLE batch_claims ADD COLUMN generation INTEGER NOT NULL DEFAULT 0;
ALTER TABLE batch_claims ADD COLUMN expires_at TEXT;

-- An alert being sent is claimed (token, until when): only the claim's holder records the channels' answer, and an
-- alert counts as unsent only once its claim ran out by the ledger's clock.
ALTER TABLE alerts ADD COLUMN send_token INTEGER NOT NULL DEFAULT 0;
ALTER TABLE alerts ADD COLUMN send_until TEXT;

-- Remote batches a run created after losing its claim (the provider knows nothing of claims): the ledger's batch
-- keeps the remote batch that holds its items; these are deleted at the provider when empty, otherwise alerted and
-- reported by `ledger check`.
CREATE TABLE stray_batches (
  id INTEGER PRIMARY KEY,
  batch_id INTEGER NOT NULL REFERENCES batches(id),
  remote_id TEXT NOT NULL,
  found_at TEXT NOT NULL,
  deleted_at TEXT,                         -- deleted at the provider (it was empty)
  kept_reason TEXT,                        -- why it was not deleted: it holds items, or the provider refused
  alerted_at TEXT                          -- when that was reported
);
CREATE UNIQUE INDEX stray_batches_remote ON stray_batches(remote_id);

-- A batch the provider keeps refusing to take (its start, its items) is no longer sent again by the daemon at every
-- pass: it is alerted once, and a person decides (`batch start` tries again).
ALTER TABLE batches ADD COLUMN refusal_alerted_at TEXT;

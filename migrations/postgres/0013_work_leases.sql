CREATE TABLE work_leases (
  name TEXT PRIMARY KEY,
  holder TEXT NOT NULL,
  taken_at TEXT NOT NULL,
  expires_at TEXT NOT NULL
);

ALTER TABLE items ADD COLUMN receipt_claimed_by TEXT;
ALTER TABLE items ADD COLUMN receipt_claim_until TEXT;

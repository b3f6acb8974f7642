-- Work a daemon has taken for a while: on a ledger shared by several hosts, two daemons never reconcile, fetch
-- receipts for, or alert about the same thing at once. A lease names its holder and expires unless renewed, so the
-- work of a host that died is taken over by another within a minute.
CREATE TABLE work_leases (
  name TEXT PRIMARY KEY,                   -- what is held, e.g. batch:12:follow-up, attention
  holder TEXT NOT NULL,                    -- host, pid and a random tag of the daemon holding it
  taken_at TEXT NOT NULL,
  expires_at TEXT NOT NULL                 -- ISO UTC; past it, another daemon may take the lease
);

-- A receipt being fetched by one daemon: others skip the item until the claim expires (its holder may have died).
ALTER TABLE items ADD COLUMN receipt_claimed_by TEXT;
ALTER TABLE items ADD COLUMN receipt_claim_until TEXT;

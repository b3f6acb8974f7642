-- The Pix batch ledger: imports of sheets, local batches, their items, and the append-only log of provider calls.
-- Times are ISO-8601 UTC text; amounts are integer centavos.

CREATE TABLE imports (
  id INTEGER PRIMARY KEY,
  file_hash TEXT NOT NULL UNIQUE,          -- sha256 of the sheet's bytes: the import's identity
  file_name TEXT NOT NULL,
  row_count INTEGER NOT NULL,              -- data rows in the sheet
  item_count INTEGER NOT NULL,             -- rows that became items
  rejected_count INTEGER NOT NULL,
  created_at TEXT NOT NULL
);

CREATE TABLE batches (
  id INTEGER PRIMARY KEY,                  -- the local id, carried in the remote name as [pb:<id>]
  import_id INTEGER REFERENCES imports(id),
  kind TEXT NOT NULL CHECK (kind IN ('sheet', 'reprocess')),
  name TEXT NOT NULL,
  remote_name TEXT NOT NULL UNIQUE,
  remote_id TEXT UNIQUE,
  -- draft: in the ledger only; created: remote batch exists; submitted: all items added;
  -- started: start-process accepted; settled: every item settled; deleted: removed at the provider
  status TEXT NOT NULL CHECK (status IN ('draft', 'created', 'submitted', 'started', 'settled', 'deleted')),
  remote_status TEXT,
  start_requested INTEGER NOT NULL DEFAULT 0, -- 1 once someone asked to start it: an interrupted run may finish the start
  item_count INTEGER NOT NULL,
  total_cents INTEGER NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  started_at TEXT
);

CREATE TABLE items (
  id INTEGER PRIMARY KEY,
  batch_id INTEGER NOT NULL REFERENCES batches(id),
  line INTEGER,                            -- line of the sheet row (null for reprocess attempts)
  identifier TEXT NOT NULL UNIQUE,         -- the provider's idempotency key
  key TEXT NOT NULL,
  key_type TEXT NOT NULL,
  amount_cents INTEGER NOT NULL CHECK (amount_cents > 0),
  description TEXT NOT NULL,
  sheet_name TEXT,
  sheet_document TEXT,
  destination_json TEXT,                   -- the resolved `to` object
  recipient_name TEXT,
  status TEXT NOT NULL CHECK (status IN ('draft', 'resolved', 'submitted', 'processing', 'paid', 'failed', 'returned', 'rejected')),
  remote_status TEXT,                      -- the provider's word, verbatim (unknown words are kept, not guessed)
  remote_item_id TEXT,
  pix_id TEXT,
  end_to_end_id TEXT,
  reason TEXT,                             -- rejection, failure or return reason as received
  return_action TEXT CHECK (return_action IN ('reprocess', 'final')), -- for returned items: what the reason calls for
  attempt INTEGER NOT NULL DEFAULT 1,      -- 1 for the sheet row, 2.. for reprocess attempts
  original_item_id INTEGER REFERENCES items(id),
  call_attempts INTEGER NOT NULL DEFAULT 0,
  last_error TEXT,
  receipt_path TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  status_changed_at TEXT NOT NULL
);
CREATE INDEX items_batch ON items(batch_id, status);
CREATE INDEX items_key_amount ON items(key, amount_cents);
CREATE INDEX items_pix ON items(pix_id);

-- Every provider call that moves money: an `intent` row before it is sent, an `outcome` row after.
CREATE TABLE provider_calls (
  id INTEGER PRIMARY KEY,
  phase TEXT NOT NULL CHECK (phase IN ('intent', 'outcome')),
  intent_id INTEGER REFERENCES provider_calls(id),
  operation TEXT NOT NULL,
  subject TEXT NOT NULL,                   -- e.g. batch:12
  detail_json TEXT,                        -- request summary or response summary; never secrets
  outcome TEXT CHECK (outcome IN ('ok', 'error', 'unknown')),
  created_at TEXT NOT NULL
);
CREATE INDEX provider_calls_subject ON provider_calls(subject);

CREATE TRIGGER provider_calls_no_update BEFORE UPDATE ON provider_calls
BEGIN SELECT RAISE(ABORT, 'provider_calls is append-only'); END;
CREATE TRIGGER provider_calls_no_delete BEFORE DELETE ON provider_calls
BEGIN SELECT RAISE(ABORT, 'provider_calls is append-only'); END;

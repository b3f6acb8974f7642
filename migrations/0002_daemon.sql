-- What the daemon keeps: every verified webhook event (its id is the dedupe key), alerts sent to support,
-- and the single-instance lock.

CREATE TABLE webhook_events (
  event_id TEXT PRIMARY KEY,
  kind TEXT NOT NULL CHECK (kind IN ('pix', 'callback')),
  delivery_id TEXT,
  received_at TEXT NOT NULL,
  payload_json TEXT NOT NULL,
  effect TEXT NOT NULL                     -- what applying it did, for `paybatch` reports and audits
);
CREATE INDEX webhook_events_received ON webhook_events(received_at);

CREATE TABLE alerts (
  id INTEGER PRIMARY KEY,
  kind TEXT NOT NULL,
  fingerprint TEXT NOT NULL,               -- what the alert is about (sorted item identifiers): repeats follow its changes
  title TEXT NOT NULL,
  summary TEXT NOT NULL,
  items_json TEXT NOT NULL,
  created_at TEXT NOT NULL,
  last_sent_at TEXT NOT NULL,
  send_count INTEGER NOT NULL DEFAULT 1,
  channels_json TEXT,                      -- outcome of each channel at the last sending
  acked_at TEXT
);
CREATE INDEX alerts_kind ON alerts(kind, acked_at);

-- One daemon per ledger: the row names the holder; a stale holder (dead pid, old heartbeat) can be replaced.
CREATE TABLE daemon_lock (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  pid INTEGER NOT NULL,
  host TEXT NOT NULL,
  started_at TEXT NOT NULL,
  heartbeat_at TEXT NOT NULL
);

ALTER TABLE items ADD COLUMN alerted_at TEXT; -- when a stale alert last named this item

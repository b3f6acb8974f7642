-- When the daemon of each host last finished a pass, and at what interval it runs: the dashboard tells a daemon at
-- work (or the passes of a cron's `daemon --once`) from none, and how late it is. The daemon lock's heartbeat alone
-- cannot: its row goes with the daemon, and it does not say how often passes come.
CREATE TABLE daemon_passes (
  host TEXT PRIMARY KEY,
  pid INTEGER NOT NULL,
  interval_seconds DOUBLE PRECISION,                -- null: one pass and out (`daemon --once`)
  started_at TEXT NOT NULL,                -- when the host's last daemon started (ISO UTC, the ledger's clock)
  last_pass_at TEXT,                       -- when a daemon of the host last finished a pass; null: none yet
  stopped_at TEXT                          -- when it stopped (ISO UTC); null while it runs, or if it was killed
);

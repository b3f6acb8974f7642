ALTER TABLE items ADD COLUMN return_confirmed_at TEXT;
ALTER TABLE items ADD COLUMN return_claim TEXT;
ALTER TABLE webhook_events ADD COLUMN quarantine TEXT;
ALTER TABLE webhook_events ADD COLUMN alerted_at TEXT;

ALTER TABLE webhook_events ADD COLUMN topic TEXT NOT NULL DEFAULT 'unknown' CHECK (topic IN ('pix', 'bill', 'ted', 'unknown'));
ALTER TABLE items ADD COLUMN receipt_unavailable_at TEXT;

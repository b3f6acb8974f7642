ALTER TABLE bills ADD COLUMN news_alerted_at TEXT;
ALTER TABLE batches ADD COLUMN settled_at TEXT;
ALTER TABLE batches ADD COLUMN read_at TEXT;

ALTER TABLE items ADD COLUMN paid_at TEXT;
UPDATE items SET paid_at = status_changed_at WHERE status IN ('paid', 'returned');

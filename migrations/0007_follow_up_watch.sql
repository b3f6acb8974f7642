-- What the daemon keeps watching once its own work is done, because a lost webhook would otherwise go unseen.
-- A bill without news (its outcome unknown for long, or scheduled and past its settle date) is named in one alert.
ALTER TABLE bills ADD COLUMN news_alerted_at TEXT;
-- A settled batch is read again for a while: a return whose event was lost still shows on the item pages.
ALTER TABLE batches ADD COLUMN settled_at TEXT;
ALTER TABLE batches ADD COLUMN read_at TEXT;
UPDATE batches SET settled_at = updated_at WHERE status = 'settled';

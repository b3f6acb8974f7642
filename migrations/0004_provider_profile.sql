-- What a webhook event was about, as the callback classifier read it: pix, bill, ted, or unknown (kept and listed
-- by `paybatch events list --unknown`, so a provider's new event types are seen rather than lost).
ALTER TABLE webhook_events ADD COLUMN topic TEXT NOT NULL DEFAULT 'unknown' CHECK (topic IN ('pix', 'bill', 'ted', 'unknown'));
UPDATE webhook_events SET topic = 'pix' WHERE kind = 'pix';
UPDATE webhook_events SET topic = 'bill' WHERE kind = 'callback' AND payload_json LIKE '%"type":"bill_payment"%';

-- A paid item for which the provider never gave a Pix id (no item field, no event): its receipt cannot be fetched.
-- Set when that was reported, so it is reported once and the daemon stops waiting for it.
ALTER TABLE items ADD COLUMN receipt_unavailable_at TEXT;

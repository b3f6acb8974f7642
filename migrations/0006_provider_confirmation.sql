-- A webhook is a claim. A return is paid again only once the provider's own item page shows it (confirmed_at), and
-- an event that disagrees with the ledger (amount, key, a batch never started) is kept aside, not applied.
ALTER TABLE items ADD COLUMN return_confirmed_at TEXT;     -- when the provider's item page showed the return
ALTER TABLE items ADD COLUMN return_claim TEXT;            -- the refund event that reported the return, until confirmed
ALTER TABLE webhook_events ADD COLUMN quarantine TEXT;     -- why the event was not applied; NULL when it was
ALTER TABLE webhook_events ADD COLUMN alerted_at TEXT;     -- when an alert named this quarantined event
-- Returns recorded before this version were confirmed the old way (by their event alone); they count as confirmed.
UPDATE items SET return_confirmed_at = updated_at WHERE status = 'returned';

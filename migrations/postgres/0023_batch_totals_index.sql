-- The dashboard's batch page on a 100,000-item batch: its totals by status and its payments over time read from an
-- index alone (the wider index replaces items_batch (batch_id, status), which it begins with; a status change already
-- rewrote that entry, so writes cost about the same), and a page of its items in sheet order walked from an index
-- instead of sorting the batch.
CREATE INDEX items_batch_totals ON items(batch_id, status, amount_cents, status_changed_at);
DROP INDEX items_batch;
CREATE INDEX items_batch_line ON items(batch_id, line, id);

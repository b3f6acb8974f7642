-- The provider's own record of each item. A state reached by a webhook (a claim) is provisional until an item page
-- shows it; a page that disagrees wins, and each such correction is kept here and alerted once.
ALTER TABLE items ADD COLUMN record_state TEXT;   -- the state the provider's item page last showed; null: not yet seen

CREATE TABLE item_corrections (
  id INTEGER PRIMARY KEY,
  item_id INTEGER NOT NULL REFERENCES items(id),
  claimed TEXT NOT NULL,                   -- the ledger's state before, reached by an event
  recorded TEXT NOT NULL,                  -- the state the provider's page showed, which the item took
  remote_status TEXT NOT NULL,             -- the page's own status word
  corrected_at TEXT NOT NULL,
  alerted_at TEXT
);
CREATE INDEX item_corrections_unalerted ON item_corrections(alerted_at);

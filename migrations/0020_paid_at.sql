-- When each payment settled, kept when it is later returned: a statement puts a payment in the period it was paid
-- and its return in the period the return happened. Before this, a returned payment's settlement is not known: the
-- return's time stands for it.
ALTER TABLE items ADD COLUMN paid_at TEXT;        -- null: never paid (or the provider's record said it was not)
UPDATE items SET paid_at = status_changed_at WHERE status IN ('paid', 'returned');

-- A bill's documents: a scheduled bill gets a scheduling receipt, its payment and its return each their own document,
-- every one a file of its own (none overwrites another). receipt_path and document_kind name the current one; a bill
-- whose status has no document of its kind yet is owed one (the daemon writes it). The payer and the provider's
-- timestamp are kept from the payment's answer so that a later document shows them too.
ALTER TABLE bills ADD COLUMN document_kind TEXT CHECK (document_kind IN ('scheduling', 'payment', 'return'));
ALTER TABLE bills ADD COLUMN payer TEXT;
ALTER TABLE bills ADD COLUMN payer_document TEXT;
ALTER TABLE bills ADD COLUMN bill_amount_cents INTEGER;     -- the bill's own amount, when the provider gives one
ALTER TABLE bills ADD COLUMN provider_timestamp TEXT;       -- the provider's time of the payment, as it sent it
-- Receipts written before were written at payment time, for the status the answer gave.
UPDATE bills SET document_kind = CASE status WHEN 'scheduled' THEN 'scheduling' ELSE 'payment' END
  WHERE receipt_path IS NOT NULL;

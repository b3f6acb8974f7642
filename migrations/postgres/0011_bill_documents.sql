ALTER TABLE bills ADD COLUMN document_kind TEXT CHECK (document_kind IN ('scheduling', 'payment', 'return'));
ALTER TABLE bills ADD COLUMN payer TEXT;
ALTER TABLE bills ADD COLUMN payer_document TEXT;
ALTER TABLE bills ADD COLUMN bill_amount_cents BIGINT;
ALTER TABLE bills ADD COLUMN provider_timestamp TEXT;

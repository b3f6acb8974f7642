-- What a bill's payment was made of (see the SQLite migration of the same name).
ALTER TABLE bills ADD COLUMN original_cents BIGINT;
ALTER TABLE bills ADD COLUMN discount_cents BIGINT;
ALTER TABLE bills ADD COLUMN interest_cents BIGINT;
ALTER TABLE bills ADD COLUMN fine_cents BIGINT;

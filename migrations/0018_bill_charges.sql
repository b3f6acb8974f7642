-- What a bill's payment was made of, from the provider's details fetched right before it was paid (centavos; null
-- when the details left the field out): its original amount, the discount taken off, the interest and the fine
-- added. The receipt and the period statement show them beside the amount paid, as an accountant reads a bill.
ALTER TABLE bills ADD COLUMN original_cents INTEGER;
ALTER TABLE bills ADD COLUMN discount_cents INTEGER;
ALTER TABLE bills ADD COLUMN interest_cents INTEGER;
ALTER TABLE bills ADD COLUMN fine_cents INTEGER;

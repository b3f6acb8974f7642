-- Maker-checker: signed approvals of a batch's or a bill's content, and who made each batch. An approval is an
-- Ed25519 signature over "paybatch-approval-v1\n<subject>\n<digest>"; it is checked against the keys the profile
-- registers (kept in the config file, not here) every time money is about to move, never trusted from the row.
CREATE TABLE approvals (
  id INTEGER PRIMARY KEY,
  subject TEXT NOT NULL,                   -- batch:<local id> or bill:<digit line>
  digest TEXT NOT NULL,                    -- SHA-256 hex of the content approved
  approver_name TEXT NOT NULL,             -- the name the profile registers the key under
  public_key TEXT NOT NULL,                -- ed25519:<base64>, as it was when signed
  signature TEXT NOT NULL,                 -- base64
  signed_at TEXT NOT NULL,
  signed_from TEXT NOT NULL                -- user@host of the process that signed
);
CREATE INDEX approvals_subject ON approvals(subject);

CREATE TRIGGER approvals_no_update BEFORE UPDATE ON approvals
BEGIN SELECT RAISE(ABORT, 'approvals is append-only'); END;
CREATE TRIGGER approvals_no_delete BEFORE DELETE ON approvals
BEGIN SELECT RAISE(ABORT, 'approvals is append-only'); END;

-- The maker: the fingerprint of the importer's approver key, or user@host without one; null for batches made before.
ALTER TABLE batches ADD COLUMN imported_by TEXT;

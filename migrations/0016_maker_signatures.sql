-- Who made a batch or a bill's payment, proven: the maker signs "paybatch-maker-v1\n<subject>\n<digest>" with their
-- approver key when they import (or retry) a batch or pay a bill, under an approval policy. It is verified against the
-- keys the profile registers every time money is about to move, like an approval; a batch with no valid maker
-- signature starts only once a person with a registered key claims it (`paybatch batch claim`). Hostnames and OS
-- users are never identities: `signed_from` is shown, never trusted.
CREATE TABLE maker_signatures (
  id INTEGER PRIMARY KEY,
  subject TEXT NOT NULL,                   -- batch:<local id> or bill:<digit line>
  digest TEXT NOT NULL,                    -- SHA-256 hex of the content made, as an approval's
  maker_name TEXT NOT NULL,                -- the name the profile registers the key under
  public_key TEXT NOT NULL,                -- ed25519:<base64>, as it was when signed
  signature TEXT NOT NULL,                 -- base64
  signed_at TEXT NOT NULL,
  signed_from TEXT NOT NULL                -- user@host of the process that signed (shown, never trusted)
);
CREATE INDEX maker_signatures_subject ON maker_signatures(subject);

CREATE TRIGGER maker_signatures_no_update BEFORE UPDATE ON maker_signatures
BEGIN SELECT RAISE(ABORT, 'maker_signatures is append-only'); END;
CREATE TRIGGER maker_signatures_no_delete BEFORE DELETE ON maker_signatures
BEGIN SELECT RAISE(ABORT, 'maker_signatures is append-only'); END;

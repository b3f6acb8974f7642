-- An import in progress: taken before a run plans or continues the import of a sheet, released when the run ends.
-- A second run of the same sheet meanwhile is told who is importing it instead of racing it (a second plan would
-- count the first one's items as duplicates, or fail on imports.file_hash). A holder whose process is gone is replaced.
CREATE TABLE import_claims (
  file_hash TEXT PRIMARY KEY,              -- the sheet being imported (sha256 of its bytes, as imports.file_hash)
  file_name TEXT NOT NULL,
  pid INTEGER NOT NULL,
  host TEXT NOT NULL,
  started_at TEXT NOT NULL
);

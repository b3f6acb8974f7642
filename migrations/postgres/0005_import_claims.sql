CREATE TABLE import_claims (
  file_hash TEXT PRIMARY KEY,
  file_name TEXT NOT NULL,
  pid INTEGER NOT NULL,
  host TEXT NOT NULL,
  started_at TEXT NOT NULL
);

CREATE TABLE batch_schedules (
  batch_id BIGINT PRIMARY KEY REFERENCES batches(id),
  pay_on TEXT NOT NULL,
  start_at TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('scheduled', 'started', 'missed', 'cancelled')),
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  last_error TEXT,
  alerted_at TEXT
);
CREATE INDEX batch_schedules_due ON batch_schedules (state, start_at);

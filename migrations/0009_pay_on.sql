-- A batch scheduled to start on a business day (`paybatch import --pay-on`): the daemon starts it at the opening of
-- that day, 08:00 in São Paulo (the next business day when the date asked is a weekend or a bank holiday).
CREATE TABLE batch_schedules (
  batch_id INTEGER PRIMARY KEY REFERENCES batches(id),
  pay_on TEXT NOT NULL,                  -- the date asked, YYYY-MM-DD
  start_at TEXT NOT NULL,                -- ISO UTC instant: 08:00 São Paulo of the business day it starts on
  -- scheduled: waiting for start_at; started: the daemon asked the start (or a person started it before);
  -- missed: its business day passed before the daemon could start it (alerted, left for a person to start);
  -- cancelled: the batch was deleted before its day
  state TEXT NOT NULL CHECK (state IN ('scheduled', 'started', 'missed', 'cancelled')),
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  last_error TEXT,                       -- why the scheduled start failed, while it is retried
  alerted_at TEXT                        -- when an alert said the start failed or was missed
);
CREATE INDEX batch_schedules_due ON batch_schedules (state, start_at);

-- Level 2's cost and yield per filter version and window (ADR 0056): one row per version, kind of window
-- ('hour': the configured window length, an hour by default; 'night': the observing night, which begins at
-- 12:00 UTC as Rubin's dayObs does) and window start. Every process running Level 2 adds its batches to the
-- same rows (INSERT ... ON CONFLICT adds), so the figures survive restarts and several processes add up.
-- Time per locus is kept as a fixed histogram (filter_budget_histogram's buckets, added element by element),
-- never as every time: a window's p50 and p99 are read from it.
CREATE TABLE filter_budget_window (
  filter_version_id bigint NOT NULL REFERENCES filter_version (filter_version_id) ON DELETE CASCADE,
  kind text NOT NULL CHECK (kind IN ('hour', 'night')),
  window_start timestamptz NOT NULL,
  window_s integer NOT NULL CHECK (window_s > 0),
  -- The alerts of the batches Level 2 ran on while the version was loaded.
  alerts_seen bigint NOT NULL DEFAULT 0,
  loci_run bigint NOT NULL DEFAULT 0,
  -- Alerts whose locus the version tagged (a passing alert).
  alerts_passed bigint NOT NULL DEFAULT 0,
  time_s double precision NOT NULL DEFAULT 0,
  -- The most filters Level 2 had loaded in the window: the fair share is 1 / this.
  enabled_filters integer NOT NULL DEFAULT 1,
  time_histogram integer[] NOT NULL,
  PRIMARY KEY (filter_version_id, kind, window_start)
);

-- A filter paused for its budget (its runner switch is off meanwhile) and the notices it was sent, so that
-- several processes pause it and tell its owner once.
CREATE TABLE filter_budget_state (
  filter_id bigint PRIMARY KEY REFERENCES filter (filter_id) ON DELETE CASCADE,
  paused_at timestamptz,
  paused_reason text,
  -- Windows that began before an admin resumed it do not count towards the next pause.
  resumed_at timestamptz,
  -- The last window whose yield the owner heard about, per kind.
  yield_noticed_hour timestamptz,
  yield_noticed_night timestamptz
);

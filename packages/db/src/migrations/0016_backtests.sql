-- Filter backtests (issue #19, ADRs 0030 and 0031): a job replays one filter version (or unsaved code)
-- over stored alerts and writes only here, never to loci, tags or streams. One row per job, and one
-- row per locus the job has replayed: a job resumed after a restart skips the loci it has rows for, the
-- results are aggregated from them, and `backtest_id` searches of /v1/loci read the tagged ones.
CREATE TABLE backtest_job (
  backtest_id bigserial PRIMARY KEY,
  user_id bigint NOT NULL REFERENCES app_user (user_id) ON DELETE CASCADE,
  -- Null for unsaved code (a dry-run body); the code run is always kept here, as it was.
  filter_id bigint REFERENCES filter (filter_id) ON DELETE CASCADE,
  filter_version_id bigint REFERENCES filter_version (filter_version_id) ON DELETE CASCADE,
  code text NOT NULL,
  filter_class text,
  -- The request: time window (alert MJDs), the /v1/loci search, the cap on loci.
  params jsonb NOT NULL,
  -- queued -> running -> done | failed | cancelled (a running job asked to stop: cancel_requested).
  state text NOT NULL DEFAULT 'queued',
  cancel_requested boolean NOT NULL DEFAULT false,
  error text,
  loci_total integer,
  loci_done integer NOT NULL DEFAULT 0,
  steps_done bigint NOT NULL DEFAULT 0,
  -- Times the job was taken up again after the server stopped while it ran.
  resumes integer NOT NULL DEFAULT 0,
  -- The aggregated results, kept once the job is done (computed from backtest_locus before that).
  results jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  started_at timestamptz,
  heartbeat_at timestamptz,
  finished_at timestamptz,
  expires_at timestamptz
);
CREATE INDEX backtest_job_state ON backtest_job (state, backtest_id);
CREATE INDEX backtest_job_user ON backtest_job (user_id, backtest_id);
CREATE INDEX backtest_job_version ON backtest_job (filter_version_id, backtest_id);

CREATE TABLE backtest_locus (
  backtest_id bigint NOT NULL REFERENCES backtest_job (backtest_id) ON DELETE CASCADE,
  locus_id text NOT NULL,
  -- Every tag the filter gave the locus during the replay (empty: never tagged).
  tags text[] NOT NULL DEFAULT '{}',
  -- The outcome in full: steps, first tagging alert, tags per night, errors, cost, properties set.
  outcome jsonb NOT NULL,
  PRIMARY KEY (backtest_id, locus_id)
);

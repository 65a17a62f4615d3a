-- Alert rows partitioned by time (ADR 0036): one partition per 30 days of MJD, made when the first row
-- of its month arrives (alert_partitions_ensure, called before every insert). Old months can then be
-- detached and archived whole (`antares partitions archive`), and the recent ones are all that
-- ingestion's index probes keep warm.
--
-- A unique constraint on a partitioned table must hold the partition key, so the primary key becomes
-- (alert_id, mjd). An alert id still arrives with one MJD only (its own row's time), so
-- de-duplication by id and ON CONFLICT DO NOTHING behave as before. No table has a foreign key to
-- alert. The existing rows are copied into the new table: a one-off rewrite, at a maintenance window
-- on a large database.

ALTER TABLE alert RENAME TO alert_unpartitioned;
ALTER INDEX alert_pkey RENAME TO alert_unpartitioned_pkey;
ALTER INDEX alert_locus_mjd RENAME TO alert_unpartitioned_locus_mjd;
ALTER INDEX alert_mjd RENAME TO alert_unpartitioned_mjd;

-- The columns in the order of the table they replace (0001, 0006), so rows copy across as they are.
CREATE TABLE alert (
  alert_id text NOT NULL,
  locus_id text NOT NULL,
  survey text NOT NULL,
  mjd double precision NOT NULL,
  properties jsonb NOT NULL,
  grav_wave_events jsonb NOT NULL DEFAULT '[]'::jsonb,
  processed_at timestamptz NOT NULL DEFAULT now(),
  summary jsonb,
  PRIMARY KEY (alert_id, mjd)
) PARTITION BY RANGE (mjd);
CREATE INDEX alert_locus_mjd ON alert (locus_id, mjd);
CREATE INDEX alert_mjd ON alert (mjd);

-- Partitions inherit a column's compression from the parent when they are made (PostgreSQL 14+).
DO $$
BEGIN
  ALTER TABLE alert ALTER COLUMN properties SET COMPRESSION lz4;
EXCEPTION WHEN feature_not_supported OR invalid_parameter_value OR undefined_object THEN
  RAISE NOTICE 'lz4 compression unavailable: keeping the default';
END $$;

-- Makes the partition of every 30-day block (block = floor(mjd / 30)) that is missing. Called in the
-- inserting transaction, so a block's first rows and its partition commit together. The advisory
-- lock makes two ingest workers meeting a new month create it once; it is taken only when a partition
-- is missing, so the usual call is a few catalogue look-ups. Returns the partitions made.
CREATE FUNCTION alert_partitions_ensure(blocks bigint[]) RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  block bigint;
  made integer := 0;
  name text;
BEGIN
  FOR block IN SELECT DISTINCT b FROM unnest(blocks) AS b WHERE b IS NOT NULL ORDER BY b LOOP
    name := 'alert_p' || (block * 30)::text;
    CONTINUE WHEN to_regclass(quote_ident(name)) IS NOT NULL;
    PERFORM pg_advisory_xact_lock(7413);
    CONTINUE WHEN to_regclass(quote_ident(name)) IS NOT NULL;
    EXECUTE format('CREATE TABLE %I PARTITION OF alert FOR VALUES FROM (%s) TO (%s)', name, block * 30, block * 30 + 30);
    made := made + 1;
  END LOOP;
  RETURN made;
END $$;

SELECT alert_partitions_ensure(ARRAY(SELECT DISTINCT floor(mjd / 30)::bigint FROM alert_unpartitioned));
INSERT INTO alert SELECT * FROM alert_unpartitioned;
DROP TABLE alert_unpartitioned;

-- alert_partitions_ensure (migration 0017) made a missing month's partition once its advisory lock was
-- held, after looking again whether another worker had made it meanwhile. But taking an advisory lock
-- does not refresh the backend's view of the catalogue: that second look could miss the partition the
-- other worker had just committed, and CREATE TABLE then failed with "already exists", failing the
-- batch. Seen once ingestion made partitions in a statement of their own, as two workers began at once.
-- Now a partition found made by then counts as made.
CREATE OR REPLACE FUNCTION alert_partitions_ensure(blocks bigint[]) RETURNS integer LANGUAGE plpgsql AS $$
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
    BEGIN
      EXECUTE format('CREATE TABLE %I PARTITION OF alert FOR VALUES FROM (%s) TO (%s)', name, block * 30, block * 30 + 30);
      made := made + 1;
    EXCEPTION WHEN duplicate_table THEN
      NULL;
    END;
  END LOOP;
  RETURN made;
END $$;

-- Alert properties compressed with lz4 instead of pglz (ADR 0037). A Rubin detection's properties are
-- about 4.6 KB of JSON, over the 2 KB at which PostgreSQL compresses a value: with pglz, compressing
-- them took about a third of the server's time in ingestion; lz4 is several times faster, for a few
-- percent more disk. New partitions take the parent's setting; the existing ones are set one by one
-- (their stored values stay as they are). A server built without lz4, and embedded PGlite, which has
-- none, keep pglz.
DO $$
DECLARE
  part regclass;
BEGIN
  ALTER TABLE alert ALTER COLUMN properties SET COMPRESSION lz4;
  FOR part IN SELECT inhrelid::regclass FROM pg_inherits WHERE inhparent = 'alert'::regclass LOOP
    EXECUTE format('ALTER TABLE %s ALTER COLUMN properties SET COMPRESSION lz4', part);
  END LOOP;
EXCEPTION WHEN feature_not_supported THEN
  RAISE NOTICE 'lz4 is not available: alert properties stay compressed with pglz';
END $$;

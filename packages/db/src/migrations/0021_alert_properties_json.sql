-- Alert properties kept as the JSON text ingestion wrote (type json) instead of jsonb (ADR 0048). An
-- alert's properties are written once and read back whole (the API, the filters' sandbox), never
-- searched inside: parsing each into jsonb, with its hundred numbers made numeric and its keys sorted,
-- was the largest part of PostgreSQL's work in ingestion. The few queries that read a field use the
-- summary column (jsonb), or cast.
--
-- A rewrite of every alert row: on a large archive, at a maintenance window. Archived partitions still
-- in the database (alert_archive_p*) change too, so that they can be attached again; one restored from
-- an older dump is changed when it is attached (AlertPartitionRepository.restore).
DO $$
DECLARE
  part regclass;
BEGIN
  ALTER TABLE alert ALTER COLUMN properties TYPE json USING properties::json;
  FOR part IN SELECT c.oid::regclass FROM pg_class c
    WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind = 'r' AND starts_with(c.relname, 'alert_archive_p') LOOP
    EXECUTE format('ALTER TABLE %s ALTER COLUMN properties TYPE json USING properties::json', part);
  END LOOP;
END $$;

-- Changing the type drops the column's compression setting (migrations 0017, 0018): lz4 again, on the
-- table, which new partitions inherit, and on every partition there is.
DO $$
DECLARE
  part regclass;
BEGIN
  ALTER TABLE alert ALTER COLUMN properties SET COMPRESSION lz4;
  FOR part IN SELECT inhrelid::regclass FROM pg_inherits WHERE inhparent = 'alert'::regclass
    UNION ALL SELECT c.oid::regclass FROM pg_class c
    WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind = 'r' AND starts_with(c.relname, 'alert_archive_p') LOOP
    EXECUTE format('ALTER TABLE %s ALTER COLUMN properties SET COMPRESSION lz4', part);
  END LOOP;
EXCEPTION WHEN feature_not_supported OR invalid_parameter_value OR undefined_object THEN
  RAISE NOTICE 'lz4 compression unavailable: keeping the default';
END $$;

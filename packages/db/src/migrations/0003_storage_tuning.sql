-- Cutouts arrive gzipped: trying to compress them again only costs time.
ALTER TABLE alert_thumbnail ALTER COLUMN cutout SET STORAGE EXTERNAL;
ALTER TABLE alert_thumbnail ALTER COLUMN png SET STORAGE EXTERNAL;

-- lz4 compresses alert properties several times faster than the default pglz. Not every build of
-- PostgreSQL has it (PGlite may not), so the default stays where it is missing.
DO $$
BEGIN
  ALTER TABLE alert ALTER COLUMN properties SET COMPRESSION lz4;
  ALTER TABLE locus ALTER COLUMN properties SET COMPRESSION lz4;
EXCEPTION WHEN feature_not_supported OR invalid_parameter_value OR undefined_object THEN
  RAISE NOTICE 'lz4 compression unavailable: keeping the default';
END $$;

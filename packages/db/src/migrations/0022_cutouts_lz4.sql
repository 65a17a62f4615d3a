-- Cutouts compressed with lz4 where the server has it (ADR 0050). Migration 0003 stored them as they
-- came (STORAGE EXTERNAL) because ZTF's arrive gzipped; Rubin's are plain FITS (an image, its variance
-- and its PSF, 34-58 KB each), which lz4 takes to about half, and they are most of the database's
-- bytes. A gzipped cutout is tried and kept as it is. Only new rows are compressed. A server built
-- without lz4, and embedded PGlite, which has none, keep them uncompressed: pglz would cost more CPU
-- than the smaller rows save.
DO $$
BEGIN
  ALTER TABLE alert_thumbnail ALTER COLUMN cutout SET COMPRESSION lz4;
  ALTER TABLE alert_thumbnail ALTER COLUMN cutout SET STORAGE EXTENDED;
EXCEPTION WHEN feature_not_supported OR invalid_parameter_value OR undefined_object THEN
  RAISE NOTICE 'lz4 is not available: cutouts stay uncompressed';
END $$;

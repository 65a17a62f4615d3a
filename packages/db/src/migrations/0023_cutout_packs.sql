-- Cutouts may live outside the database, in pack files under ANTARES_CUTOUT_DIR (ADR 0051): such a row
-- keeps no bytes, only where its cutout lies (the pack's path under that folder, the offset and the
-- length). Rows stored before keep their bytes. Each row has exactly one of the two; NOT VALID spares
-- a large table a scan of its rows, which all have their bytes, while new rows are checked.
ALTER TABLE alert_thumbnail ALTER COLUMN cutout DROP NOT NULL;
ALTER TABLE alert_thumbnail ADD COLUMN pack text;
ALTER TABLE alert_thumbnail ADD COLUMN pack_offset bigint;
ALTER TABLE alert_thumbnail ADD COLUMN pack_length integer;
ALTER TABLE alert_thumbnail ADD CONSTRAINT alert_thumbnail_bytes_or_pack
  CHECK ((cutout IS NULL) = (pack IS NOT NULL AND pack_offset IS NOT NULL AND pack_length IS NOT NULL)) NOT VALID;

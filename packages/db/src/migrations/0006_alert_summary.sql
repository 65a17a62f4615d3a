-- The dozen alert fields that locus properties are recomputed from, kept small and apart from the
-- hundred-field properties document: reading them no longer has to decompress the large document.
ALTER TABLE alert ADD COLUMN summary jsonb;

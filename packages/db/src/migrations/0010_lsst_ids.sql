-- Rubin DiaObject ids of a locus (properties.survey.lsst.dia_object_id, decimal strings) as an indexed
-- array, so that a term/terms/exists search on them is an index lookup like ZTF ids, not a scan.
CREATE FUNCTION jsonb_text_array(value jsonb) RETURNS text[] LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN jsonb_typeof(value) = 'array'
    THEN ARRAY(SELECT jsonb_array_elements_text(value)) ELSE '{}'::text[] END
$$;

ALTER TABLE locus ADD COLUMN lsst_dia_object_ids text[]
  GENERATED ALWAYS AS (jsonb_text_array(properties #> '{survey,lsst,dia_object_id}')) STORED;
CREATE INDEX locus_lsst_dia_object_ids ON locus USING gin (lsst_dia_object_ids);

-- Catalogs of known objects and the loci's matches to them.

CREATE TABLE catalog (
  catalog_id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  name text NOT NULL UNIQUE,
  -- 'point': matches within 1"; 'extended': within each object's own radius.
  kind text NOT NULL CHECK (kind IN ('point', 'extended')),
  row_count integer NOT NULL DEFAULT 0,
  source text NOT NULL DEFAULT '',
  imported_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE catalog_object (
  object_id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  catalog_id bigint NOT NULL REFERENCES catalog (catalog_id) ON DELETE CASCADE,
  -- The catalog's own id and name of the object (e.g. "NGC 224", "M 31").
  object_key text NOT NULL,
  object_name text,
  ra double precision NOT NULL,
  dec double precision NOT NULL,
  -- Match radius in degrees (1" for point sources).
  radius double precision NOT NULL,
  properties jsonb NOT NULL DEFAULT '{}'::jsonb
);
CREATE INDEX catalog_object_catalog ON catalog_object (catalog_id, object_id);

-- The HTM level-10 trixels (about 0.07 degree) each object's match circle touches: a position is
-- matched by looking up its own level-10 trixel here, then checking the exact distance.
CREATE TABLE catalog_cover (
  htm10 bigint NOT NULL,
  object_id bigint NOT NULL REFERENCES catalog_object (object_id) ON DELETE CASCADE
);
CREATE INDEX catalog_cover_htm10 ON catalog_cover (htm10);
CREATE INDEX catalog_cover_object ON catalog_cover (object_id);

CREATE TABLE locus_catalog_match (
  locus_id text NOT NULL,
  object_id bigint NOT NULL REFERENCES catalog_object (object_id) ON DELETE CASCADE,
  -- degrees
  separation double precision NOT NULL,
  PRIMARY KEY (locus_id, object_id)
);
CREATE INDEX locus_catalog_match_object ON locus_catalog_match (object_id);

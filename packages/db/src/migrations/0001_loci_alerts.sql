-- Loci, alerts and thumbnails: the core of the alert store.
-- Every table that joins loci carries locus_id, so the schema can be hash-distributed by locus id
-- (Citus-style) when one server is not enough.

CREATE TABLE locus (
  locus_id text PRIMARY KEY,
  ra double precision NOT NULL,
  dec double precision NOT NULL,
  -- HTM level-16 trixel of the position: cone searches read id ranges on this btree.
  htm16 bigint NOT NULL,
  properties jsonb NOT NULL DEFAULT '{}'::jsonb,
  tags text[] NOT NULL DEFAULT '{}',
  catalogs text[] NOT NULL DEFAULT '{}',
  grav_wave_events text[] NOT NULL DEFAULT '{}',
  -- The newest alert that has cutouts: the list page shows its thumbnails.
  newest_thumbnail_alert_id text,
  -- Every ZTF object id of the locus (properties.survey.ztf.id): two ZTF objects within 1" share a
  -- locus, and a search on properties.ztf_object_id must find it by either.
  ztf_object_ids text[] NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  -- Properties that are searched and sorted on most get real, indexable columns.
  ztf_object_id text GENERATED ALWAYS AS (properties ->> 'ztf_object_id') STORED,
  num_mag_values integer GENERATED ALWAYS AS ((properties ->> 'num_mag_values')::integer) STORED,
  newest_alert_observation_time double precision
    GENERATED ALWAYS AS ((properties ->> 'newest_alert_observation_time')::double precision) STORED,
  oldest_alert_observation_time double precision
    GENERATED ALWAYS AS ((properties ->> 'oldest_alert_observation_time')::double precision) STORED
);
CREATE INDEX locus_htm16 ON locus (htm16);
CREATE INDEX locus_ztf_object_ids ON locus USING gin (ztf_object_ids);
CREATE INDEX locus_num_mag_values ON locus (num_mag_values);
CREATE INDEX locus_newest_time ON locus (newest_alert_observation_time DESC NULLS LAST, locus_id DESC);
CREATE INDEX locus_oldest_time ON locus (oldest_alert_observation_time);
CREATE INDEX locus_tags ON locus USING gin (tags);
CREATE INDEX locus_catalogs ON locus USING gin (catalogs);
CREATE INDEX locus_grav_wave_events ON locus USING gin (grav_wave_events);

-- Alerts are append-only (never updated after insert except GW association), so at scale this table
-- is the one to partition by time.
CREATE TABLE alert (
  alert_id text PRIMARY KEY,
  locus_id text NOT NULL,
  survey text NOT NULL,
  mjd double precision NOT NULL,
  properties jsonb NOT NULL,
  grav_wave_events jsonb NOT NULL DEFAULT '[]'::jsonb,
  processed_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX alert_locus_mjd ON alert (locus_id, mjd);

-- Cutouts as received (gzipped FITS), rendered to PNG once, on first request, and kept: most
-- thumbnails are never looked at, and rendering at ingestion would cost more than everything else.
CREATE TABLE alert_thumbnail (
  filename text PRIMARY KEY,
  alert_id text NOT NULL,
  locus_id text NOT NULL,
  thumbnail_type text NOT NULL CHECK (thumbnail_type IN ('science', 'template', 'difference')),
  cutout bytea NOT NULL,
  png bytea
);
CREATE INDEX alert_thumbnail_alert ON alert_thumbnail (alert_id);
CREATE INDEX alert_thumbnail_locus ON alert_thumbnail (locus_id);

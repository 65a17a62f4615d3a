-- Which loci each filter version ran on, and when (Level 2 writes a row per version and locus with its
-- results). A locus with alerts that arrived after a version was enabled and after it last ran on the
-- locus was missed by it (the sandbox could not run then, or the process stopped): `antares start`
-- runs the version on those loci once the sandbox can.
CREATE TABLE level2_run (
  filter_version_id bigint NOT NULL REFERENCES filter_version (filter_version_id) ON DELETE CASCADE,
  locus_id text NOT NULL,
  ran_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (filter_version_id, locus_id)
);

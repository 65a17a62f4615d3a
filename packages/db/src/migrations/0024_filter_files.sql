-- Filter data files (REQUIRES_FILES, ADR 0053). The bytes live outside the database, content-addressed
-- by sha256 under ANTARES_FILTER_FILES_DIR; these rows say which file a filter has under each name now,
-- and which one each version was submitted and reviewed with (what Level 2, dry runs and backtests load).
CREATE TABLE filter_file (
  filter_id bigint NOT NULL REFERENCES filter (filter_id) ON DELETE CASCADE,
  name text NOT NULL,
  sha256 text NOT NULL CHECK (sha256 ~ '^[0-9a-f]{64}$'),
  size bigint NOT NULL CHECK (size > 0),
  uploaded_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (filter_id, name)
);
CREATE INDEX filter_file_sha256 ON filter_file (sha256);

CREATE TABLE filter_version_file (
  filter_version_id bigint NOT NULL REFERENCES filter_version (filter_version_id) ON DELETE CASCADE,
  name text NOT NULL,
  sha256 text NOT NULL CHECK (sha256 ~ '^[0-9a-f]{64}$'),
  size bigint NOT NULL CHECK (size > 0),
  uploaded_at timestamptz NOT NULL,
  PRIMARY KEY (filter_version_id, name)
);
CREATE INDEX filter_version_file_sha256 ON filter_version_file (sha256);

-- User filters, their versions (reviewed by admins) and the tags they declare.

CREATE TABLE filter (
  filter_id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id bigint NOT NULL REFERENCES app_user (user_id) ON DELETE CASCADE,
  name text NOT NULL,
  description text NOT NULL,
  public boolean NOT NULL DEFAULT false,
  -- The version the pipeline runs; null while no version is ENABLED.
  enabled_version_id bigint,
  -- The filter runner's switch: admins can pause an enabled filter without touching its versions.
  runner_enabled boolean NOT NULL DEFAULT true,
  priority integer NOT NULL DEFAULT 100,
  level integer NOT NULL DEFAULT 2,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  disabled_at timestamptz
);
CREATE UNIQUE INDEX filter_name ON filter (lower(name));
CREATE INDEX filter_user ON filter (user_id);

CREATE TABLE filter_version (
  filter_version_id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  filter_id bigint NOT NULL REFERENCES filter (filter_id) ON DELETE CASCADE,
  code text NOT NULL,
  comment text NOT NULL,
  status text NOT NULL DEFAULT 'PENDING_REVIEW'
    CHECK (status IN ('APPROVED', 'DISABLED', 'REJECTED', 'REVIEWED', 'PENDING_REVIEW', 'ENABLED')),
  feedback text,
  -- What the code declares (OUTPUT_TAGS, properties, ...), read by loading it in the sandbox.
  declared_outputs jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  transitioned_at timestamptz,
  enabled_at timestamptz,
  disabled_at timestamptz,
  validated_at timestamptz
);
CREATE INDEX filter_version_filter ON filter_version (filter_id, created_at DESC);

ALTER TABLE filter ADD CONSTRAINT filter_enabled_version
  FOREIGN KEY (enabled_version_id) REFERENCES filter_version (filter_version_id) ON DELETE SET NULL;

-- Tags declared by filter versions; a tag belongs to the version that declared it most recently.
CREATE TABLE tag (
  tag_id text PRIMARY KEY,
  filter_version_id bigint REFERENCES filter_version (filter_version_id) ON DELETE SET NULL,
  description text NOT NULL DEFAULT ''
);

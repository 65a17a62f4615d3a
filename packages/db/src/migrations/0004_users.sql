-- Accounts, sessions, annotations and announcements.

CREATE TABLE app_user (
  user_id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  username text NOT NULL,
  email text NOT NULL,
  name text NOT NULL,
  password_hash text NOT NULL,
  admin boolean NOT NULL DEFAULT false,
  staff boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
-- Usernames are unique regardless of case: "Alice" and "alice" would be one person to a reader.
CREATE UNIQUE INDEX app_user_username ON app_user (lower(username));

-- Token ids that may no longer be used: logged-out sessions and spent password-reset links.
CREATE TABLE revoked_token (
  jti text PRIMARY KEY,
  expires_at timestamptz NOT NULL
);
CREATE INDEX revoked_token_expires ON revoked_token (expires_at);

-- One annotation per (locus, owner): a comment and whether the locus is a favorite.
CREATE TABLE locus_annotation (
  annotation_id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  owner_id bigint NOT NULL REFERENCES app_user (user_id) ON DELETE CASCADE,
  locus_id text NOT NULL,
  comment text NOT NULL DEFAULT '',
  favorited boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (owner_id, locus_id)
);
CREATE INDEX locus_annotation_locus ON locus_annotation (locus_id);

CREATE TABLE announcement (
  announcement_id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  message text NOT NULL CHECK (char_length(message) BETWEEN 1 AND 2048),
  variant text NOT NULL CHECK (variant IN ('primary', 'secondary', 'success', 'danger', 'warning', 'info', 'light', 'dark')),
  active boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- Accounts hardening (ADR 0061): confusable usernames and e-mail verification.

-- The username's skeleton (case folded, NFKC, look-alike letters mapped to one: apps/server/src/auth/usernames.ts),
-- compared at registration so that "vrubin" and "vrub1n" or a Cyrillic "vrubіn" are not two people to a reader.
-- NULL for accounts made before it or outside registration: registration fills those in before it compares.
ALTER TABLE app_user ADD COLUMN username_skeleton text;
CREATE INDEX app_user_username_skeleton ON app_user (username_skeleton);

-- When the account's e-mail address was confirmed (the link of the verification mail); NULL: not yet.
-- Accounts made before verification existed count as confirmed: nothing asked them to.
ALTER TABLE app_user ADD COLUMN email_verified_at timestamptz;
UPDATE app_user SET email_verified_at = created_at;

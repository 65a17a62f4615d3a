-- Watch lists (objects users watch), the chat outbox (notifications, delivered with retries), and the
-- output streams (a durable log per tag that consumers read by offset).

CREATE TABLE watch_list (
  watch_list_id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id bigint NOT NULL REFERENCES app_user (user_id) ON DELETE CASCADE,
  name text NOT NULL,
  description text NOT NULL,
  slack_channel text,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX watch_list_user ON watch_list (user_id, created_at DESC);

CREATE TABLE watch_object (
  watch_object_id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  watch_list_id bigint NOT NULL REFERENCES watch_list (watch_list_id) ON DELETE CASCADE,
  ra double precision NOT NULL,
  dec double precision NOT NULL,
  -- degrees, at most 0.01
  radius double precision NOT NULL,
  comment text,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX watch_object_list ON watch_object (watch_list_id);

-- Loci matched by watch objects: searchable like tags.
ALTER TABLE locus ADD COLUMN watch_list_ids text[] NOT NULL DEFAULT '{}';
ALTER TABLE locus ADD COLUMN watch_object_ids text[] NOT NULL DEFAULT '{}';
CREATE INDEX locus_watch_list_ids ON locus USING gin (watch_list_ids);
CREATE INDEX locus_watch_object_ids ON locus USING gin (watch_object_ids);

-- Chat notifications wait here until delivered: written in the same transaction as what caused them,
-- so nothing is lost across a crash; `dedup_key` keeps one message per (watch object, alert).
CREATE TABLE chat_outbox (
  message_id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  dedup_key text UNIQUE,
  channel text NOT NULL,
  text text NOT NULL,
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  sent_at timestamptz,
  last_error text,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX chat_outbox_due ON chat_outbox (next_attempt_at) WHERE sent_at IS NULL;

-- Output streams: one per tag. `message_id` is the consumers' offset (increasing; per stream it has
-- gaps, which consumers ignore). The message holds the locus as it was when it was tagged.
CREATE TABLE stream_message (
  message_id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  stream text NOT NULL,
  locus_id text NOT NULL,
  alert_id text,
  locus jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX stream_message_stream ON stream_message (stream, message_id);

-- How far the Kafka relay has published the streams (one row; absent until it first runs).
CREATE TABLE stream_relay (
  relay text PRIMARY KEY,
  last_message_id bigint NOT NULL
);

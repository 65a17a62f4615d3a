-- Gravitational-wave events: every notice of a superevent (versions), and the event's current state.

CREATE TABLE grav_wave_notice (
  notice_id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  gracedb_id text NOT NULL,
  notice_type text NOT NULL CHECK (notice_type IN ('EARLY_WARNING', 'PRELIMINARY', 'INITIAL', 'UPDATE', 'RETRACTION')),
  notice_datetime timestamptz NOT NULL,
  event_datetime timestamptz,
  false_alarm_rate double precision,
  -- The sky map FITS file (multi-order or NESTED) as sent, base64: what the API hands out.
  skymap_base64 text,
  area50 double precision,
  area90 double precision,
  external_coinc jsonb,
  full_notice jsonb NOT NULL,
  -- 1, 2, ... per superevent, in the order the notices were made.
  version_id integer NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (gracedb_id, notice_datetime)
);

CREATE TABLE grav_wave_event (
  gracedb_id text PRIMARY KEY,
  latest_notice_id bigint NOT NULL REFERENCES grav_wave_notice (notice_id),
  event_datetime timestamptz,
  retracted boolean NOT NULL DEFAULT false,
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- Association re-evaluation reads the alerts of a time window.
CREATE INDEX alert_mjd ON alert (mjd);
CREATE INDEX alert_grav_wave_events ON alert USING gin (grav_wave_events jsonb_path_ops);

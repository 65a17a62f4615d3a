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

-- Alerts associated with events (what the API shows as alert.grav_wave_events). A table of its own,
-- not the alert row: a new sky map re-evaluates hundreds of thousands of alerts, and rewriting their
-- (large) rows would cost far more than replacing these small ones. alert.grav_wave_events (0001)
-- is left unused.
CREATE TABLE alert_grav_wave (
  gracedb_id text NOT NULL,
  alert_id text NOT NULL,
  locus_id text NOT NULL,
  -- percent
  contour_level double precision NOT NULL,
  -- square degrees
  contour_area double precision NOT NULL,
  PRIMARY KEY (gracedb_id, alert_id)
);
CREATE INDEX alert_grav_wave_alert ON alert_grav_wave (alert_id);
CREATE INDEX alert_grav_wave_locus ON alert_grav_wave (locus_id, gracedb_id);

-- Great-circle distance in degrees (haversine form: stable at tiny angles, which a 1-arcsec cone needs).
-- LANGUAGE sql + IMMUTABLE lets the planner inline it into cone-search queries.
CREATE FUNCTION angular_distance_deg(ra1 double precision, dec1 double precision,
                                     ra2 double precision, dec2 double precision)
RETURNS double precision LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT degrees(2 * asin(least(1.0, sqrt(
    power(sin(radians(dec2 - dec1) / 2), 2)
    + cos(radians(dec1)) * cos(radians(dec2)) * power(sin(radians(ra2 - ra1) / 2), 2)))))
$$;

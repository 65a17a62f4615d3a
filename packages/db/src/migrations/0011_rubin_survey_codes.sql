-- Rubin alerts as clients read ant_survey (ADR 0013): 1 and 2 are ZTF, 3 DECam, 4 LSST. Detections
-- (lsst:<diaSourceId>) were stored with 3, so TOMs labelled them DECam; every Rubin alert is now 4, and
-- forced photometry (lsst_forced:<diaForcedSourceId>, already 4) is told apart by its id and
-- ant_forced_photometry true. Only ant_survey lives in the rows: the alert summary, locus properties
-- and stream messages do not hold it, and lightcurves are built from the alerts when read.
UPDATE alert
SET properties = properties || CASE
  WHEN starts_with(alert_id, 'lsst_forced:') THEN '{"ant_survey": 4, "ant_forced_photometry": true}'::jsonb
  ELSE '{"ant_survey": 4}'::jsonb
END
WHERE survey = 'lsst'
  AND (properties -> 'ant_survey' IS DISTINCT FROM '4'::jsonb
    OR (starts_with(alert_id, 'lsst_forced:') AND properties -> 'ant_forced_photometry' IS DISTINCT FROM 'true'::jsonb));

-- What lets an ingest process keep the alerts of the loci it recomputes between batches instead of
-- reading them all again for every batch (a Rubin locus holds up to a year of sources).
--
-- locus.alerts_revision goes up by one each time ingestion recomputes the locus, which it does
-- whenever it stores an alert on it: a process whose copy of a locus's alerts was taken at the
-- revision the locus still has may use it. alert_archive_epoch goes up by one each time alert
-- partitions are archived or restored, which removes or brings back alerts of many loci at once:
-- a process then forgets every copy.
ALTER TABLE locus ADD COLUMN alerts_revision bigint NOT NULL DEFAULT 0;

CREATE TABLE alert_archive_epoch (
  epoch bigint NOT NULL
);
INSERT INTO alert_archive_epoch (epoch) VALUES (0);

-- Watch lists see the past: a new list is matched against the stored alerts in the background (the
-- loci with an alert inside one of its objects' circles get its ids, as new alerts give them), and
-- this says when that was done. Null: not yet (the list's page says "matching history..."); lists made
-- before this migration are null too, so the server matches them when it next starts.
ALTER TABLE watch_list ADD COLUMN history_matched_at timestamptz;

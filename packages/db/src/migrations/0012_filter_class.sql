-- The filter a version runs when its code defines several (a notebook export with drafts and helpers):
-- the class (or 2019-style function) its submitter named, else the one the sandbox chose when it
-- checked the code (the last filter class defined). Null: not known (code stored unchecked), so the
-- runtime picks the last one when it loads the version.
ALTER TABLE filter_version ADD COLUMN filter_class text;

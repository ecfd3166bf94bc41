-- A version saved by merging a stale form with the newest version (issue 32): base_version_id is the newest version it
-- was saved on top of, merged_version_id the version the editor had loaded, merged_fields the field paths whose
-- values were taken from the newest version (JSON arrays of keys), for the page's notice and the history.
ALTER TABLE versions ADD COLUMN merged_version_id uuid;
ALTER TABLE versions ADD COLUMN merged_fields jsonb;

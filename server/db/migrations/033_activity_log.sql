-- The activity log on /settings lists document creates and saves straight from versions (a save writes nothing more),
-- merged by time with admin_activity: this index keeps the versions' side of that merge an index scan.
CREATE INDEX versions_created_idx ON versions (created_at DESC, seq DESC);

-- A deleted document takes its versions with it, so a delete is recorded as an activity row.
ALTER TABLE admin_activity DROP CONSTRAINT admin_activity_area_check;
ALTER TABLE admin_activity ADD CONSTRAINT admin_activity_area_check
  CHECK (area IN ('bucket', 'schema', 'user', 'invitation', 'client', 'webhook', 'document'));

-- Checked uploads of an edit form that was not saved (invalid, or a list or upload action): the file waits in
-- MEDIA_DIR/pending/<content_id>.<ext> with no media row and no job, until a save of its owner's form commits it
-- (as media content content_id) or the sweep removes it. The form holds content_id in the field and
-- content_id.<secret> as its token; only the secret's hash is kept.
CREATE TABLE pending_uploads (
  content_id uuid PRIMARY KEY,
  secret_hash text NOT NULL,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  bucket_id uuid NOT NULL REFERENCES buckets (id) ON DELETE CASCADE,
  -- The bucket field it was chosen in, list indexes left out: rooms[].photo
  field text NOT NULL,
  kind text NOT NULL CHECK (kind IN ('image', 'video', 'file')),
  ext text NOT NULL,
  original_filename text NOT NULL,
  mimetype text NOT NULL,
  size bigint NOT NULL,
  width integer,
  height integer,
  details jsonb NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL DEFAULT clock_timestamp()
);
CREATE INDEX pending_uploads_created_idx ON pending_uploads (created_at);

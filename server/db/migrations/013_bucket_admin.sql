-- Media files of deleted buckets, waiting to be removed from MEDIA_DIR: the delete records them in the same
-- transaction, the media sweep (server/media/removals.ts) removes each file and then its row, so a crash between
-- the two only delays the removal.
CREATE TABLE media_removals (
  storage_key text PRIMARY KEY,
  scheduled_at timestamptz NOT NULL DEFAULT now()
);

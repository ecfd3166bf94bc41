-- Media (image, video, file): one row per version; contentId is stable, id is the version's _id.
CREATE TABLE media (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  content_id uuid NOT NULL,
  kind text NOT NULL CHECK (kind IN ('image', 'video', 'file')),
  bucket_id uuid NOT NULL REFERENCES buckets (id) ON DELETE CASCADE,
  storage_key text NOT NULL,
  original_filename text NOT NULL,
  mimetype text NOT NULL,
  size bigint NOT NULL,
  width integer,
  height integer,
  -- fps, codec, duration, crop, thumbs, thumb, still, rendition key: what varies by kind.
  details jsonb NOT NULL DEFAULT '{}',
  original_image_version_id uuid,
  created_by uuid REFERENCES users (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT clock_timestamp()
);
CREATE INDEX media_content_latest_idx ON media (content_id, created_at DESC);

-- Conversion work for the job runner; a lease marks a claimed job, an expired lease makes it claimable again.
CREATE TABLE jobs (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  media_id uuid NOT NULL REFERENCES media (id) ON DELETE CASCADE,
  name text NOT NULL,
  status text NOT NULL DEFAULT 'new' CHECK (status IN ('new', 'processing', 'failed', 'completed')),
  progress real NOT NULL DEFAULT 0,
  attempts integer NOT NULL DEFAULT 0,
  lease_until timestamptz,
  error text,
  created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
  updated_at timestamptz NOT NULL DEFAULT clock_timestamp()
);
CREATE INDEX jobs_media_idx ON jobs (media_id);
CREATE INDEX jobs_open_idx ON jobs (created_at) WHERE status IN ('new', 'processing');

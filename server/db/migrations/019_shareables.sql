-- Shareable previews: a read-only link to one version of a document (version_id null: always the latest).
-- The link's token is never stored, only its SHA-256. A deleted document, bucket or account takes its links along.
CREATE TABLE shareables (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  token_hash text NOT NULL UNIQUE,
  bucket_id uuid NOT NULL REFERENCES buckets (id) ON DELETE CASCADE,
  content_id uuid NOT NULL REFERENCES contents (content_id) ON DELETE CASCADE,
  version_id uuid REFERENCES versions (version_id) ON DELETE CASCADE,
  created_by uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  revoked_at timestamptz
);
CREATE INDEX shareables_created_by_idx ON shareables (created_by, created_at DESC);
CREATE INDEX shareables_content_idx ON shareables (content_id);

-- Preview (issue 31, docs/publishing.md "Preview"): an API client with `preview` may ask the delivery API for the
-- newest versions (version=newest) or for what a release will show (release={id}); other clients get published
-- versions only, and a 403 for either parameter. Off for every existing client: nobody sees drafts by surprise.
ALTER TABLE api_clients ADD COLUMN preview boolean NOT NULL DEFAULT false;

-- A shareable link points at one document (bucket_id, content_id, and a version or null: its newest) or at a
-- release (release_id; each of its documents at its release version). Deleting the release deletes its links.
ALTER TABLE shareables ADD COLUMN release_id uuid REFERENCES releases (id) ON DELETE CASCADE;
ALTER TABLE shareables ALTER COLUMN bucket_id DROP NOT NULL;
ALTER TABLE shareables ALTER COLUMN content_id DROP NOT NULL;
ALTER TABLE shareables ADD CONSTRAINT shareables_target_check CHECK (
  CASE WHEN release_id IS NULL THEN bucket_id IS NOT NULL AND content_id IS NOT NULL
       ELSE bucket_id IS NULL AND content_id IS NULL AND version_id IS NULL END
);
CREATE INDEX shareables_release_idx ON shareables (release_id) WHERE release_id IS NOT NULL;

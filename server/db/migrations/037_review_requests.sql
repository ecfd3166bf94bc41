-- Asking for review (issue 31, docs/publishing.md "Asking for review"): an editor who may not publish asks the
-- bucket's publishers to look at a document's version. One open request per document (asking again moves it to the
-- newer version and message); publishing the document closes it, and so can a publisher without publishing. Deleting
-- the document deletes its requests.
CREATE TABLE review_requests (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  content_id uuid NOT NULL REFERENCES contents (content_id) ON DELETE CASCADE,
  bucket_id uuid NOT NULL REFERENCES buckets (id) ON DELETE CASCADE,
  version_id uuid NOT NULL,
  requester_id uuid REFERENCES users (id) ON DELETE SET NULL,
  requester_name text NOT NULL,
  note text NOT NULL DEFAULT '' CHECK (length(note) <= 1000),
  created_at timestamptz NOT NULL DEFAULT now(),
  closed_at timestamptz,
  closed_by_name text
);
CREATE UNIQUE INDEX review_requests_open_idx ON review_requests (content_id) WHERE closed_at IS NULL;
CREATE INDEX review_requests_open_time_idx ON review_requests (created_at DESC) WHERE closed_at IS NULL;

-- Publishing (issue 31, docs/publishing.md): a document has a published version (or none) beside its newest one.
-- The delivery API, bundles and webhooks serve the published version; a save changes only the newest.
--   published_version_id  what exhibits get; null: nothing (a draft, or taken off)
--   published_at          when what exhibits get last changed (the delivery API's updatedAt and ETag)
--   unpublished_at        when it was taken off, null while published or never published (tells unpublished from draft)
ALTER TABLE contents ADD COLUMN published_version_id uuid;
ALTER TABLE contents ADD COLUMN published_at timestamptz;
ALTER TABLE contents ADD COLUMN unpublished_at timestamptz;

-- Every publish and unpublish, newest last: what a document's history and the activity log show, and what a rollback
-- returns to (the version published before). version_id null: taken off.
CREATE TABLE publications (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  seq bigserial NOT NULL,
  content_id uuid NOT NULL REFERENCES contents (content_id) ON DELETE CASCADE,
  bucket_id uuid NOT NULL REFERENCES buckets (id) ON DELETE CASCADE,
  version_id uuid,
  previous_version_id uuid,
  actor_id uuid REFERENCES users (id) ON DELETE SET NULL,
  actor_name text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT clock_timestamp()
);
CREATE INDEX publications_content_idx ON publications (content_id, seq DESC);
CREATE INDEX publications_created_idx ON publications (created_at DESC, seq DESC);

-- Nothing an exhibit shows today goes away on upgrade: every document's newest version is its published one.
UPDATE contents SET published_version_id = latest_version_id, published_at = updated_at;

-- The delivery API's pages in updatedAt order walk the published documents of a bucket by when they went live.
CREATE INDEX contents_bucket_published_idx ON contents (bucket_id, published_at DESC, content_id DESC)
  WHERE published_version_id IS NOT NULL;

-- Everyone who can save today could put content live today: they keep that (admins can always publish; new users
-- and invitations get `publish` only when an admin gives it). Open invitations were written for today's rights.
UPDATE users SET permissions = permissions || '{publish}' WHERE NOT ('publish' = ANY (permissions));
UPDATE invitations SET permissions = permissions || '{publish}'
  WHERE used_at IS NULL AND revoked_at IS NULL AND NOT ('publish' = ANY (permissions));

-- Webhooks: a save no longer reaches an exhibit, a publish does. A webhook that listened for saves (to refresh an
-- exhibit) listens for publish and unpublish too.
ALTER TABLE webhook_deliveries DROP CONSTRAINT IF EXISTS webhook_deliveries_event_check;
ALTER TABLE webhook_deliveries ADD CONSTRAINT webhook_deliveries_event_check
  CHECK (event IN ('document.saved', 'document.deleted', 'document.published', 'document.unpublished'));
UPDATE webhooks SET events = events || '{document.published,document.unpublished}' WHERE 'document.saved' = ANY (events);


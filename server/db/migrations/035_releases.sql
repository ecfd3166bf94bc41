-- Releases (issue 31, docs/publishing.md): a named set of documents, each at a chosen version (null: its newest when
-- the release is published), published together in one transaction, now or at scheduled_at, and rolled back in one.
--   open         being put together: documents can be added, removed, their versions changed
--   scheduled    as open, and published by the server's release poller at scheduled_at
--   published    every item's version went live together; no longer editable
--   rolled_back  every item went back to the version published before the release (or off, where none was)
CREATE TABLE releases (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  state text NOT NULL DEFAULT 'open' CHECK (state IN ('open', 'scheduled', 'published', 'rolled_back')),
  -- Kept after publishing (when it was meant to go live); set while scheduled.
  scheduled_at timestamptz,
  -- Who scheduled it: the scheduled publication is recorded in their name.
  scheduled_by_id uuid REFERENCES users (id) ON DELETE SET NULL,
  scheduled_by_name text,
  published_at timestamptz,
  published_by_id uuid REFERENCES users (id) ON DELETE SET NULL,
  published_by_name text,
  rolled_back_at timestamptz,
  rolled_back_by_id uuid REFERENCES users (id) ON DELETE SET NULL,
  rolled_back_by_name text,
  created_by_id uuid REFERENCES users (id) ON DELETE SET NULL,
  created_by_name text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
  CHECK (state <> 'scheduled' OR scheduled_at IS NOT NULL),
  CHECK (state NOT IN ('published', 'rolled_back') OR published_at IS NOT NULL),
  CHECK (state <> 'rolled_back' OR rolled_back_at IS NOT NULL)
);
-- The poller's question every few seconds: which scheduled releases are due.
CREATE INDEX releases_due_idx ON releases (scheduled_at) WHERE state = 'scheduled';
-- The list of releases, newest first.
CREATE INDEX releases_created_idx ON releases (created_at DESC, id);

-- A release's documents. version_id null: the newest version when the release is published. Set when it is published:
-- published_version_id (what went live) and previous_version_id (what was live before: a rollback returns to it; null:
-- nothing was, and a rollback takes the document off). A deleted document leaves every release.
CREATE TABLE release_items (
  release_id uuid NOT NULL REFERENCES releases (id) ON DELETE CASCADE,
  content_id uuid NOT NULL REFERENCES contents (content_id) ON DELETE CASCADE,
  bucket_id uuid NOT NULL REFERENCES buckets (id) ON DELETE CASCADE,
  version_id uuid,
  published_version_id uuid,
  previous_version_id uuid,
  added_at timestamptz NOT NULL DEFAULT clock_timestamp(),
  PRIMARY KEY (release_id, content_id)
);
-- A document's releases (and the cascade of its delete).
CREATE INDEX release_items_content_idx ON release_items (content_id);
CREATE INDEX release_items_bucket_idx ON release_items (bucket_id);

-- Which release a publish or unpublish was part of (its publish or its rollback); null: a document's own.
ALTER TABLE publications ADD COLUMN release_id uuid REFERENCES releases (id) ON DELETE SET NULL;
CREATE INDEX publications_release_idx ON publications (release_id) WHERE release_id IS NOT NULL;

-- Webhooks: release.published and release.rolled_back name a release, not one document (each of its documents has
-- its own document.published / document.unpublished delivery). Their rows carry release_id and no bucket, document or
-- version; a document event's rows still carry all three (docs/webhooks.md).
ALTER TABLE webhook_deliveries ADD COLUMN release_id uuid;
ALTER TABLE webhook_deliveries ALTER COLUMN bucket_slug DROP NOT NULL;
ALTER TABLE webhook_deliveries ALTER COLUMN content_id DROP NOT NULL;
ALTER TABLE webhook_deliveries ALTER COLUMN version_id DROP NOT NULL;
ALTER TABLE webhook_deliveries DROP CONSTRAINT IF EXISTS webhook_deliveries_event_check;
ALTER TABLE webhook_deliveries ADD CONSTRAINT webhook_deliveries_event_check
  CHECK (event IN ('document.saved', 'document.deleted', 'document.published', 'document.unpublished', 'release.published', 'release.rolled_back'));
ALTER TABLE webhook_deliveries ADD CONSTRAINT webhook_deliveries_payload_check
  CHECK (CASE WHEN event LIKE 'release.%' THEN release_id IS NOT NULL
              ELSE bucket_slug IS NOT NULL AND content_id IS NOT NULL AND version_id IS NOT NULL END);

-- The screen a bucket's documents are edited on (docs/screens.md): the generic editor or a specialised one.
ALTER TABLE buckets ADD COLUMN screen text NOT NULL DEFAULT 'generic'
  CHECK (screen IN ('generic', 'sessies', 'dle-sessies', 'dle-content', 'trend'));
-- The order an editor gave a bucket's documents (the dle-sessies overview); null for documents never placed, which
-- come after the placed ones.
ALTER TABLE contents ADD COLUMN position integer;
CREATE INDEX contents_bucket_position_idx ON contents (bucket_id, position, updated_at DESC, content_id DESC);

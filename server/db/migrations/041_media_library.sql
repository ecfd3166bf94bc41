-- The media library (issue 35, docs/media.md): one row per media content (an image, video or file with all its
-- versions), kept by the media table's trigger, with what the library lists, sorts and searches by, and the texts
-- exhibits show with it (alternative text and caption per locale, credits).
CREATE TABLE media_items (
  content_id uuid PRIMARY KEY,
  bucket_id uuid NOT NULL REFERENCES buckets (id) ON DELETE CASCADE,
  kind text NOT NULL CHECK (kind IN ('image', 'video', 'file')),
  -- The newest version (what every use shows) and its facts, copied for the list's sorts and filters.
  latest_media_id uuid NOT NULL,
  name text NOT NULL,
  size bigint NOT NULL,
  -- {"alt": {"en": "…", "nl": "…"}, "caption": {"en": "…"}}: empty texts are not stored.
  descriptions jsonb NOT NULL DEFAULT '{}',
  credits text NOT NULL DEFAULT '',
  -- Lower-cased name, descriptions and credits: what the library's search compares (search_key, migration 027).
  search_text text NOT NULL,
  created_by uuid REFERENCES users (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX media_items_created_idx ON media_items (created_at DESC, content_id DESC);
CREATE INDEX media_items_bucket_idx ON media_items (bucket_id, created_at DESC);
CREATE INDEX media_items_uploader_idx ON media_items (created_by);
-- The list's other sorts (server/media/library.ts), so that a page reads its rows in order instead of sorting them all.
CREATE INDEX media_items_name_idx ON media_items (lower(name), content_id);
CREATE INDEX media_items_size_idx ON media_items (size DESC, content_id DESC);
CREATE INDEX media_items_search_trgm_idx ON media_items USING gin (search_key(search_text) gin_trgm_ops);

CREATE FUNCTION media_item_search_text(name text, descriptions jsonb, credits text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$
    SELECT lower(concat_ws(' ', name, credits,
      (SELECT string_agg(value #>> '{}', ' ') FROM jsonb_path_query(descriptions, 'strict $.*.*') AS value)))
  $$;

-- Which documents use which media: a document's newest or published version holds the media's contentId. Kept by
-- triggers on contents (a save, a publication, a deletion) and on media_items (an upload a save names in the same
-- transaction), from the documents' stored text (contents.search_text and published_search_text hold every string of
-- the data, lower-cased): any string that is a media contentId counts. Media ids are random UUIDs, so a text field
-- that happens to hold one is the only false use; the library lists uses, and refuses deletes, by this table.
CREATE TABLE media_uses (
  media_content_id uuid NOT NULL,
  document_id uuid NOT NULL REFERENCES contents (content_id) ON DELETE CASCADE,
  PRIMARY KEY (media_content_id, document_id)
);
CREATE INDEX media_uses_document_idx ON media_uses (document_id);

CREATE FUNCTION uuids_in(text) RETURNS SETOF uuid
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$
    SELECT DISTINCT m[1]::uuid
    FROM regexp_matches($1, '([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})', 'g') AS m
  $$;

CREATE FUNCTION refresh_media_uses() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND NEW.search_text IS NOT DISTINCT FROM OLD.search_text
     AND NEW.published_search_text IS NOT DISTINCT FROM OLD.published_search_text THEN
    RETURN NULL;
  END IF;
  IF TG_OP = 'UPDATE' THEN
    DELETE FROM media_uses WHERE document_id = NEW.content_id;
  END IF;
  INSERT INTO media_uses (media_content_id, document_id)
    SELECT i.content_id, NEW.content_id
    FROM uuids_in(NEW.search_text || ' ' || coalesce(NEW.published_search_text, '')) AS u(id)
    JOIN media_items i ON i.content_id = u.id
    ON CONFLICT DO NOTHING;
  RETURN NULL;
END
$$;
CREATE TRIGGER contents_media_uses AFTER INSERT OR UPDATE OF search_text, published_search_text ON contents
  FOR EACH ROW EXECUTE FUNCTION refresh_media_uses();

-- A new media version: its content's item is created, or points at it (a replacement, a crop).
CREATE FUNCTION media_item_of_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO media_items (content_id, bucket_id, kind, latest_media_id, name, size, search_text, created_by, created_at, updated_at)
    VALUES (NEW.content_id, NEW.bucket_id, NEW.kind, NEW.id, NEW.original_filename, NEW.size,
      media_item_search_text(NEW.original_filename, '{}', ''), NEW.created_by, NEW.created_at, NEW.created_at)
    ON CONFLICT (content_id) DO UPDATE SET
      latest_media_id = EXCLUDED.latest_media_id, name = EXCLUDED.name, size = EXCLUDED.size,
      search_text = media_item_search_text(EXCLUDED.name, media_items.descriptions, media_items.credits),
      updated_at = EXCLUDED.updated_at;
  RETURN NULL;
END
$$;
CREATE TRIGGER media_items_of_versions AFTER INSERT ON media FOR EACH ROW EXECUTE FUNCTION media_item_of_version();

-- What exists today: one item per content (its newest version), then its uses; the trigger after.
INSERT INTO media_items (content_id, bucket_id, kind, latest_media_id, name, size, search_text, created_by, created_at, updated_at)
  SELECT DISTINCT ON (content_id) content_id, bucket_id, kind, id, original_filename, size,
    media_item_search_text(original_filename, '{}', ''), first_value(created_by) OVER w, first_value(created_at) OVER w, created_at
  FROM media
  WINDOW w AS (PARTITION BY content_id ORDER BY seq)
  ORDER BY content_id, seq DESC;
INSERT INTO media_uses (media_content_id, document_id)
  SELECT DISTINCT i.content_id, c.content_id
  FROM contents c, uuids_in(c.search_text || ' ' || coalesce(c.published_search_text, '')) AS u(id)
  JOIN media_items i ON i.content_id = u.id;

-- An item that arrives after the document naming it (an upload committed by the save that names it).
CREATE FUNCTION media_uses_of_new_item() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO media_uses (media_content_id, document_id)
    SELECT NEW.content_id, c.content_id FROM contents c
    WHERE search_key(c.search_text) LIKE '%' || NEW.content_id::text || '%'
       OR search_key(c.published_search_text) LIKE '%' || NEW.content_id::text || '%'
    ON CONFLICT DO NOTHING;
  RETURN NULL;
END
$$;
CREATE TRIGGER media_items_uses AFTER INSERT ON media_items FOR EACH ROW EXECUTE FUNCTION media_uses_of_new_item();

-- A deleted bucket's media that another bucket's document still names moves to that bucket (server/media/removals.ts).
CREATE FUNCTION media_item_moved() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE media_items SET bucket_id = NEW.bucket_id WHERE content_id = NEW.content_id AND bucket_id <> NEW.bucket_id;
  RETURN NULL;
END
$$;
CREATE TRIGGER media_items_moved AFTER UPDATE OF bucket_id ON media FOR EACH ROW EXECUTE FUNCTION media_item_moved();

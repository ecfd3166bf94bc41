-- Use items (issue 35, docs/media.md "One use's own crop and texts"): a library item as one document uses it, with its
-- own crop or its own texts, so that neither changes the shared item. A use item is a media content of its own (its
-- versions: the crop, or the shared item's file) whose media_items row names the item it is a use of. The library
-- lists only shared items; a document using a use item counts as a use of the shared item too.
-- Should the shared item go without its use items (its bucket deleted while another bucket's document uses only a use
-- item, which then moves there: server/media/removals.ts), the use item becomes a library item of its own.
ALTER TABLE media_items ADD COLUMN use_of uuid REFERENCES media_items (content_id) ON DELETE SET NULL;
CREATE INDEX media_items_use_of_idx ON media_items (use_of) WHERE use_of IS NOT NULL;

-- The texts exhibits get: a use item's own alternative text and caption per locale over the shared item's, its own
-- credits else the shared item's.
CREATE VIEW media_item_texts AS
  SELECT i.content_id,
    CASE WHEN s.content_id IS NULL THEN i.descriptions ELSE jsonb_strip_nulls(jsonb_build_object(
      'alt', nullif(coalesce(s.descriptions->'alt', '{}') || coalesce(i.descriptions->'alt', '{}'), '{}'::jsonb),
      'caption', nullif(coalesce(s.descriptions->'caption', '{}') || coalesce(i.descriptions->'caption', '{}'), '{}'::jsonb)))
    END AS descriptions,
    coalesce(nullif(i.credits, ''), s.credits, '') AS credits
  FROM media_items i LEFT JOIN media_items s ON s.content_id = i.use_of;

CREATE OR REPLACE FUNCTION refresh_media_uses() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND NEW.search_text IS NOT DISTINCT FROM OLD.search_text
     AND NEW.published_search_text IS NOT DISTINCT FROM OLD.published_search_text THEN
    RETURN NULL;
  END IF;
  IF TG_OP = 'UPDATE' THEN
    DELETE FROM media_uses WHERE document_id = NEW.content_id;
  END IF;
  INSERT INTO media_uses (media_content_id, document_id)
    SELECT used.id, NEW.content_id
    FROM uuids_in(NEW.search_text || ' ' || coalesce(NEW.published_search_text, '')) AS u(id)
    JOIN media_items i ON i.content_id = u.id
    CROSS JOIN LATERAL (VALUES (i.content_id), (i.use_of)) AS used(id)
    WHERE used.id IS NOT NULL
    ON CONFLICT DO NOTHING;
  RETURN NULL;
END
$$;

-- A use item becomes one when its row names the shared item (server/media/use-items.ts), before any document names it;
-- should one already (a restore), its uses count for the shared item too.
CREATE FUNCTION media_uses_of_use_item() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO media_uses (media_content_id, document_id)
    SELECT NEW.use_of, x.document_id FROM media_uses x WHERE x.media_content_id = NEW.content_id
    ON CONFLICT DO NOTHING;
  RETURN NULL;
END
$$;
CREATE TRIGGER media_items_use_of AFTER UPDATE OF use_of ON media_items
  FOR EACH ROW WHEN (NEW.use_of IS NOT NULL) EXECUTE FUNCTION media_uses_of_use_item();

-- A use item's version shows the shared item's stored file: a deletion removes a file only when no other version
-- names it (server/media/removals.ts).
CREATE INDEX media_storage_key_idx ON media (storage_key);

-- The delivery API's search (q=) matches what exhibits get: the published version's text, stored beside the newest
-- version's (search_text, migrations 027 and 029) and set with every change of the published version
-- (server/content/publishing.ts). Null while nothing is published. The same trigram index as search_text's.
ALTER TABLE contents ADD COLUMN published_search_text text;
UPDATE contents c SET published_search_text = CASE
    WHEN c.published_version_id = c.latest_version_id THEN c.search_text
    ELSE (SELECT document_search_text(v.data) FROM versions v WHERE v.version_id = c.published_version_id)
  END
  WHERE c.published_version_id IS NOT NULL;
CREATE INDEX contents_published_search_trgm_idx ON contents USING gin (search_key(published_search_text) gin_trgm_ops);

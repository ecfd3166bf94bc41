-- The overview's search now reads a document's text stored with its contents row, written by the statement that
-- makes a version the latest (createContent and saveVersion in server/content/store.ts). Searches only ever ask
-- about the latest versions, so the trigram index covers those alone (migration 008's covered every version ever
-- saved), and an index candidate is rechecked against stored text instead of computing document_search_text from
-- the JSON again: at 100,000 documents a search whose trigrams are common rechecks hundreds of candidates.
ALTER TABLE contents ADD COLUMN search_text text;
UPDATE contents c SET search_text = document_search_text(v.data) FROM versions v WHERE v.version_id = c.latest_version_id;
-- No default: a statement that writes a contents row without its text fails instead of hiding it from searches.
ALTER TABLE contents ALTER COLUMN search_text SET NOT NULL;
DROP INDEX versions_search_trgm_idx;

-- What a search compares against: `search_key(search_text) LIKE lower(pattern)` is `search_text ILIKE pattern`
-- in a UTF-8 database (PostgreSQL's ILIKE lower-cases both sides), with the stored side lower-cased by the index.
-- PL/pgSQL and its declared cost are on purpose: the planner prices a plain column's ILIKE at next to nothing, so
-- with statistics it filtered every document of a 10,000-document bucket through the bucket's index (each test
-- decompresses and lower-cases about 2 kB: 150 ms on PGlite) instead of asking the trigram index (2 ms). A SQL
-- function would be inlined, and its cost forgotten.
CREATE FUNCTION search_key(search_text text) RETURNS text
  LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE COST 1000
  AS $$ BEGIN RETURN lower(search_text); END $$;
CREATE INDEX contents_search_trgm_idx ON contents USING gin (search_key(search_text) gin_trgm_ops);

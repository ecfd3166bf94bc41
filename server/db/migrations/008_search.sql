-- Overview search (ILIKE '%text%') over a document's values, not its property names or JSON syntax, through a
-- trigram index instead of reading every document. pg_trgm is a trusted extension (PostgreSQL 13+): the database
-- owner may create it.
CREATE EXTENSION IF NOT EXISTS pg_trgm;

CREATE FUNCTION document_search_text(data jsonb) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$
    SELECT coalesce(string_agg(value #>> '{}', ' '), '')
    FROM jsonb_path_query(data, 'strict $.** ? (@.type() == "string" || @.type() == "number")') AS value
  $$;

CREATE INDEX versions_search_trgm_idx ON versions USING gin (document_search_text(data) gin_trgm_ops);

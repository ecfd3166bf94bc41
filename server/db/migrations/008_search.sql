-- Overview search (ILIKE '%text%' over a document's data) through a trigram index instead of reading every
-- document. pg_trgm is a trusted extension (PostgreSQL 13+): the database owner may create it.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE INDEX versions_data_trgm_idx ON versions USING gin ((data::text) gin_trgm_ops);

-- A bucket's document count (the overview's total, the settings' list, the delete confirmation) moves out of the
-- bucket's row. Every create and delete updated buckets.content_count, so concurrent saves into one bucket queued
-- on that row: each waited for the one before it to commit, and on PostgreSQL a save's throughput halved (pgbench,
-- 10 connections: 1,600 → 3,400 statements/s without it). Now each database connection adds to its own slot
-- (server/content/document-counts.ts: the backend's pid modulo 64), and a count is the sum of a bucket's slots.
CREATE TABLE bucket_document_counts (
  bucket_id uuid NOT NULL REFERENCES buckets (id) ON DELETE CASCADE,
  slot smallint NOT NULL,
  documents integer NOT NULL,
  PRIMARY KEY (bucket_id, slot)
);
INSERT INTO bucket_document_counts (bucket_id, slot, documents)
  SELECT b.id, 0, count(c.content_id) FROM buckets b JOIN contents c ON c.bucket_id = b.id GROUP BY b.id;
ALTER TABLE buckets DROP COLUMN content_count;

-- The read cache's notices (026) watched every column of buckets but content_count; with that column gone, every
-- change to a bucket empties the cache, and a new column needs no line here.
DROP TRIGGER buckets_read_cache_update ON buckets;
DROP TRIGGER buckets_read_cache ON buckets;
CREATE TRIGGER buckets_read_cache AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON buckets
  FOR EACH STATEMENT EXECUTE FUNCTION notify_read_cache('buckets');

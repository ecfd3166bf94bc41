-- Rows in the order they were written: created_at can tie (PGlite's clock moves in millisecond steps), a
-- sequence cannot. Jobs run and list in queue order; a media's latest version is its last one written.
ALTER TABLE jobs ADD COLUMN seq bigserial;
DROP INDEX jobs_open_idx;
CREATE INDEX jobs_open_idx ON jobs (seq) WHERE status IN ('new', 'processing');

ALTER TABLE media ADD COLUMN seq bigserial;
DROP INDEX media_content_latest_idx;
CREATE INDEX media_content_latest_idx ON media (content_id, seq DESC);

-- Exactly one document per singleton bucket, even when two first saves race.
ALTER TABLE contents ADD COLUMN singleton boolean NOT NULL DEFAULT false;
CREATE UNIQUE INDEX contents_one_per_singleton_bucket ON contents (bucket_id) WHERE singleton;
-- Kept with each save so overviews need no count(*) over a large bucket.
ALTER TABLE buckets ADD COLUMN content_count integer NOT NULL DEFAULT 0;
UPDATE buckets b SET content_count = (SELECT count(*) FROM contents c WHERE c.bucket_id = b.id);

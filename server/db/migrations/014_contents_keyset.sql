-- The impact preview of a schema change reads a bucket's documents in content_id order, a batch at a time (a keyset
-- cursor): this index finds each batch of one bucket without passing the other buckets' rows.
CREATE INDEX contents_bucket_content_idx ON contents (bucket_id, content_id);

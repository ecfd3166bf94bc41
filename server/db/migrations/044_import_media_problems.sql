-- The rest of issue 34's import (server/content/import-*.ts, docs/transfer.md).

-- A run's ZIP of images and files uploaded beside its data: where it is kept and the name it was uploaded as.
ALTER TABLE import_runs ADD COLUMN media_path text, ADD COLUMN media_name text;

-- Every problem of a run (import_runs.problems keeps the first 100 for its page): written in the transaction of the
-- batch that found them, so a resumed run has each once; read in order for the download.
CREATE TABLE import_problems (
  run_id uuid NOT NULL REFERENCES import_runs (id) ON DELETE CASCADE,
  row_no integer NOT NULL,
  position integer NOT NULL,
  field text NOT NULL,
  message text NOT NULL,
  PRIMARY KEY (run_id, row_no, position)
);

-- The media items imports made from ZIP entries, by the entry's content: the same file imported again (a second run,
-- a resumed one, another row) names the item made the first time instead of making another. Written in the
-- transaction of the batch that saved the item.
CREATE TABLE import_media (
  bucket_id uuid NOT NULL REFERENCES buckets (id) ON DELETE CASCADE,
  kind text NOT NULL,
  sha256 text NOT NULL,
  content_id uuid NOT NULL,
  PRIMARY KEY (bucket_id, kind, sha256)
);

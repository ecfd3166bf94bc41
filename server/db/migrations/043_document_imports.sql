-- Imports of documents from a file (issue 34, server/content/import-documents.ts). A run reads its file in batches;
-- each batch's documents and the run's progress (rows_done and the counts) are written in one transaction, so a run
-- cut off by a crash or a restart resumes after its last whole batch: no row is imported twice, none is skipped.
CREATE TABLE import_runs (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  bucket_id uuid NOT NULL REFERENCES buckets (id) ON DELETE CASCADE,
  user_id uuid REFERENCES users (id) ON DELETE SET NULL,
  dry_run boolean NOT NULL,
  format text NOT NULL CHECK (format IN ('csv', 'json', 'ndjson')),
  file_path text NOT NULL,
  file_name text NOT NULL,
  -- {mapping: {file header: column header}, key: property or null}
  options jsonb NOT NULL,
  status text NOT NULL DEFAULT 'running' CHECK (status IN ('running', 'done', 'failed')),
  rows_done integer NOT NULL DEFAULT 0,
  created integer NOT NULL DEFAULT 0,
  updated integer NOT NULL DEFAULT 0,
  unchanged integer NOT NULL DEFAULT 0,
  refused integer NOT NULL DEFAULT 0,
  -- The first problems (row, field, message); `refused` counts them all.
  problems jsonb NOT NULL DEFAULT '[]',
  -- Who runs it (a token of the process's run), and when it last wrote a batch: a run whose heartbeat is older than a
  -- minute was left by a stopped server and is taken over; a batch written by a runner no longer holding it is undone.
  runner uuid NOT NULL DEFAULT gen_random_uuid(),
  heartbeat_at timestamptz NOT NULL DEFAULT now(),
  -- Why the file could not be read to its end (a message, and the row), when status is failed.
  failure jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX import_runs_running_idx ON import_runs (status) WHERE status = 'running';

-- A run's external keys: the key's value of each document of the bucket when the run started, and of each document
-- it created since, so that a row finds the document an earlier import (or an editor) made with that key.
CREATE TABLE import_keys (
  run_id uuid NOT NULL REFERENCES import_runs (id) ON DELETE CASCADE,
  key_value text NOT NULL,
  content_id uuid NOT NULL,
  PRIMARY KEY (run_id, key_value)
);

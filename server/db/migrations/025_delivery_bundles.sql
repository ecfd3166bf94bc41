-- Offline bundles of the delivery API (issue 14, docs/bundles.md): each bundle made, so that `since={id}` can make
-- an incremental one. `documents` and `media` hold the state an app has after unpacking the bundle (over the
-- bundles it was made since): every document's latest version and the SHA-256 of each of its content files, every
-- media content's version and the storage key behind each of its files.
CREATE TABLE delivery_bundles (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  client_id uuid NOT NULL REFERENCES api_clients (id) ON DELETE CASCADE,
  buckets text[] NOT NULL,
  locales text[],
  populate integer NOT NULL,
  since_id uuid REFERENCES delivery_bundles (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  -- {"<contentId>": {"bucket": slug, "versionId": uuid, "files": {"<path>": "<sha256>"}}}
  documents jsonb NOT NULL,
  -- {"<contentId>": {"id": media version id, "files": {"<path>": "<storage key>"}}}
  media jsonb NOT NULL
);
CREATE INDEX delivery_bundles_client ON delivery_bundles (client_id, created_at);

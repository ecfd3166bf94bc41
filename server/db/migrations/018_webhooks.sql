-- Webhooks (issue 14): admins register receivers; a document's save or delete records one delivery per matching
-- webhook in the same statement or transaction as the change (an outbox), and the dispatcher of each server sends
-- them (server/webhooks/dispatcher.ts).

CREATE TABLE webhooks (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  url text NOT NULL,
  -- Kept as given: the dispatcher signs every delivery with it (HMAC-SHA256), so it cannot be hashed.
  secret text NOT NULL,
  events text[] NOT NULL,
  -- Every bucket, or the buckets of bucket_ids (ids, so a renamed bucket stays chosen; a deleted one never matches).
  all_buckets boolean NOT NULL DEFAULT true,
  bucket_ids uuid[] NOT NULL DEFAULT '{}',
  created_by uuid REFERENCES users (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE webhook_deliveries (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  -- The log's order: deliveries recorded in one transaction share occurred_at.
  seq bigint GENERATED ALWAYS AS IDENTITY,
  webhook_id uuid NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
  event text NOT NULL CHECK (event IN ('document.saved', 'document.deleted')),
  -- The payload, as it was when the change happened (the bucket may be renamed or deleted since).
  bucket_slug text NOT NULL,
  content_id uuid NOT NULL,
  version_id uuid NOT NULL,
  occurred_at timestamptz NOT NULL DEFAULT now(),
  -- "Send again" makes a new delivery of the same change.
  redelivery_of uuid REFERENCES webhook_deliveries (id) ON DELETE SET NULL,
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivering', 'delivered', 'failed')),
  attempts integer NOT NULL DEFAULT 0,
  -- When a pending delivery is due; while delivering, when its lease runs out (a server that died mid-attempt).
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  last_attempt_at timestamptz,
  last_status integer,
  -- A catalogue message {key, params}: the admin page puts it into the admin's language.
  last_error jsonb,
  -- At most a short excerpt of the receiver's answer.
  last_response text,
  delivered_at timestamptz
);
CREATE INDEX webhook_deliveries_due_idx ON webhook_deliveries (next_attempt_at) WHERE status IN ('pending', 'delivering');
CREATE INDEX webhook_deliveries_log_idx ON webhook_deliveries (webhook_id, seq DESC);

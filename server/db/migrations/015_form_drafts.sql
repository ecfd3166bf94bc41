-- A form's unsaved input, kept for a short while when its editor leaves it without JavaScript to create or edit the
-- document a popup sub-form refers to on that document's own page (server/content/drafts.ts). Bound to the user and
-- the form's bucket; the page it returns to is the form's own path, recorded by the server. The URL carries a random
-- token; only its hash is kept. `picked` is the contentId saved on the other page, set into `field` on return.
CREATE TABLE form_drafts (
  token_hash text PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  bucket_id uuid NOT NULL REFERENCES buckets (id) ON DELETE CASCADE,
  return_path text NOT NULL,
  field text NOT NULL,
  entries jsonb NOT NULL,
  picked uuid,
  expires_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX form_drafts_expires_idx ON form_drafts (expires_at);

-- Who has a document open (issue 32, server/presence/): one row per page shown. A page shown without a live
-- connection (no JavaScript yet, or none at all) counts until expires_at; a page whose browser holds the event
-- stream belongs to the server holding it (server_id), which extends expires_at while it runs: a server that dies
-- leaves rows that run out by themselves. Rows are few and short-lived; nothing else refers to them.
CREATE TABLE presence (
  page_id uuid PRIMARY KEY,
  bucket_id uuid NOT NULL REFERENCES buckets (id) ON DELETE CASCADE,
  content_id uuid NOT NULL,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  since timestamptz NOT NULL DEFAULT now(),
  unsaved boolean NOT NULL DEFAULT false,
  server_id uuid,
  expires_at timestamptz NOT NULL
);
CREATE INDEX presence_content_idx ON presence (content_id);
CREATE INDEX presence_server_idx ON presence (server_id) WHERE server_id IS NOT NULL;

-- A document someone has open is told when another saves or deletes it: one notice per change, only while a row
-- of presence names the document (a save nobody watches costs one index probe, no notice).
CREATE FUNCTION notify_presence_document() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  changed uuid := CASE WHEN TG_OP = 'DELETE' THEN OLD.content_id ELSE NEW.content_id END;
BEGIN
  IF EXISTS (SELECT 1 FROM presence WHERE content_id = changed) THEN
    PERFORM pg_notify('vitrine_presence', lower(TG_OP) || ':' || changed::text);
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER contents_presence_saved AFTER UPDATE OF latest_version_id ON contents
  FOR EACH ROW WHEN (OLD.latest_version_id IS DISTINCT FROM NEW.latest_version_id)
  EXECUTE FUNCTION notify_presence_document();
CREATE TRIGGER contents_presence_deleted AFTER DELETE ON contents
  FOR EACH ROW EXECUTE FUNCTION notify_presence_document();

-- Every server with a page of the document open hears who came, left, or has unsaved changes now. Not the renewal
-- of expires_at (every minute per server): nothing a page shows changes then.
CREATE FUNCTION notify_presence_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('vitrine_presence', 'presence:' || (CASE WHEN TG_OP = 'DELETE' THEN OLD.content_id ELSE NEW.content_id END)::text);
  RETURN NULL;
END
$$;

CREATE TRIGGER presence_changed AFTER INSERT OR DELETE OR UPDATE OF unsaved, server_id ON presence
  FOR EACH ROW EXECUTE FUNCTION notify_presence_changed();

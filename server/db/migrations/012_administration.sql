-- What the administration screens need (issue 11): one migration so that the areas built in parallel share it.

-- Users: deactivation (keeps the account and its history; refuses sign-in) and the last sign-in shown in lists.
ALTER TABLE users ADD COLUMN deactivated_at timestamptz;
ALTER TABLE users ADD COLUMN last_sign_in_at timestamptz;

-- Sessions: what the profile lists of the user's own sessions.
ALTER TABLE sessions ADD COLUMN user_agent text;
ALTER TABLE sessions ADD COLUMN address text;

-- Invitations: an id to revoke by (the code itself is only kept hashed), the buckets the new user gets.
ALTER TABLE invitations ADD COLUMN id uuid NOT NULL DEFAULT gen_random_uuid();
CREATE UNIQUE INDEX invitations_id_key ON invitations (id);
ALTER TABLE invitations ADD COLUMN buckets text[];
ALTER TABLE invitations ADD COLUMN revoked_at timestamptz;
ALTER TABLE invitations ADD COLUMN locale text;

-- Every schema a bucket has had; the bucket points at its current one and each saved document version at the
-- schema version it was validated against.
CREATE TABLE schema_versions (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  bucket_id uuid NOT NULL REFERENCES buckets (id) ON DELETE CASCADE,
  number integer NOT NULL,
  json_schema json NOT NULL,
  created_by uuid REFERENCES users (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (bucket_id, number)
);
ALTER TABLE buckets ADD COLUMN schema_version_id uuid REFERENCES schema_versions (id) ON DELETE SET NULL;
ALTER TABLE versions ADD COLUMN schema_version_id uuid REFERENCES schema_versions (id) ON DELETE SET NULL;
INSERT INTO schema_versions (bucket_id, number, json_schema) SELECT id, 1, json_schema FROM buckets;
UPDATE buckets b SET schema_version_id = s.id FROM schema_versions s WHERE s.bucket_id = b.id;

-- A renamed bucket keeps its old slugs working as redirects.
CREATE TABLE bucket_slug_redirects (
  old_slug text PRIMARY KEY,
  bucket_id uuid NOT NULL REFERENCES buckets (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- collectionName is unique; an installation that already holds duplicates keeps working (the form refuses new ones).
DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM buckets GROUP BY collection_name HAVING count(*) > 1) THEN
    CREATE UNIQUE INDEX buckets_collection_name_key ON buckets (collection_name);
  END IF;
END $$;

-- API clients of exhibit apps: the secret is only kept hashed.
CREATE TABLE api_clients (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name text NOT NULL,
  secret_hash text NOT NULL,
  read_buckets text[] NOT NULL DEFAULT '{}',
  write_buckets text[] NOT NULL DEFAULT '{}',
  expires_at timestamptz,
  created_by uuid REFERENCES users (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  last_used_at timestamptz,
  revoked_at timestamptz
);

-- Single-use password reset tokens (hashed), valid for an hour.
CREATE TABLE password_resets (
  token_hash text PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  used_at timestamptz
);
CREATE INDEX password_resets_user_idx ON password_resets (user_id);

-- Who changed what in the administration, newest first on /settings.
CREATE TABLE admin_activity (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  actor_id uuid REFERENCES users (id) ON DELETE SET NULL,
  actor_name text NOT NULL,
  area text NOT NULL CHECK (area IN ('bucket', 'schema', 'user', 'invitation', 'client', 'webhook')),
  action text NOT NULL,
  subject text NOT NULL,
  details jsonb NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL DEFAULT clock_timestamp()
);
CREATE INDEX admin_activity_created_idx ON admin_activity (created_at DESC);

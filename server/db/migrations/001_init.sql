CREATE TABLE users (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name text NOT NULL,
  email text NOT NULL,
  password_hash text NOT NULL,
  permissions text[] NOT NULL DEFAULT '{user}',
  buckets text[],
  locale text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX users_email_key ON users (lower(email));

-- Server-side sessions: the cookie holds a random id, the table holds its hash.
CREATE TABLE sessions (
  id_hash text PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL
);
CREATE INDEX sessions_user_id_idx ON sessions (user_id);

CREATE TABLE invitations (
  code_hash text PRIMARY KEY,
  email text,
  permissions text[] NOT NULL DEFAULT '{user}',
  created_by uuid REFERENCES users (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  used_at timestamptz,
  used_by uuid REFERENCES users (id) ON DELETE SET NULL
);

CREATE TABLE rate_limits (
  key text PRIMARY KEY,
  failures integer NOT NULL,
  window_started_at timestamptz NOT NULL
);

CREATE TABLE buckets (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  slug text NOT NULL UNIQUE,
  name text NOT NULL,
  singleton boolean NOT NULL DEFAULT false,
  private boolean NOT NULL DEFAULT false,
  collection_name text NOT NULL,
  json_schema json NOT NULL, -- json, not jsonb: the order of properties is the order of the form
  locales text[] NOT NULL DEFAULT '{en}',
  position integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- One row per document; versions hold every saved state of it.
CREATE TABLE contents (
  content_id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  bucket_id uuid NOT NULL REFERENCES buckets (id) ON DELETE CASCADE,
  latest_version_id uuid NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX contents_bucket_updated_idx ON contents (bucket_id, updated_at DESC, content_id DESC);

CREATE TABLE versions (
  version_id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  content_id uuid NOT NULL REFERENCES contents (content_id) ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED,
  base_version_id uuid,
  data jsonb NOT NULL,
  created_by uuid REFERENCES users (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX versions_content_idx ON versions (content_id, created_at DESC);

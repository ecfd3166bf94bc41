-- What a server caches of every request's reads (server/db/read-cache.ts, PGlite only) is emptied by these
-- notices, sent by the database itself whoever changes the rows: the app, the CLI, a script. A topic names what
-- changed: 'sessions' (a session or its user), 'buckets' (a bucket or an old slug of one). Statement triggers:
-- one notice per statement, and PostgreSQL folds equal notices of one transaction into one. Nobody listens on
-- PostgreSQL (several servers: a notice would arrive late), so there they cost a queue entry on rare writes.
CREATE FUNCTION notify_read_cache() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('vitrine_read_cache', TG_ARGV[0]);
  RETURN NULL;
END
$$;

-- A new session is not cached before it is read; every other change to a session or a user may end or change one.
CREATE TRIGGER sessions_read_cache AFTER UPDATE OR DELETE OR TRUNCATE ON sessions
  FOR EACH STATEMENT EXECUTE FUNCTION notify_read_cache('sessions');
CREATE TRIGGER users_read_cache AFTER UPDATE OR DELETE OR TRUNCATE ON users
  FOR EACH STATEMENT EXECUTE FUNCTION notify_read_cache('sessions');

-- Every column but content_count, which every save and delete updates and nothing cached shows
-- (tests/integration/read-cache.test.ts fails when a new column is missing here).
CREATE TRIGGER buckets_read_cache AFTER INSERT OR DELETE OR TRUNCATE ON buckets
  FOR EACH STATEMENT EXECUTE FUNCTION notify_read_cache('buckets');
CREATE TRIGGER buckets_read_cache_update
  AFTER UPDATE OF id, slug, name, singleton, private, collection_name, json_schema, locales, position, created_at,
    updated_at, schema_version_id, screen ON buckets
  FOR EACH STATEMENT EXECUTE FUNCTION notify_read_cache('buckets');
CREATE TRIGGER bucket_slug_redirects_read_cache AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON bucket_slug_redirects
  FOR EACH STATEMENT EXECUTE FUNCTION notify_read_cache('buckets');

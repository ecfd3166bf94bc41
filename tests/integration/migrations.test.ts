import { randomBytes, randomUUID } from "node:crypto";
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterEach, describe, expect, inject, it } from "vitest";
import { openPglite, openPostgres, type Db } from "@server/db/client";
import { MIGRATIONS, migrate } from "@server/db/migrate";
import { createUser } from "@server/accounts/users";
import { createContent } from "@server/content/store";
import { listContents } from "@server/content/listing";
import { withDatabase } from "@tests/support/global-setup";
import { startBuiltServer } from "@tests/support/fixtures";

/*
 * Numbered migrations (server/db/migrate.ts): recorded in schema_migrations,
 * applied in one transaction under an advisory lock, so that servers starting
 * at once on a fresh database migrate it once. Each test starts from an
 * empty database, not from the suite's migrated template.
 */

const onPostgres = process.env.VITRINE_TEST_DB === "postgres" && Boolean(process.env.TEST_DATABASE_URL);
const ALL_VERSIONS = MIGRATIONS.map((migration) => migration.version);

interface FreshDatabase {
  /** A second, independent connection (PostgreSQL) or the one handle (PGlite). */
  open(): Promise<Db>;
  /** Closes the connections opened so far (PGlite: so that a server may open the directory). */
  release(): Promise<void>;
  env: Record<string, string>;
  drop(): Promise<void>;
}

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!().catch(() => undefined);
});

/** An empty database: a new PostgreSQL database, or a new PGlite data directory. */
async function freshDatabase(): Promise<FreshDatabase> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "vitrine-migrate-"));
  if (onPostgres) {
    const adminUrl = process.env.TEST_DATABASE_URL!;
    const name = `vitrine_migrate_${randomBytes(6).toString("hex")}`;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    const url = withDatabase(adminUrl, name);
    const handles: Db[] = [];
    const fresh: FreshDatabase = {
      open() {
        const db = openPostgres(url);
        handles.push(db);
        return Promise.resolve(db);
      },
      async release() {
        await Promise.all(handles.splice(0).map((db) => db.close().catch(() => undefined)));
      },
      env: { DATABASE_URL: url, DATA_DIR: dataDir },
      async drop() {
        await fresh.release();
        const cleanup = new pg.Client({ connectionString: adminUrl });
        await cleanup.connect();
        await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await cleanup.end();
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
    cleanups.push(() => fresh.drop());
    return fresh;
  }
  cpSync(inject("pgliteEmptyTemplate"), path.join(dataDir, "pgdata"), { recursive: true });
  let handle: Db | null = null;
  const fresh: FreshDatabase = {
    async open() {
      handle ??= await openPglite(dataDir);
      return handle;
    },
    async release() {
      await handle?.close().catch(() => undefined);
      handle = null;
    },
    env: { DATA_DIR: dataDir },
    async drop() {
      await fresh.release();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  cleanups.push(() => fresh.drop());
  return fresh;
}

async function recorded(db: Db): Promise<Array<{ version: number; name: string }>> {
  const { rows } = await db.query<{ version: number; name: string }>("SELECT version, name FROM schema_migrations ORDER BY version");
  return rows;
}

/**
 * A bucket written the way the schema before migration 032 takes it (no `names` column): createTestBucket writes
 * today's columns, which an older schema lacks.
 */
async function oldSchemaBucket(
  db: Db,
  jsonSchema: object = { type: "object", properties: { title: { type: "string" } } },
): Promise<{ id: string }> {
  const slug = `old-${randomBytes(4).toString("hex")}`;
  const { rows } = await db.query<{ id: string }>(
    "INSERT INTO buckets (slug, name, singleton, private, collection_name, json_schema, locales) VALUES ($1, $1, false, false, $1, $2, $3) RETURNING id",
    [slug, jsonSchema, ["nl", "en"]],
  );
  return rows[0]!;
}

async function relationExists(db: Db, name: string): Promise<boolean> {
  const { rows } = await db.query<{ exists: boolean }>("SELECT to_regclass($1) IS NOT NULL AS exists", [`public.${name}`]);
  return rows[0]!.exists;
}

describe("migrations", () => {
  it("are applied in order on an empty database and recorded in schema_migrations, with their names", async () => {
    const db = await (await freshDatabase()).open();
    expect(await migrate(db)).toEqual(ALL_VERSIONS);
    expect(ALL_VERSIONS).toEqual([...ALL_VERSIONS].sort((a, b) => a - b));
    expect(await recorded(db)).toEqual(MIGRATIONS.map(({ version, name }) => ({ version, name })));
    const { rows } = await db.query<{ applied: boolean }>("SELECT bool_and(applied_at IS NOT NULL) AS applied FROM schema_migrations");
    expect(rows[0]!.applied).toBe(true);
    for (const table of ["users", "sessions", "invitations", "rate_limits", "buckets", "contents", "versions"]) {
      expect(await relationExists(db, table), table).toBe(true);
    }
  });

  it("are not applied again: a second run does nothing", async () => {
    const db = await (await freshDatabase()).open();
    await migrate(db);
    const before = await db.query("SELECT version, applied_at FROM schema_migrations ORDER BY version");
    expect(await migrate(db)).toEqual([]);
    const after = await db.query("SELECT version, applied_at FROM schema_migrations ORDER BY version");
    expect(after.rows).toEqual(before.rows);
  });

  it("on a database with nothing to apply, are checked with one statement: no transaction, no lock, no CREATE TABLE", async () => {
    const db = await (await freshDatabase()).open();
    await migrate(db);
    const statements: string[] = [];
    let transactions = 0;
    const counting: Db = {
      ...db,
      query: (sql, params) => (statements.push(sql), db.query(sql, params)),
      exec: (sql) => (statements.push(sql), db.exec(sql)),
      transaction: (fn) => (transactions++, db.transaction(fn)),
    };
    expect(await migrate(counting)).toEqual([]);
    expect(statements).toHaveLength(1);
    expect(transactions).toBe(0);
  });

  it("apply only the new ones when the list grows", async () => {
    const db = await (await freshDatabase()).open();
    await migrate(db);
    const next = { version: 10_000, name: "later_feature", sql: "CREATE TABLE later_feature (id integer PRIMARY KEY);" };
    expect(await migrate(db, [...MIGRATIONS, next])).toEqual([10_000]);
    expect(await relationExists(db, "later_feature")).toBe(true);
    expect((await recorded(db)).at(-1)).toEqual({ version: 10_000, name: "later_feature" });
  });

  it("run in one transaction: a failing migration leaves nothing of the batch behind, and a later run starts over", async () => {
    const db = await (await freshDatabase()).open();
    const broken = { version: 10_000, name: "broken", sql: "CREATE TABLE half_done (id integer); SELECT * FROM no_such_table;" };
    await expect(migrate(db, [...MIGRATIONS, broken])).rejects.toThrow(/no_such_table/);
    expect(await relationExists(db, "users")).toBe(false);
    expect(await relationExists(db, "half_done")).toBe(false);
    expect(await relationExists(db, "schema_migrations")).toBe(false);
    expect(await migrate(db)).toEqual(ALL_VERSIONS);
  });

  it("027 stores the search text of every document saved before it, from its latest version only, and drops the index over all versions", async () => {
    const db = await (await freshDatabase()).open();
    await migrate(
      db,
      MIGRATIONS.filter((migration) => migration.version < 27),
    );
    const bucket = await oldSchemaBucket(db, { type: "object", properties: { name: { type: "string" }, year: { type: "integer" } } });
    await db.query(
      `WITH c AS (INSERT INTO contents (content_id, bucket_id, latest_version_id) VALUES ($1, $2, $4))
       INSERT INTO versions (version_id, content_id, data) VALUES ($3, $1, '{"name": "Zandvoort"}'), ($4, $1, '{"name": "Mesdag", "year": 1881}')`,
      [randomUUID(), bucket.id, randomUUID(), randomUUID()],
    );
    expect(
      await migrate(
        db,
        MIGRATIONS.filter((migration) => migration.version <= 27),
      ),
    ).toEqual([27]);
    const { rows } = await db.query<{ text: string }>("SELECT search_text AS text FROM contents WHERE bucket_id = $1", [bucket.id]);
    expect(rows).toEqual([{ text: "Mesdag 1881" }]);
    expect(await relationExists(db, "versions_search_trgm_idx")).toBe(false);
    expect(await relationExists(db, "contents_search_trgm_idx")).toBe(true);
    // Nothing may write a contents row without its text: a search would never find it.
    await expect(
      db.query("INSERT INTO contents (content_id, bucket_id, latest_version_id) VALUES ($1, $2, $3)", [
        randomUUID(),
        bucket.id,
        randomUUID(),
      ]),
    ).rejects.toThrow(/search_text/);
  });

  it("028 moves each bucket's document count into its count slots and drops the column", async () => {
    const db = await (await freshDatabase()).open();
    await migrate(
      db,
      MIGRATIONS.filter((migration) => migration.version < 28),
    );
    const [full, empty] = [await oldSchemaBucket(db), await oldSchemaBucket(db)];
    for (const name of ["Mesdag", "Israëls"]) {
      const [contentId, versionId] = [randomUUID(), randomUUID()];
      await db.query(
        `WITH c AS (INSERT INTO contents (content_id, bucket_id, latest_version_id, search_text) VALUES ($1, $2, $3, $4))
         INSERT INTO versions (version_id, content_id, data) VALUES ($3, $1, jsonb_build_object('name', $4::text))`,
        [contentId, full.id, versionId, name],
      );
    }
    expect(
      await migrate(
        db,
        MIGRATIONS.filter((migration) => migration.version <= 28),
      ),
    ).toEqual([28]);
    const { rows } = await db.query<{ bucketId: string; documents: number }>(
      `SELECT bucket_id AS "bucketId", sum(documents)::int AS documents FROM bucket_document_counts WHERE bucket_id = ANY ($1::uuid[]) GROUP BY bucket_id`,
      [[full.id, empty.id]],
    );
    expect(rows).toEqual([{ bucketId: full.id, documents: 2 }]);
    const { rows: columns } = await db.query(
      "SELECT 1 FROM information_schema.columns WHERE table_name = 'buckets' AND column_name = 'content_count'",
    );
    expect(columns).toEqual([]);
  });

  it("029 stores every document's search text in lower case, and a search in any case still finds it", async () => {
    const db = await (await freshDatabase()).open();
    await migrate(
      db,
      MIGRATIONS.filter((migration) => migration.version < 29),
    );
    const bucket = await oldSchemaBucket(db);
    const { contentId } = await createContent(db, bucket.id, { title: "Zeegezicht bij Scheveningen", maker: "MESDAG" }, null);
    const storedWords = async () => {
      const { rows } = await db.query<{ text: string }>("SELECT search_text AS text FROM contents WHERE content_id = $1", [contentId]);
      return rows[0]!.text.split(" ").sort();
    };
    expect(await storedWords()).toEqual(["MESDAG", "Scheveningen", "Zeegezicht", "bij"]);
    expect(
      await migrate(
        db,
        MIGRATIONS.filter((migration) => migration.version <= 29),
      ),
    ).toEqual([29]);
    expect(await storedWords()).toEqual(["bij", "mesdag", "scheveningen", "zeegezicht"]);
    for (const search of ["Mesdag", "ZEEGEZICHT bij"]) {
      expect((await listContents(db, bucket.id, { limit: 20, search })).map((version) => version.contentId)).toEqual([contentId]);
    }
  });

  it("033 indexes versions by time for the activity log, and admin_activity takes a document's delete (older rows stay)", async () => {
    const db = await (await freshDatabase()).open();
    await migrate(
      db,
      MIGRATIONS.filter((migration) => migration.version < 33),
    );
    await db.query("INSERT INTO admin_activity (actor_name, area, action, subject) VALUES ('Ada', 'bucket', 'created', 'paintings')");
    const deleted = "INSERT INTO admin_activity (actor_name, area, action, subject) VALUES ('Ada', 'document', 'deleted', 'Mesdag')";
    await expect(db.query(deleted)).rejects.toThrow(/admin_activity_area_check/);
    expect(await relationExists(db, "versions_created_idx")).toBe(false);
    expect(
      await migrate(
        db,
        MIGRATIONS.filter((migration) => migration.version <= 33),
      ),
    ).toEqual([33]);
    await db.query(deleted);
    const { rows } = await db.query<{ area: string }>("SELECT area FROM admin_activity ORDER BY area");
    expect(rows).toEqual([{ area: "bucket" }, { area: "document" }]);
    await expect(
      db.query("INSERT INTO admin_activity (actor_name, area, action, subject) VALUES ('Ada', 'nonsense', 'x', 'y')"),
    ).rejects.toThrow(/admin_activity_area_check/);
    expect(await relationExists(db, "versions_created_idx")).toBe(true);
  });

  it("034 publishes every document's newest version as it was served, and gives publish to every user and open invitation", async () => {
    const db = await (await freshDatabase()).open();
    await migrate(
      db,
      MIGRATIONS.filter((migration) => migration.version < 34),
    );
    const editor = await createUser(db, {
      name: "Ed",
      email: "ed@example.test",
      password: "a long password",
      permissions: ["user"],
      buckets: null,
    });
    const { rows: buckets } = await db.query<{ id: string }>(
      `INSERT INTO buckets (slug, name, collection_name, json_schema) VALUES ('works', 'Works', 'works', '{"type":"object"}') RETURNING id`,
    );
    const bucketId = buckets[0]!.id;
    const first = await createContent(db, bucketId, { title: "One" }, editor.id);
    await createContent(db, bucketId, { title: "Two" }, editor.id);
    await db.query(`INSERT INTO invitations (code_hash, permissions, expires_at) VALUES ('open', '{user}', now() + interval '1 day')`);
    await db.query(
      `INSERT INTO invitations (code_hash, permissions, expires_at, used_at) VALUES ('used', '{user}', now() + interval '1 day', now())`,
    );
    await db.query(
      `INSERT INTO webhooks (url, secret, events, all_buckets) VALUES ('https://example.test/a', 's', '{document.saved}', true)`,
    );
    await db.query(
      `INSERT INTO webhooks (url, secret, events, all_buckets) VALUES ('https://example.test/b', 's', '{document.deleted}', true)`,
    );
    const served = await db.query(`SELECT content_id, latest_version_id, updated_at FROM contents ORDER BY content_id`);

    expect(
      await migrate(
        db,
        MIGRATIONS.filter((migration) => migration.version <= 34),
      ),
    ).toEqual([34]);
    // What the delivery API reads after (the published version, and published_at as its updatedAt) is what it read before.
    const published = await db.query(
      `SELECT content_id, published_version_id AS latest_version_id, published_at AS updated_at FROM contents ORDER BY content_id`,
    );
    expect(published.rows).toEqual(served.rows);
    expect((await db.query(`SELECT count(*)::int AS n FROM contents WHERE unpublished_at IS NOT NULL`)).rows[0]).toEqual({ n: 0 });
    expect((await db.query(`SELECT permissions FROM users WHERE id = $1`, [editor.id])).rows[0]).toEqual({
      permissions: ["user", "publish"],
    });
    const invitations = await db.query(`SELECT code_hash, permissions FROM invitations ORDER BY code_hash`);
    expect(invitations.rows).toEqual([
      { code_hash: "open", permissions: ["user", "publish"] },
      { code_hash: "used", permissions: ["user"] },
    ]);
    const webhooks = await db.query(`SELECT url, events FROM webhooks ORDER BY url`);
    expect(webhooks.rows).toEqual([
      { url: "https://example.test/a", events: ["document.saved", "document.published", "document.unpublished"] },
      { url: "https://example.test/b", events: ["document.deleted"] },
    ]);
    // A save after the migration leaves the published version where it was.
    await db.query(`UPDATE contents SET latest_version_id = gen_random_uuid() WHERE content_id = $1`, [first.contentId]);
    const after = await db.query<{ published: string }>(`SELECT published_version_id AS published FROM contents WHERE content_id = $1`, [
      first.contentId,
    ]);
    expect(after.rows[0]!.published).toBe(first.versionId);
  });

  it("035 adds releases and their items, a publication's release, and release events beside document ones in the outbox", async () => {
    const db = await (await freshDatabase()).open();
    await migrate(
      db,
      MIGRATIONS.filter((migration) => migration.version < 35),
    );
    const { rows: buckets } = await db.query<{ id: string }>(
      `INSERT INTO buckets (slug, name, collection_name, json_schema) VALUES ('works', 'Works', 'works', '{"type":"object"}') RETURNING id`,
    );
    const doc = await createContent(db, buckets[0]!.id, { title: "One" }, null);
    const { rows: hooks } = await db.query<{ id: string }>(
      `INSERT INTO webhooks (url, secret, events, all_buckets) VALUES ('https://example.test/a', 's', '{document.saved}', true) RETURNING id`,
    );
    await db.query(
      `INSERT INTO webhook_deliveries (webhook_id, event, bucket_slug, content_id, version_id) VALUES ($1, 'document.saved', 'works', $2, $3)`,
      [hooks[0]!.id, doc.contentId, doc.versionId],
    );
    expect(await relationExists(db, "releases")).toBe(false);

    expect(
      await migrate(
        db,
        MIGRATIONS.filter((migration) => migration.version <= 35),
      ),
    ).toEqual([35]);
    const { rows: releases } = await db.query<{ id: string; state: string }>(
      `INSERT INTO releases (name, created_by_name) VALUES ('Opening', 'Ada') RETURNING id, state`,
    );
    const release = releases[0]!;
    expect(release.state).toBe("open");
    await expect(db.query(`UPDATE releases SET state = 'nonsense' WHERE id = $1`, [release.id])).rejects.toThrow(/releases_state_check/);
    await expect(db.query(`UPDATE releases SET state = 'scheduled' WHERE id = $1`, [release.id])).rejects.toThrow(/check/);
    await db.query(`INSERT INTO release_items (release_id, content_id, bucket_id) VALUES ($1, $2, $3)`, [
      release.id,
      doc.contentId,
      buckets[0]!.id,
    ]);
    await expect(
      db.query(`INSERT INTO release_items (release_id, content_id, bucket_id) VALUES ($1, $2, $3)`, [
        release.id,
        doc.contentId,
        buckets[0]!.id,
      ]),
    ).rejects.toThrow(/release_items_pkey/);
    // The older delivery is kept as it was; a release event carries a release and no document, a document event still needs one.
    expect((await db.query(`SELECT event, release_id FROM webhook_deliveries`)).rows).toEqual([
      { event: "document.saved", release_id: null },
    ]);
    await db.query(`INSERT INTO webhook_deliveries (webhook_id, event, release_id) VALUES ($1, 'release.published', $2)`, [
      hooks[0]!.id,
      release.id,
    ]);
    await expect(
      db.query(`INSERT INTO webhook_deliveries (webhook_id, event) VALUES ($1, 'release.rolled_back')`, [hooks[0]!.id]),
    ).rejects.toThrow(/webhook_deliveries_payload_check/);
    await expect(
      db.query(`INSERT INTO webhook_deliveries (webhook_id, event, release_id) VALUES ($1, 'document.published', $2)`, [
        hooks[0]!.id,
        release.id,
      ]),
    ).rejects.toThrow(/webhook_deliveries_payload_check/);
    await db.query(`INSERT INTO publications (content_id, bucket_id, version_id, actor_name, release_id) VALUES ($1, $2, $3, 'Ada', $4)`, [
      doc.contentId,
      buckets[0]!.id,
      doc.versionId,
      release.id,
    ]);
    // A deleted document leaves every release.
    await db.query(`DELETE FROM contents WHERE content_id = $1`, [doc.contentId]);
    expect((await db.query(`SELECT count(*)::int AS n FROM release_items`)).rows[0]).toEqual({ n: 0 });
    expect(await relationExists(db, "releases_due_idx")).toBe(true);
  });

  it("036 gives API clients a preview flag (off for existing ones) and lets a shareable link point at a release", async () => {
    const db = await (await freshDatabase()).open();
    await migrate(
      db,
      MIGRATIONS.filter((migration) => migration.version < 36),
    );
    const { rows: buckets } = await db.query<{ id: string }>(
      `INSERT INTO buckets (slug, name, collection_name, json_schema) VALUES ('works', 'Works', 'works', '{"type":"object"}') RETURNING id`,
    );
    const bucketId = buckets[0]!.id;
    const doc = await createContent(db, bucketId, { title: "One" }, null);
    const owner = await createUser(db, {
      name: "Ada",
      email: "ada@example.test",
      password: "a long password",
      permissions: ["user"],
      buckets: null,
    });
    await db.query(`INSERT INTO api_clients (name, secret_hash) VALUES ('Kiosk', 'x')`);
    await db.query(
      `INSERT INTO shareables (token_hash, bucket_id, content_id, created_by, expires_at) VALUES ('old', $1, $2, $3, now() + interval '1 day')`,
      [bucketId, doc.contentId, owner.id],
    );

    expect(
      await migrate(
        db,
        MIGRATIONS.filter((migration) => migration.version <= 36),
      ),
    ).toEqual([36]);
    // Existing clients, and new ones unless told, do not preview.
    expect((await db.query(`SELECT name, preview FROM api_clients`)).rows).toEqual([{ name: "Kiosk", preview: false }]);
    await db.query(`INSERT INTO api_clients (name, secret_hash) VALUES ('New', 'y')`);
    expect((await db.query(`SELECT preview FROM api_clients WHERE name = 'New'`)).rows).toEqual([{ preview: false }]);
    // The document link is kept as it was; a link names a document or a release, never both nor neither.
    expect((await db.query(`SELECT token_hash, release_id FROM shareables`)).rows).toEqual([{ token_hash: "old", release_id: null }]);
    const { rows: releases } = await db.query<{ id: string }>(
      `INSERT INTO releases (name, created_by_name) VALUES ('Opening', 'Ada') RETURNING id`,
    );
    const releaseId = releases[0]!.id;
    await db.query(
      `INSERT INTO shareables (token_hash, release_id, created_by, expires_at) VALUES ('rel', $1, $2, now() + interval '1 day')`,
      [releaseId, owner.id],
    );
    await expect(
      db.query(`INSERT INTO shareables (token_hash, created_by, expires_at) VALUES ('none', $1, now() + interval '1 day')`, [owner.id]),
    ).rejects.toThrow(/shareables_target_check/);
    await expect(
      db.query(
        `INSERT INTO shareables (token_hash, release_id, bucket_id, content_id, created_by, expires_at)
         VALUES ('both', $1, $2, $3, $4, now() + interval '1 day')`,
        [releaseId, bucketId, doc.contentId, owner.id],
      ),
    ).rejects.toThrow(/shareables_target_check/);
    // A deleted release takes its links with it.
    await db.query(`DELETE FROM releases WHERE id = $1`, [releaseId]);
    expect((await db.query(`SELECT token_hash FROM shareables ORDER BY token_hash`)).rows).toEqual([{ token_hash: "old" }]);
    expect(await relationExists(db, "shareables_release_idx")).toBe(true);
  });

  it("038 stores each published document's published text for the delivery API's search, and none for the others", async () => {
    const db = await (await freshDatabase()).open();
    await migrate(
      db,
      MIGRATIONS.filter((migration) => migration.version < 38),
    );
    const { rows: buckets } = await db.query<{ id: string }>(
      `INSERT INTO buckets (slug, name, collection_name, json_schema) VALUES ('works', 'Works', 'works', '{"type":"object"}') RETURNING id`,
    );
    const bucketId = buckets[0]!.id;
    const newest = await createContent(db, bucketId, { title: "Newest Published" }, null);
    const older = await createContent(db, bucketId, { title: "Older Published" }, null);
    const draft = await createContent(db, bucketId, { title: "Never published" }, null);
    await db.query(`UPDATE contents SET published_version_id = latest_version_id WHERE content_id = ANY ($1::uuid[])`, [
      [newest.contentId, older.contentId],
    ]);
    // A newer version, written as the schema of 037 has it (today's saveVersion writes columns of later migrations).
    await db.query(
      `WITH v AS (INSERT INTO versions (content_id, base_version_id, data) VALUES ($1, $2, '{"title": "Saved since"}') RETURNING version_id)
       UPDATE contents SET latest_version_id = (SELECT version_id FROM v) WHERE content_id = $1`,
      [older.contentId, older.versionId],
    );

    expect(
      await migrate(
        db,
        MIGRATIONS.filter((migration) => migration.version <= 38),
      ),
    ).toEqual([38]);
    const { rows } = await db.query<{ contentId: string; text: string | null }>(
      `SELECT content_id AS "contentId", published_search_text AS text FROM contents`,
    );
    const textOf = (contentId: string) => rows.find((row) => row.contentId === contentId)?.text;
    expect(textOf(newest.contentId)).toBe("newest published");
    expect(textOf(older.contentId)).toBe("older published");
    expect(textOf(draft.contentId)).toBeNull();
    expect(await relationExists(db, "contents_published_search_trgm_idx")).toBe(true);
  });

  it("applied at once by two callers on one database run once", async () => {
    const fresh = await freshDatabase();
    const [first, second] = [await fresh.open(), await fresh.open()];
    // The first migration sleeps, so the two runs certainly overlap.
    const slow = [
      { version: 1, name: "slow_start", sql: "CREATE TABLE slow_start (id integer); SELECT pg_sleep(0.3);" },
      ...MIGRATIONS.map((m) => ({ ...m, version: m.version + 1 })),
    ];
    const results = await Promise.all([migrate(first, slow), migrate(second, slow)]);
    const versions = slow.map((migration) => migration.version);
    expect(results).toContainEqual(versions);
    expect(results).toContainEqual([]);
    expect((await recorded(first)).map((row) => row.version)).toEqual(versions);
  });

  it.skipIf(!onPostgres)(
    "two servers starting at once on a fresh PostgreSQL database migrate it once, and both serve (PostgreSQL only: PGlite has one process per data directory)",
    async () => {
      const fresh = await freshDatabase();
      const servers = await Promise.all([startBuiltServer(fresh.env), startBuiltServer(fresh.env)]);
      cleanups.push(() => Promise.all(servers.map((server) => server.close())).then(() => undefined));
      const db = await fresh.open();
      expect(await recorded(db)).toEqual(MIGRATIONS.map(({ version, name }) => ({ version, name })));
      for (const server of servers) {
        const health = await fetch(`${server.url}/healthz`);
        expect(health.status).toBe(200);
        expect(await health.json()).toMatchObject({ status: "ok", database: "ok", databaseKind: "postgres" });
      }
    },
  );

  it("a server restarted on an existing database migrates nothing and keeps its data", async () => {
    const fresh = await freshDatabase();
    await (await startBuiltServer(fresh.env)).close();
    const db = await fresh.open();
    await createUser(db, { name: "Kept", email: "kept@example.test", password: "a long password", permissions: ["user"], buckets: null });
    const snapshot = async () => {
      const handle = await fresh.open();
      const migrations = await handle.query("SELECT version, name, applied_at FROM schema_migrations ORDER BY version");
      const users = await handle.query("SELECT email FROM users ORDER BY email");
      await fresh.release();
      return { migrations: migrations.rows, users: users.rows };
    };
    const before = await snapshot();
    expect(before.users).toEqual([{ email: "kept@example.test" }]);
    await (await startBuiltServer(fresh.env)).close();
    expect(await snapshot()).toEqual(before);
  }, 90_000); // two server processes, each opening the database
});

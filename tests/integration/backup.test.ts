import { createHash } from "node:crypto";
import { createReadStream, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Readable } from "node:stream";
import pg from "pg";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { RunningServer } from "@server/app";
import type { BackupManifest } from "@server/backup/archive";
import { openPglite, openPostgres, type Db } from "@server/db/client";
import { MIGRATIONS } from "@server/db/migrate";
import { readBundle } from "@tests/support/bundle";
import { runVitrine } from "@tests/support/cli";
import { createTestBucket, mediaRulesBucket, startBuiltServer } from "@tests/support/fixtures";
import { createTestUser, get, postJson, signIn } from "@tests/support/http";
import { pngOfSize, upload, videoOf } from "@tests/support/media-fixtures";
import { startS3Server, type TestS3Server } from "@tests/support/s3-server";
import { createEmptyPostgresDatabase, startTestServer, TEST_SESSION_SECRET, type TestServer } from "@tests/support/server";
import { version as vitrineVersion } from "../../package.json";

/*
 * `npm run vitrine -- backup` and `restore` as real processes: a backup taken while the server runs (on PGlite
 * through that server, on PostgreSQL beside it), restored into an empty data directory or database and a fresh
 * media store (the file system, or S3 through s3rver), and a server started on the result holds every user,
 * document, version and media file. Damaged archives and non-empty targets are refused, leaving the target empty.
 */

const onPostgres = process.env.VITRINE_TEST_DB === "postgres";
const adminUrl = process.env.TEST_DATABASE_URL;
const work = mkdtempSync(path.join(tmpdir(), "vitrine-backup-test-"));
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

let source: TestServer;
let sourceEnv: Record<string, string>;
/** The source's rows and stored files when the backup was taken (the backup of beforeAll). */
let expected: Awaited<ReturnType<typeof rowsOf>>;
let expectedFiles: Map<string, string>;
let backupFile: string;
let signInAs: { email: string; password: string };
let documents: Array<{ slug: string; contentId: string; versions: Array<{ id: string; title: string }> }>;
let image: { contentId: string; sha256: string };

const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");

async function sha256Of(stream: Readable): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of stream) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

/** What a restore must bring back, row for row (sessions and jobs aside). */
async function rowsOf(db: Db) {
  const all = async (sql: string) => (await db.query(sql)).rows;
  return {
    users: await all("SELECT id, email, name, password_hash, permissions FROM users ORDER BY id"),
    buckets: await all("SELECT id, slug, name, json_schema FROM buckets ORDER BY id"),
    contents: await all("SELECT content_id, bucket_id, latest_version_id FROM contents ORDER BY content_id"),
    versions: await all("SELECT version_id, content_id, data FROM versions ORDER BY version_id"),
    media: await all("SELECT id, content_id, storage_key, details, size FROM media ORDER BY id"),
  };
}

/** Every stored file the media rows name, as backup.ts lists them. */
async function mediaKeysOf(db: Db): Promise<string[]> {
  const { rows } = await db.query<{ key: string }>(
    `SELECT DISTINCT key FROM (
       SELECT storage_key AS key FROM media
       UNION ALL SELECT details->>'renditionKey' FROM media WHERE details ? 'renditionKey'
       UNION ALL SELECT details->>'customStillKey' FROM media WHERE details ? 'customStillKey'
       UNION ALL SELECT jsonb_array_elements_text(details->'stillKeys') FROM media WHERE jsonb_typeof(details->'stillKeys') = 'array'
     ) named ORDER BY key`,
  );
  return rows.map((row) => row.key);
}

interface Target {
  env: Record<string, string>;
  dataDir: string;
  mediaDir: string;
  databaseUrl?: string;
}

/** An empty target: a new DATA_DIR (no pgdata) or a new PostgreSQL database from template0, and a new media folder. */
async function emptyTarget(extra: Record<string, string> = {}): Promise<Target> {
  const dataDir = mkdtempSync(path.join(work, "data-"));
  const mediaDir = mkdtempSync(path.join(work, "media-"));
  const env = { DATA_DIR: dataDir, MEDIA_DIR: mediaDir, SESSION_SECRET: TEST_SESSION_SECRET, ...extra };
  if (!onPostgres || !adminUrl) return { env, dataDir, mediaDir };
  const database = await createEmptyPostgresDatabase("vitrine_restore");
  cleanups.push(() => database.drop());
  const databaseUrl = database.url;
  return { env: { ...env, DATABASE_URL: databaseUrl }, dataDir, mediaDir, databaseUrl };
}

/** Whether the target is as empty as before: no database files or tables, no stored media. */
async function expectEmpty(target: Target): Promise<void> {
  const files = path.join(target.mediaDir, "files");
  expect(existsSync(files) ? readdirSync(files) : []).toEqual([]);
  if (!target.databaseUrl) {
    const pgdata = path.join(target.dataDir, "pgdata");
    expect(existsSync(pgdata) ? readdirSync(pgdata) : []).toEqual([]);
    return;
  }
  const client = new pg.Client({ connectionString: target.databaseUrl });
  await client.connect();
  const { rows } = await client.query<{ n: number }>(
    "SELECT count(*)::int AS n FROM pg_class c JOIN pg_namespace s ON s.oid = c.relnamespace WHERE s.nspname = 'public' AND c.relkind = 'r'",
  );
  await client.end();
  expect(rows[0]!.n).toBe(0);
}

async function startRestored(env: Record<string, string>): Promise<RunningServer> {
  const server = await startBuiltServer({ ...env, MEDIA_WORKERS: "0" });
  cleanups.push(() => server.close());
  return server;
}

const backup = (env: Record<string, string>, out: string) => runVitrine(env, "backup", "--out", out);
const restore = (env: Record<string, string>, from: string) => runVitrine(env, "restore", "--from", from);

async function saveDocument(slug: string, cookie: string, content: Record<string, unknown>) {
  const response = await postJson(source.url, `/api/v1/buckets/${slug}/save`, { content, collection: slug }, cookie);
  const text = await response.text();
  expect(response.status, text).toBe(content.contentId ? 200 : 201);
  return JSON.parse(text) as { contentId: string; _id: string };
}

/** The media bucket's rules: small generated images and videos pass. */
const SMALL_MEDIA = { minWidth: 96, minHeight: 96 };

async function uploadImage(slug: string, cookie: string, width: number) {
  const data = await pngOfSize(width, width);
  const response = await upload(
    source.url,
    "image",
    cookie,
    { bucket: slug, uid: "u1", properties: JSON.stringify(SMALL_MEDIA) },
    { data, name: "photo.png" },
  );
  const text = await response.text();
  expect(response.status, text).toBe(200);
  return { ...(JSON.parse(text) as Array<{ contentId: string; _id: string }>)[0]!, sha256: sha256(data) };
}

/** Users, two buckets, documents with several versions, an image and a converted video, on a running server. */
async function populate(): Promise<void> {
  const editor = await createTestUser(source.db, { permissions: ["user", "admin"] });
  await createTestUser(source.db);
  signInAs = { email: editor.email, password: editor.password };
  const cookie = await signIn(source.url, editor.email, editor.password);
  const notes = await createTestBucket(source.db);
  const withMedia = await mediaRulesBucket(source.db, SMALL_MEDIA);
  image = await uploadImage(withMedia.slug, cookie, 96);
  const video = await upload(
    source.url,
    "video",
    cookie,
    { bucket: withMedia.slug, uid: "u1", properties: JSON.stringify(SMALL_MEDIA) },
    { data: videoOf({ width: 160, height: 120, fps: 10, seconds: 1, codec: "mpeg4" }), name: "clip.mp4" },
  );
  expect(video.status).toBe(200);
  documents = [];
  for (const [slug, titles] of [
    [notes.slug, ["First", "First, revised", "First, final"]],
    [notes.slug, ["Second"]],
    [withMedia.slug, ["With media", "With media, revised"]],
  ] as const) {
    const extra = slug === withMedia.slug ? { image: image.contentId } : {};
    let saved = await saveDocument(slug, cookie, { title: titles[0], ...extra });
    const versions = [{ id: saved._id, title: titles[0] as string }];
    for (const title of titles.slice(1)) {
      saved = await saveDocument(slug, cookie, { contentId: saved.contentId, _id: saved._id, title, ...extra });
      versions.push({ id: saved._id, title });
    }
    documents.push({ slug, contentId: saved.contentId, versions });
  }
  // The video's rendition and stills are files the backup carries too: wait for its conversion.
  const jobs = async () =>
    (await source.db.query<{ status: string }>("SELECT DISTINCT status FROM jobs ORDER BY status")).rows.map((row) => row.status);
  await until(async () => (await jobs()).every((status) => status === "completed" || status === "failed"), "the video's conversion");
  expect(await jobs()).toEqual(["completed"]);
}

/** Polls `done` until it holds, up to a deadline. */
async function until(done: () => Promise<boolean>, what: string, timeoutMs = 45_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

beforeAll(async () => {
  source = await startTestServer({ env: { MEDIA_WORKERS: "1" } });
  sourceEnv = {
    DATA_DIR: source.database.dataDir,
    MEDIA_DIR: source.media.storage.root,
    SESSION_SECRET: TEST_SESSION_SECRET,
    ...(source.database.databaseUrl ? { DATABASE_URL: source.database.databaseUrl } : {}),
  };
  await populate();
  backupFile = path.join(work, "backup.tar");
  const result = await backup(sourceEnv, backupFile);
  expect(result, result.stderr).toMatchObject({ code: 0 });
  expect(result.stdout).toContain(`written to ${backupFile}`);
  expected = await rowsOf(source.db);
  expectedFiles = new Map();
  for (const key of await mediaKeysOf(source.db)) expectedFiles.set(key, await sha256Of(await source.media.storage.read(key)));
}, 120_000);

afterAll(async () => {
  await source.stop();
  rmSync(work, { recursive: true, force: true });
});

describe("a backup taken while the server runs", () => {
  it("restores into an empty target: a server started on it has every user, document, version and media file", async () => {
    const target = await emptyTarget();
    const restored = await restore(target.env, backupFile);
    expect(restored, restored.stderr).toMatchObject({ code: 0 });
    expect(restored.stdout).toContain(`Restored ${backupFile}`);
    expect(restored.stdout).toContain(`${expected.users.length} users, ${expected.buckets.length} buckets`);

    const server = await startRestored(target.env);
    expect(await rowsOf(server.db)).toEqual(expected);
    for (const [key, hash] of expectedFiles) expect(await sha256Of(await server.media.storage.read(key)), key).toBe(hash);
    expect(expectedFiles.size).toBeGreaterThanOrEqual(3); // the image, the video, its rendition and stills

    // Through the API, as its users see it: they sign in, and every version and the image are served.
    const cookie = await signIn(server.url, signInAs.email, signInAs.password);
    for (const document of documents) {
      for (const version of document.versions) {
        const response = await get(server.url, `/api/v1/buckets/${document.slug}/content/${document.contentId}/${version.id}`, cookie);
        expect(response.status).toBe(200);
        expect(await response.json()).toMatchObject({ title: version.title });
      }
    }
    const served = (await (await get(server.url, `/api/v1/buckets/image/content/${image.contentId}/latest`, cookie)).json()) as {
      url: string;
    };
    expect(sha256(Buffer.from(await (await get(server.url, served.url, cookie)).arrayBuffer()))).toBe(image.sha256);
  });

  it("lists every entry in its manifest, last, with its size and SHA-256", async () => {
    // The bundles' reader: it hashes every entry as it streams and requires manifest.json last.
    const archive = await readBundle(createReadStream(backupFile), { keepUpTo: 64 * 1024 });
    const manifest = archive.manifest as unknown as BackupManifest;
    const entries = archive.entries.slice(0, -1).map(({ path: name, size, sha256: hash }) => ({ path: name, size, sha256: hash }));
    expect(manifest.files).toEqual(entries);
    expect(entries[0]!.path).toBe(onPostgres ? "database/postgres.dump" : "database/pglite.tar.gz");
    expect(entries.slice(1).map((entry) => entry.path)).toEqual([...expectedFiles.keys()].map((key) => `media/${key}`));
    for (const entry of entries.slice(1)) expect(entry.sha256).toBe(expectedFiles.get(entry.path.slice("media/".length)));
    expect(manifest).toMatchObject({
      format: "vitrine-backup",
      formatVersion: 1,
      vitrineVersion,
      database: {
        kind: onPostgres ? "postgres" : "pglite",
        migration: { version: MIGRATIONS.at(-1)!.version, name: MIGRATIONS.at(-1)!.name },
      },
      counts: {
        users: expected.users.length,
        buckets: expected.buckets.length,
        documents: expected.contents.length,
        versions: expected.versions.length,
        media: expected.media.length,
        mediaFiles: expectedFiles.size,
      },
      missingMedia: [],
    });
  });
});

describe("restore refuses", () => {
  it("a target that is not empty, changing nothing", async () => {
    const before = await rowsOf(source.db);
    const refused = await restore(sourceEnv, backupFile);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(
      onPostgres ? /The database of DATABASE_URL is not empty/ : /pgdata is not empty: a restore goes into an empty data directory/,
    );
    expect(refused.stderr).not.toMatch(/\n\s+at /);
    expect(await rowsOf(source.db)).toEqual(before);
  });

  it("a damaged archive, naming the entry, and leaves the target empty", async () => {
    const bytes = readFileSync(backupFile);
    const [key] = [...expectedFiles.keys()];
    // A tar entry is a 512-byte header naming it, then its data.
    const header = bytes.indexOf(Buffer.from(`media/${key}\0`));
    expect(header % 512).toBe(0);
    bytes[header + 512 + 7]! ^= 0xff;
    const damaged = path.join(work, "damaged.tar");
    writeFileSync(damaged, bytes);
    const target = await emptyTarget();
    const refused = await restore(target.env, damaged);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      `The backup ${damaged} is damaged: media/${key} does not match the SHA-256 its manifest gives. Nothing was restored.`,
    );
    await expectEmpty(target);

    // Cut off before its manifest (a copy that stopped halfway).
    const manifestHeader = bytes.indexOf(Buffer.from("manifest.json\0"));
    const cut = path.join(work, "cut.tar");
    writeFileSync(cut, readFileSync(backupFile).subarray(0, manifestHeader));
    const incomplete = await restore(target.env, cut);
    expect(incomplete.code).toBe(1);
    expect(incomplete.stderr).toMatch(/incomplete/);
    expect(incomplete.stderr).not.toMatch(/\n\s+at /);
    await expectEmpty(target);
  });

  it("a backup of the other kind of database, saying which, before it looks at the target", async () => {
    const target = await emptyTarget();
    const { DATABASE_URL: _configured, ...withoutUrl } = target.env;
    // On PGlite's side the URL is never connected to: the archive's first entry settles it.
    const env = onPostgres ? withoutUrl : { ...target.env, DATABASE_URL: "postgres://nobody@127.0.0.1:1/none" };
    const refused = await restore(env, backupFile);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe(
      `${backupFile} is a backup of ${
        onPostgres
          ? "PostgreSQL, but this Vitrine is configured for the embedded database (PGlite): set DATABASE_URL to an empty PostgreSQL database"
          : "the embedded database (PGlite), but this Vitrine is configured for PostgreSQL: unset DATABASE_URL"
      } to restore it.\n`,
    );
    await expectEmpty(target);
  });
});

describe("a backup taken while saves go on", () => {
  it("holds every media file the backed-up database names, and the counts it states", async () => {
    const user = await createTestUser(source.db);
    const cookie = await signIn(source.url, user.email, user.password);
    const bucket = await createTestBucket(source.db, {
      jsonSchema: { type: "object", properties: { title: { type: "string" }, image: { type: "string", _ref: "b-image", ...SMALL_MEDIA } } },
    });
    // A property, which TypeScript does not narrow to its first value inside the loop below.
    const state = { saved: 0, saving: true };
    // On PGlite the backup runs in the server that serves these saves, and shares its time: a few dozen do.
    const MOST_SAVES = onPostgres ? Infinity : 40;
    const saves = (async () => {
      while (state.saving && state.saved < MOST_SAVES) {
        const image = await uploadImage(bucket.slug, cookie, 96 + (state.saved % 7));
        await saveDocument(bucket.slug, cookie, { title: `Busy ${state.saved}`, image: image.contentId });
        state.saved += 1;
      }
    })();
    await until(() => Promise.resolve(state.saved > 0), "the first save");
    const savedBefore = state.saved;
    const busyFile = path.join(work, "busy.tar");
    const result = await backup(sourceEnv, busyFile);
    const savedDuring = state.saved - savedBefore;
    state.saving = false;
    await saves;
    expect(result, result.stderr).toMatchObject({ code: 0 });
    expect(savedDuring, "saves went on while the backup was taken").toBeGreaterThan(0);

    const target = await emptyTarget();
    const restored = await restore(target.env, busyFile);
    expect(restored, restored.stderr).toMatchObject({ code: 0 });
    const db = target.databaseUrl ? openPostgres(target.databaseUrl) : await openPglite(target.dataDir);
    cleanups.push(() => db.close());
    const archive = await readBundle(createReadStream(busyFile), { keepUpTo: 64 * 1024 });
    const manifest = archive.manifest as unknown as BackupManifest;
    const inArchive = archive.entries.filter((entry) => entry.path.startsWith("media/")).map((entry) => entry.path.slice("media/".length));
    expect(manifest.missingMedia).toEqual([]);
    expect(inArchive).toEqual(await mediaKeysOf(db));
    const counts = (
      await db.query<{ media: number; documents: number }>(
        "SELECT (SELECT count(*) FROM media)::int AS media, (SELECT count(*) FROM contents)::int AS documents",
      )
    ).rows[0]!;
    expect(manifest.counts).toMatchObject(counts);
  });
});

describe("restoring into S3", () => {
  let s3: TestS3Server;
  beforeAll(async () => {
    s3 = await startS3Server();
  });
  afterAll(async () => {
    await s3.close();
  });

  it("puts a file-system backup's media into the bucket, and a server on S3 serves them", async () => {
    const target = await emptyTarget(s3.env);
    const restored = await restore(target.env, backupFile);
    expect(restored, restored.stderr).toMatchObject({ code: 0 });
    expect(restored.stdout).toContain(`${expectedFiles.size} files put into the media store`);
    expect(existsSync(path.join(target.mediaDir, "files")) ? readdirSync(path.join(target.mediaDir, "files")) : []).toEqual([]);

    const server = await startRestored(target.env);
    expect(server.media.storage.store.kind).toBe("s3");
    expect(await rowsOf(server.db)).toEqual(expected);
    for (const [key, hash] of expectedFiles) expect(await sha256Of(await server.media.storage.read(key)), key).toBe(hash);
  });
});

describe.runIf(onPostgres)("PostgreSQL's client tools", () => {
  it("names a missing or too old pg_dump and the version to install, and leaves no file behind", async () => {
    const { rows } = await source.db.query<{ num: string }>("SELECT current_setting('server_version_num') AS num");
    const major = Math.floor(Number(rows[0]!.num) / 10_000);
    const bin = mkdtempSync(path.join(work, "bin-"));
    const out = path.join(work, "never.tar");
    const missing = await backup({ ...sourceEnv, PATH: bin }, out);
    expect(missing).toMatchObject({
      code: 1,
      stderr: `pg_dump was not found on PATH: install PostgreSQL's client tools (version ${major} or later).\n`,
    });

    writeFileSync(path.join(bin, "pg_dump"), "#!/bin/sh\necho 'pg_dump (PostgreSQL) 9.6.24'\n", { mode: 0o755 });
    const old = await backup({ ...sourceEnv, PATH: bin }, out);
    expect(old).toMatchObject({
      code: 1,
      stderr: `pg_dump is version 9, older than the PostgreSQL server (${major}): install PostgreSQL ${major}'s client tools (Debian: postgresql-client-${major}) and put them on PATH.\n`,
    });
    expect(readdirSync(work).filter((name) => name.startsWith("never.tar") || name.startsWith(".vitrine-backup-"))).toEqual([]);
  });
});

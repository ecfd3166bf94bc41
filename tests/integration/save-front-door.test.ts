/**
 * One front door for every save (server/content/save.ts saveDocument): the edit form (no JavaScript), the JSON API
 * (which the bucket-form modal calls, with the editor's session), restoring a version, the demo seed and the CLI's
 * save-document give the same input the same saved document, and the same bad input the same errors.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { SCREEN_TABLE } from "@screens/table";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Bucket } from "@server/content/buckets";
import { restoreVersion } from "@server/content/history";
import { createContent, getLatestVersion } from "@server/content/store";
import type { User } from "@server/accounts/users";
import type { Services } from "@server/services";
import { DemoDocumentRefused, seedDocument } from "@server/seed";
import { BAD_DOCUMENTS, BAD_INPUT_SCHEMA, pageErrors, shownLikeAForm } from "@tests/support/bad-documents";
import { runVitrine } from "@tests/support/cli";
import { createTestBucket, signedInUser } from "@tests/support/fixtures";
import { sameOrigin } from "@tests/support/http";
import { startTestServer, type TestServer } from "@tests/support/server";

let server: TestServer;
let services: Services;
let bucket: Bucket;
let editor: Awaited<ReturnType<typeof signedInUser>>;
let files: string;

beforeAll(async () => {
  server = await startTestServer();
  services = { db: server.db, config: server.config, logger: server.logger, media: server.media, version: "test", screens: SCREEN_TABLE };
  bucket = await createTestBucket(server.db, { jsonSchema: BAD_INPUT_SCHEMA, locales: ["en"] });
  editor = await signedInUser(server.url, server.db);
  files = await mkdtemp(path.join(tmpdir(), "vitrine-front-door-"));
});
afterAll(async () => {
  await server.stop();
  await rm(files, { recursive: true, force: true });
});

const post = (pathname: string, type: string, body: string) =>
  fetch(`${server.url}${pathname}`, {
    method: "POST",
    redirect: "manual",
    headers: { "Content-Type": type, Cookie: editor.cookie, ...sameOrigin(server.url) },
    body,
  });

/** What a save answered, the same shape from every door: the saved data, or the errors by field. */
type Answer = { saved: Record<string, unknown> } | { errors: Record<string, string[]> };

const dataOf = (document: Record<string, unknown>) => {
  const { _id: _version, contentId: _document, ...data } = document;
  return data;
};

const savedData = async (contentId: string) => dataOf((await getLatestVersion(server.db, bucket.id, contentId))!.data);

async function throughApi(json: string): Promise<Answer> {
  const response = await post(`/api/v1/buckets/${bucket.slug}/save`, "application/json", json);
  const body = (await response.json()) as Record<string, unknown>;
  if (response.status === 201) return { saved: dataOf(body) };
  return { errors: body.errors as Record<string, string[]> };
}

/** The edit form's answer: the saved document's data, or the errors the re-rendered page shows. */
async function throughForm(form: string): Promise<{ saved: Record<string, unknown> } | { shown: Record<string, string> }> {
  const response = await post(`/b/${bucket.slug}/new`, "application/x-www-form-urlencoded", `__contentId=&__baseVersionId=&${form}`);
  if (response.status === 302 || response.status === 303) {
    const contentId = /\/b\/[^/]+\/([0-9a-f-]{36})/.exec(response.headers.get("location") ?? "")?.[1];
    return { saved: await savedData(contentId!) };
  }
  expect(response.status).toBe(400);
  return { shown: pageErrors(await response.text()) };
}

async function throughCli(json: string): Promise<Answer> {
  const content = (JSON.parse(json) as { content: Record<string, unknown> }).content;
  const file = path.join(files, `${crypto.randomUUID()}.json`);
  await writeFile(file, JSON.stringify(content));
  const env = { DATA_DIR: server.config.DATA_DIR, ...(server.config.DATABASE_URL ? { DATABASE_URL: server.config.DATABASE_URL } : {}) };
  const run = await runVitrine(env, "save-document", "--bucket", bucket.slug, "--as", editor.user.email, "--file", file);
  if (run.code === 0) return { saved: dataOf(JSON.parse(run.stdout) as Record<string, unknown>) };
  expect(run.code, run.stderr).toBe(1);
  return { errors: (JSON.parse(run.stderr) as { errors: Record<string, string[]> }).errors };
}

async function throughSeed(json: string): Promise<Answer> {
  const content = (JSON.parse(json) as { content: Record<string, unknown> }).content;
  const admin: User = { ...editor.user, permissions: ["user", "admin", "dev"] };
  try {
    return {
      saved: await savedData(await seedDocument({ db: server.db, media: server.media, screens: SCREEN_TABLE }, admin, bucket, content)),
    };
  } catch (error) {
    if (!(error instanceof DemoDocumentRefused)) throw error;
    return { errors: error.refusal.errors.byField };
  }
}

/** Restores a stored version holding `content` (written as it was once allowed) on top of a newer one. */
async function throughRestore(json: string): Promise<Answer> {
  const content = (JSON.parse(json) as { content: Record<string, unknown> }).content;
  const old = await createContent(server.db, bucket.id, content, editor.user.id);
  const { rows } = await server.db.query<{ versionId: string }>(`SELECT version_id AS "versionId" FROM versions WHERE content_id = $1`, [
    old.contentId,
  ]);
  const outcome = await restoreVersion(
    services,
    { user: editor.user, bucket, locale: "en" },
    { contentId: old.contentId, versionId: rows[0]!.versionId, baseVersionId: old.versionId },
  );
  if (outcome.kind === "restored") return { saved: await savedData(outcome.version.contentId) };
  if (outcome.kind === "invalid") return { errors: outcome.refusal.errors.byField };
  throw new Error(`restore answered ${outcome.kind}`);
}

describe("every save through the one front door", () => {
  it("saves the same document from the form, the API (and modal), a restore, the seed and the CLI", async () => {
    const json = `{"content":{"name":"Lamp","year":1920}}`;
    const expected = { saved: { name: "Lamp", year: 1920 } };
    expect(await throughApi(json)).toEqual(expected);
    expect(await throughForm("name=Lamp&year=1920")).toEqual(expected);
    expect(await throughRestore(json)).toEqual(expected);
    expect(await throughSeed(json)).toEqual(expected);
    expect(await throughCli(json)).toEqual(expected);
  });

  it.each(BAD_DOCUMENTS.map((bad) => [bad.label, bad] as const))("refuses %s with the same errors everywhere", async (_label, bad) => {
    const api = await throughApi(bad.json);
    expect(api).toHaveProperty("errors");
    const { errors } = api as { errors: Record<string, string[]> };
    expect(Object.keys(errors).length).toBeGreaterThan(0);
    expect(await throughForm(bad.form)).toEqual({ shown: shownLikeAForm(errors) });
    expect(await throughRestore(bad.json)).toEqual({ errors });
    expect(await throughSeed(bad.json)).toEqual({ errors });
    expect(await throughCli(bad.json)).toEqual({ errors });
  });
});

describe("the CLI's save-document", () => {
  it("says what is wrong with its bucket, user or file, and saves nothing", async () => {
    const env = { DATA_DIR: server.config.DATA_DIR, ...(server.config.DATABASE_URL ? { DATABASE_URL: server.config.DATABASE_URL } : {}) };
    const count = async () =>
      (await server.db.query<{ n: number }>("SELECT count(*)::int AS n FROM contents WHERE bucket_id = $1", [bucket.id])).rows[0]!.n;
    const before = await count();
    const notJson = path.join(files, "not-json.json");
    await writeFile(notJson, "{name: Lamp}");
    const list = path.join(files, "list.json");
    await writeFile(list, "[]");
    const large = path.join(files, "large.json");
    await writeFile(large, JSON.stringify({ name: "x".repeat(1024 * 1024) }));
    const fine = path.join(files, "fine.json");
    await writeFile(fine, `{"name":"Lamp"}`);
    const save = (...args: string[]) => runVitrine(env, "save-document", ...args);
    const cases: Array<[string[], string]> = [
      [["--bucket", "no-such-bucket", "--as", editor.user.email, "--file", fine], "No bucket no-such-bucket"],
      [["--bucket", bucket.slug, "--as", "nobody@museum.example", "--file", fine], "No active user with email nobody@museum.example"],
      [["--bucket", bucket.slug, "--as", editor.user.email, "--file", path.join(files, "missing.json")], "Cannot read"],
      [["--bucket", bucket.slug, "--as", editor.user.email, "--file", notJson], "is not JSON"],
      [["--bucket", bucket.slug, "--as", editor.user.email, "--file", list], "must hold one JSON object"],
      [["--bucket", bucket.slug, "--as", editor.user.email, "--file", large], "is larger than 1 MiB"],
      [["--bucket", bucket.slug, "--file", fine], "--as is required"],
    ];
    for (const [args, message] of cases) {
      const run = await save(...args);
      expect(run, message).toMatchObject({ code: 1, stderr: expect.stringContaining(message) });
    }
    expect(await count()).toBe(before);
  });
});

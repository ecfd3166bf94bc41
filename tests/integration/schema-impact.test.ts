import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Bucket } from "@server/content/buckets";
import { assessSchemaChange, checkSchemaSave } from "@server/content/schema-impact";
import { createContent, saveVersion } from "@server/content/store";
import { impactNeedsConfirmation, type ImpactProgress, type ImpactReport, type ImpactStreamLine } from "@core/schema/impact";
import { startTestServer, type TestServer } from "@tests/support/server";
import { get, postForm } from "@tests/support/http";
import { createTestBucket, decode, errorPage, page, signedInUser, seedDocuments } from "@tests/support/fixtures";

/*
 * The impact preview of a schema change (issue 11): the engine (server/content/schema-impact.ts), its NDJSON stream
 * (POST /settings/buckets/{slug}/impact/stream) and the page /settings/buckets/{slug}/impact, which also answers a
 * post without JavaScript. Guards, CSRF, refusals, and that nothing stored changes.
 */

const CURRENT_SCHEMA = {
  type: "object",
  properties: {
    title: { type: "string", title: "Title" },
    year: { type: "integer", title: "Year", minimum: 1000 },
    maker: { type: "string", title: "Maker" },
    rooms: {
      type: "array",
      items: { type: "object", properties: { name: { type: "string", title: "Name" }, capacity: { type: "integer", title: "Capacity" } } },
    },
  },
};

/** The change: title required, a lower maximum year, maker removed, rooms' capacity renamed to seats. */
const NEW_SCHEMA = {
  type: "object",
  required: ["title"],
  properties: {
    title: { type: "string", title: "Title" },
    year: { type: "integer", title: "Year", minimum: 1000, maximum: 1960 },
    rooms: {
      type: "array",
      items: { type: "object", properties: { name: { type: "string", title: "Name" }, seats: { type: "integer", title: "Seats" } } },
    },
  },
};

let server: TestServer;
let bucket: Bucket;
let admin: string;
let member: string;
const ids: Record<string, string> = {};
let origin: Record<string, string>;

beforeAll(async () => {
  server = await startTestServer();
  origin = { Origin: server.url };
  bucket = await createTestBucket(server.db, { name: "Museum rooms", jsonSchema: CURRENT_SCHEMA });
  const create = async (name: string, data: Record<string, unknown>) => {
    const created = await createContent(server.db, bucket.id, data, null);
    ids[name] = created.contentId;
    return created;
  };
  await create("alpha", {
    title: "Alpha",
    year: 1900,
    maker: "Mesdag",
    rooms: [
      { name: "Hall", capacity: 10 },
      { name: "Attic", capacity: 2 },
    ],
  });
  await create("beta", { title: "Beta", year: 1950, maker: "" });
  // Only the latest version counts: the first one would fail the new maximum, the latest does not.
  const gamma = await create("gamma", { title: "Gamma", year: 2005 });
  await saveVersion(server.db, {
    bucketId: bucket.id,
    contentId: gamma.contentId,
    baseVersionId: gamma.versionId,
    data: { title: "Gamma", year: 1955 },
    userId: null,
  });
  await create("delta", { title: "Delta", year: 2005 });
  await create("untitled", { year: 1930 });
  await create("fine", { title: "Fine", year: 1920 });
  // Another bucket's documents are not this bucket's.
  const other = await createTestBucket(server.db, { jsonSchema: CURRENT_SCHEMA });
  await createContent(server.db, other.id, { title: "Elsewhere", year: 3000, maker: "Someone" }, null);
  admin = (await signedInUser(server.url, server.db, { name: "Admin Ada", permissions: ["user", "admin"] })).cookie;
  member = (await signedInUser(server.url, server.db, { name: "Member Mia" })).cookie;
});
afterAll(() => server.stop());

const link = (name: string) => `/b/${bucket.slug}/${ids[name]}/latest`;
const impactPath = () => `/settings/buckets/${bucket.slug}/impact`;
const streamPath = () => `${impactPath()}/stream`;

function expectTheReport(report: ImpactReport) {
  expect(report.problems).toEqual([]);
  expect(report.checked).toBe(6);
  expect(report.failing).toBe(4);
  expect(report.groups.map(({ property, message, count }) => [property, message, count])).toEqual([
    ["maker", "Unknown field: maker", 2],
    ["rooms[].capacity", "Unknown field: capacity", 1],
    ["title", "This field is required", 1],
    ["year", "This value can't be more than 1960", 1],
  ]);
  const group = (property: string) => report.groups.find((candidate) => candidate.property === property)!;
  expect(group("year").documents).toEqual([{ contentId: ids.delta, title: "Delta", href: link("delta") }]);
  expect(group("title").documents).toEqual([{ contentId: ids.untitled, title: "", href: link("untitled") }]);
  expect(
    group("maker")
      .documents.map((document) => document.title)
      .sort(),
  ).toEqual(["Alpha", "Beta"]);
  // Beta's maker is empty: it fails (an unknown field) but holds no value there.
  expect(report.changes).toEqual([
    { kind: "removed", property: "maker", count: 1, documents: [{ contentId: ids.alpha, title: "Alpha", href: link("alpha") }] },
    {
      kind: "renamed",
      property: "rooms[].capacity",
      renamedTo: "rooms[].seats",
      count: 1,
      documents: [{ contentId: ids.alpha, title: "Alpha", href: link("alpha") }],
    },
  ]);
  expect(impactNeedsConfirmation(report)).toBe(true);
}

/** Every version of the bucket's documents and the bucket's schema, to prove nothing stored changes. */
async function storedState() {
  const { rows: versions } = await server.db.query(
    `SELECT v.version_id, v.data, c.latest_version_id FROM versions v JOIN contents c USING (content_id) WHERE c.bucket_id = $1 ORDER BY v.version_id`,
    [bucket.id],
  );
  const { rows: buckets } = await server.db.query("SELECT json_schema, schema_version_id FROM buckets WHERE id = $1", [bucket.id]);
  return { versions, buckets };
}

/** `count` documents, a third of them over the new schema's maximum year (n % 3 = 0). */
const seedYears = (bucketId: string, count: number) =>
  seedDocuments(
    server.db,
    bucketId,
    count,
    "jsonb_build_object('title', 'Document ' || n, 'year', CASE WHEN n % 3 = 0 THEN 2000 ELSE 1900 END)",
  );

/** The lines of an NDJSON answer, parsed. */
async function streamLines(response: Response): Promise<ImpactStreamLine[]> {
  const text = await response.text();
  return text
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as ImpactStreamLine);
}

describe("the engine", () => {
  it("groups the latest versions' errors by property and message, with links, and finds removed and renamed properties", async () => {
    const progress: ImpactProgress[] = [];
    const report = await assessSchemaChange(server.db, bucket, NEW_SCHEMA, {
      messageLocale: "en",
      batchSize: 2,
      onProgress: (step) => progress.push(step),
    });
    expectTheReport(report);
    // Read two at a time along the keyset: progress before the first batch and after each.
    expect(progress).toEqual([0, 2, 4, 6, 6].map((checked) => ({ checked, total: 6 })));
  });

  it("writes the messages in the locale it is given (the admin's interface language, as the page around them)", async () => {
    const report = await assessSchemaChange(server.db, bucket, NEW_SCHEMA, { messageLocale: "nl" });
    expect(report.groups.find((group) => group.property === "year")?.message).toBe("Deze waarde mag niet meer zijn dan 1960");
  });

  it("reports nothing to confirm for a schema every document still fits", async () => {
    const report = await assessSchemaChange(server.db, bucket, CURRENT_SCHEMA, { messageLocale: "en" });
    expect(report).toMatchObject({ checked: 6, failing: 0, groups: [], changes: [], problems: [] });
    expect(impactNeedsConfirmation(report)).toBe(false);
  });

  it("checks nothing and answers the problems of a schema that cannot be used", async () => {
    const nested = {
      type: "object",
      properties: { title: { type: "object", translate: true, properties: { text: { type: "string", translate: true } } } },
    };
    const report = await assessSchemaChange(server.db, bucket, nested, { messageLocale: "en" });
    expect(report.checked).toBe(0);
    expect(report.problems.join(" ")).toContain("a translatable property can't be inside a translatable property");
  });

  it("links to a singleton bucket's edit page", async () => {
    const singleton = await createTestBucket(server.db, { singleton: true, jsonSchema: CURRENT_SCHEMA });
    await createContent(server.db, singleton.id, { title: "Site", year: 2020 }, null, { singleton: true });
    const report = await assessSchemaChange(server.db, singleton, NEW_SCHEMA, { messageLocale: "en" });
    expect(report.groups[0]?.documents[0]?.href).toBe(`/b/${singleton.slug}/edit`);
  });

  it("lets the save of a changed schema go on only when nothing breaks or the admin confirmed", async () => {
    const check = (schema: unknown, confirmed: boolean) => checkSchemaSave(server.db, bucket, schema, { messageLocale: "en", confirmed });
    expect((await check(NEW_SCHEMA, false))?.failing).toBe(4);
    expect(await check(NEW_SCHEMA, true)).toBeNull();
    expect(await check(CURRENT_SCHEMA, false)).toBeNull();
    // A harmless change: a new optional property.
    expect(await check({ ...CURRENT_SCHEMA, properties: { ...CURRENT_SCHEMA.properties, note: { type: "string" } } }, false)).toBeNull();
  });

  it("stops between batches when its signal aborts", async () => {
    const controller = new AbortController();
    const run = assessSchemaChange(server.db, bucket, NEW_SCHEMA, {
      messageLocale: "en",
      batchSize: 2,
      signal: controller.signal,
      onProgress: ({ checked }) => checked >= 2 && controller.abort(new Error("client gone")),
    });
    await expect(run).rejects.toThrow("client gone");
  });
});

describe("POST /settings/buckets/{slug}/impact/stream", () => {
  it("streams progress lines, then the report, as NDJSON; nothing stored changes", async () => {
    const before = await storedState();
    const response = await postForm(server.url, streamPath(), { jsonSchema: JSON.stringify(NEW_SCHEMA) }, admin, origin);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/x-ndjson; charset=utf-8");
    // Streamed as it is made: no length known beforehand.
    expect(response.headers.get("content-length")).toBeNull();
    const lines = await streamLines(response);
    expect(lines[0]).toEqual({ type: "progress", checked: 0, total: 6 });
    expect(lines.slice(0, -1).every((line) => line.type === "progress")).toBe(true);
    const last = lines[lines.length - 1];
    expect(last?.type).toBe("report");
    if (last?.type === "report") expectTheReport(last.report);
    expect(await storedState()).toEqual(before);
  });

  it("sends its progress while it reads, before the report, over several batches", async () => {
    const large = await createTestBucket(server.db, { jsonSchema: CURRENT_SCHEMA });
    await seedYears(large.id, 6_001);
    const response = await postForm(
      server.url,
      `/settings/buckets/${large.slug}/impact/stream`,
      { jsonSchema: JSON.stringify(NEW_SCHEMA) },
      admin,
      origin,
    );
    expect(response.status).toBe(200);
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    const first = await reader.read();
    expect(first.value).toContain('"type":"progress"');
    expect(first.value).not.toContain('"type":"report"');
    let text = first.value ?? "";
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) text += chunk.value;
    const lines = text
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as ImpactStreamLine);
    expect(lines.flatMap((line) => (line.type === "progress" ? [line.checked] : []))).toEqual([0, 2000, 4000, 6000, 6001]);
    const last = lines[lines.length - 1];
    expect(last?.type === "report" ? [last.report.checked, last.report.failing] : null).toEqual([6001, 2000]);
  });

  it("refuses a schema that is missing, not JSON or not an object with 400 and a message", async () => {
    const cases: Array<[Record<string, string>, string]> = [
      [{}, "Paste a JSON Schema to check"],
      [{ jsonSchema: "{ not json" }, "The schema is not valid JSON"],
      [{ jsonSchema: "[1, 2]" }, "The schema must be a JSON object"],
    ];
    for (const [fields, message] of cases) {
      const response = await postForm(server.url, streamPath(), fields, admin, origin);
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({ error: message });
    }
  });

  it("answers 404 for a bucket that does not exist", async () => {
    const response = await postForm(server.url, "/settings/buckets/no-such-bucket/impact/stream", { jsonSchema: "{}" }, admin, origin);
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: "This page could not be found" });
  });

  it("refuses a cross-site post (403) before any work", async () => {
    const response = await postForm(server.url, streamPath(), { jsonSchema: JSON.stringify(NEW_SCHEMA) }, admin, {
      Origin: "https://evil.example",
    });
    expect(response.status).toBe(403);
    expect(response.headers.get("content-type")).toContain("text/plain");
    expect(await response.text()).toContain("Cross-site request refused");
  });

  it("answers GET with 405 to an admin", async () => {
    const response = await get(server.url, streamPath(), admin);
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("POST");
  });
});

describe("the page /settings/buckets/{slug}/impact", () => {
  it("shows a form with the bucket's current schema", async () => {
    const { status, html } = await page(server.url, impactPath(), admin);
    expect(status).toBe(200);
    expect(html).toContain("Impact of a schema change: Museum rooms");
    const textarea = /<textarea[^>]*name="jsonSchema"[^>]*>([\s\S]*?)<\/textarea>/.exec(html);
    expect(JSON.parse(decode(textarea![1]!))).toEqual(CURRENT_SCHEMA);
  });

  it("without JavaScript, posts the schema and shows the report with links to the first documents; nothing stored changes", async () => {
    const before = await storedState();
    const response = await postForm(server.url, impactPath(), { jsonSchema: JSON.stringify(NEW_SCHEMA) }, admin, origin);
    expect(response.status).toBe(200);
    const html = decode(await response.text());
    expect(html).toContain("4 of 6 documents would no longer validate.");
    expect(html).toContain("This value can't be more than 1960");
    expect(html).toContain(`href="${link("delta")}"`);
    expect(html).toContain("Renamed to rooms[].seats");
    expect(html).toContain("Documents with a value there: 1");
    // The posted schema stays in the form.
    expect(html).toContain('"maximum":1960');
    expect(await storedState()).toEqual(before);
  });

  it("without JavaScript, keeps a schema that is not JSON in the form with its message (400)", async () => {
    const response = await postForm(server.url, impactPath(), { jsonSchema: "{ broken" }, admin, origin);
    expect(response.status).toBe(400);
    const html = decode(await response.text());
    expect(html).toContain("The schema is not valid JSON");
    expect(html).toContain("{ broken</textarea>");
  });

  it("answers 404 for a bucket that does not exist", async () => {
    const { status, html } = await page(server.url, "/settings/buckets/no-such-bucket/impact", admin);
    expect(status).toBe(404);
    expect(errorPage(html)?.message).toBe("This page could not be found");
  });

  it("in Dutch for a Dutch admin", async () => {
    const dutch = (await signedInUser(server.url, server.db, { permissions: ["user", "admin"] })).cookie;
    const switched = await postForm(server.url, "/session/locale", { locale: "nl" }, dutch, origin);
    const cookie = switched.headers.get("set-cookie")?.split(";")[0] ?? dutch;
    const response = await postForm(server.url, impactPath(), { jsonSchema: JSON.stringify(NEW_SCHEMA) }, cookie, origin);
    const html = decode(await response.text());
    expect(html).toContain("4 van 6 documenten zouden niet meer geldig zijn.");
    // The validation messages of the report too: one page, one language.
    expect(html).toContain("Deze waarde mag niet meer zijn dan 1960");
    expect(html).not.toContain("This value can't be more than 1960");
  });
});

describe("guards", () => {
  const login = (path: string) => `/login?from_url=${encodeURIComponent(path)}`;

  it("send anonymous visitors to /login, for GET and POST of the page and the stream", async () => {
    for (const path of [impactPath(), streamPath()]) {
      const read = await get(server.url, path);
      expect([read.status, read.headers.get("location")]).toEqual([302, login(path)]);
      const post = await postForm(server.url, path, { jsonSchema: JSON.stringify(NEW_SCHEMA) }, undefined, origin);
      expect([post.status, post.headers.get("location")]).toEqual([302, login(path)]);
    }
  });

  it("send users who are not admins to /, for GET and POST of the page and the stream", async () => {
    for (const path of [impactPath(), streamPath()]) {
      const read = await get(server.url, path, member);
      expect([read.status, read.headers.get("location")]).toEqual([302, "/?notice=admin-only"]);
      const post = await postForm(server.url, path, { jsonSchema: JSON.stringify(NEW_SCHEMA) }, member, origin);
      expect([post.status, post.headers.get("location")]).toEqual([302, "/?notice=admin-only"]);
    }
  });
});

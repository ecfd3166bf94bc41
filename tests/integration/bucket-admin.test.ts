import { randomUUID } from "node:crypto";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Bucket } from "@server/content/buckets";
import { createContent } from "@server/content/store";
import { startTestServer, type TestServer } from "@tests/support/server";
import { get, postForm, postJson, sameOrigin } from "@tests/support/http";
import { createTestBucket, errorPage, page, signedInUser, topBarBucketLinks } from "@tests/support/fixtures";

/*
 * The bucket administration (issue 11, /settings/buckets): guards on every loader and action, CSRF, the form's
 * refusals and messages, the strict schema dialect, the no-JavaScript preview, schema versions and their diff,
 * versions recording their schema version, slug renames and their redirects, export/import, delete.
 */

let server: TestServer;
let admin: string;
let adminId: string;
let member: string;
let counter = 0;
const unique = (label: string) => `${label}-${++counter}-${Date.now().toString(36)}`;

beforeAll(async () => {
  server = await startTestServer();
  const signedIn = await signedInUser(server.url, server.db, { name: "Admin Ada", permissions: ["user", "admin"] });
  admin = signedIn.cookie;
  adminId = signedIn.user.id;
  member = (await signedInUser(server.url, server.db, { name: "Member Mia" })).cookie;
});
afterAll(() => server.stop());

const SIMPLE_SCHEMA = { type: "object", properties: { title: { type: "string", title: "Headline" } }, required: ["title"] };

interface FormOverrides {
  schema?: unknown;
  [field: string]: unknown;
}

interface FormFields extends Record<string, string> {
  slug: string;
  name: string;
  collectionName: string;
  locales: string;
  jsonSchema: string;
}

/** The create/edit form's fields, with a schema as text. */
function formFields(overrides: FormOverrides = {}): FormFields {
  const { schema = SIMPLE_SCHEMA, ...others } = overrides;
  const rest = Object.fromEntries(Object.entries(others).map(([name, value]) => [name, String(value)]));
  const slug = rest.slug ?? unique("bucket");
  return {
    intent: "save",
    slug,
    name: `Bucket ${slug}`,
    collectionName: slug,
    locales: "nl, en",
    jsonSchema: typeof schema === "string" ? schema : JSON.stringify(schema, null, 2),
    ...rest,
  };
}

/** Text of the page with tags removed and entities decoded, for reading messages. */
function textOf(html: string): string {
  return html
    .replace(/<script[\s\S]*?<\/script>/g, " ")
    .replace(/<[^>]+>/g, " ")
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&")
    .replace(/\s+/g, " ");
}

async function createThroughForm(overrides: FormOverrides = {}) {
  const fields = formFields(overrides);
  const response = await postForm(server.url, "/settings/buckets/new", fields, admin);
  expect(response.status, await response.clone().text()).toBe(302);
  expect(response.headers.get("location")).toBe(`/settings/buckets/${fields.slug}?saved`);
  return fields;
}

async function refusal(fields: Record<string, string>, path = "/settings/buckets/new") {
  const response = await postForm(server.url, path, fields, admin);
  const html = await response.text();
  return { status: response.status, html, text: textOf(html) };
}

describe("guards: every loader and action of the bucket admin", () => {
  let slug: string;
  beforeAll(async () => {
    slug = (await createTestBucket(server.db)).slug;
  });
  const pages = () => [
    "/settings/buckets",
    "/settings/buckets/new",
    `/settings/buckets/${slug}`,
    `/settings/buckets/${slug}/export`,
    "/settings/buckets/import",
  ];
  const actions = () => ["/settings/buckets/new", `/settings/buckets/${slug}`, "/settings/buckets/import"];

  it("send anonymous visitors to /login with from_url (GET and POST)", async () => {
    for (const path of pages()) {
      const response = await get(server.url, path);
      expect(response.status, path).toBe(302);
      expect(response.headers.get("location"), path).toBe(`/login?from_url=${encodeURIComponent(path)}`);
    }
    for (const path of actions()) {
      const response = await postForm(server.url, path, formFields());
      expect(response.status, path).toBe(302);
      expect(response.headers.get("location"), path).toMatch(/^\/login/);
    }
  });

  it("send a signed-in user who is not an admin to / (GET and POST), changing nothing", async () => {
    for (const path of pages()) {
      const response = await get(server.url, path, member);
      expect(response.status, path).toBe(302);
      expect(response.headers.get("location"), path).toBe("/?notice=admin-only");
    }
    const attempted = formFields();
    for (const path of actions()) {
      const response = await postForm(
        server.url,
        path,
        {
          ...attempted,
          intent: path.endsWith(slug) ? "delete" : "save",
          confirmSlug: slug,
          definition: JSON.stringify({ ...attempted, locales: ["en"], jsonSchema: SIMPLE_SCHEMA }),
        },
        member,
      );
      expect(response.status, path).toBe(302);
      expect(response.headers.get("location"), path).toBe("/?notice=admin-only");
    }
    const { rows } = await server.db.query(`SELECT slug FROM buckets WHERE slug = ANY($1::text[])`, [[attempted.slug, slug]]);
    expect(rows).toEqual([{ slug }]);
  });

  it("refuse a cross-site post (CSRF) before any work", async () => {
    const fields = formFields();
    const response = await postForm(server.url, "/settings/buckets/new", fields, admin, {
      Origin: "https://evil.example",
      "Sec-Fetch-Site": "cross-site",
    });
    expect(response.status).toBe(403);
    const { rows } = await server.db.query(`SELECT 1 FROM buckets WHERE slug = $1`, [fields.slug]);
    expect(rows).toHaveLength(0);
  });
});

describe("the list", () => {
  it("shows every bucket, private ones too, with slug, locales, document count and links", async () => {
    const hidden = await createTestBucket(server.db, { name: "Hidden vault", private: true, locales: ["en", "de"] });
    await createContent(server.db, hidden.id, { title: "One" }, null);
    await createContent(server.db, hidden.id, { title: "Two" }, null);
    const { status, html } = await page(server.url, "/settings/buckets", admin);
    expect(status).toBe(200);
    expect(errorPage(html)).toBeNull();
    const row = new RegExp(`<tr>(?:(?!</tr>).)*href="/settings/buckets/${hidden.slug}"(?:(?!</tr>).)*</tr>`, "s").exec(html)?.[0] ?? "";
    expect(textOf(row)).toContain("Hidden vault");
    expect(textOf(row)).toContain(hidden.slug);
    expect(textOf(row)).toContain("en, de");
    expect(textOf(row)).toMatch(/Yes/); // private
    expect(row).toMatch(/class="number">2</);
    expect(html).toContain('href="/settings/buckets/new"');
    expect(html).toContain('action="/settings/buckets/import"');
  });
});

describe("create and edit", () => {
  it("creates a bucket with schema version 1, records the activity, and shows it at once in the navigation", async () => {
    const fields = await createThroughForm({ name: "Sculptures" });
    const { rows } = await server.db.query<{ id: string; schemaVersion: number; createdBy: string; pointed: boolean; locales: string[] }>(
      `SELECT b.id, s.number AS "schemaVersion", s.created_by AS "createdBy", b.schema_version_id = s.id AS pointed, b.locales
       FROM buckets b JOIN schema_versions s ON s.bucket_id = b.id WHERE b.slug = $1`,
      [fields.slug],
    );
    expect(rows).toEqual([{ id: expect.any(String), schemaVersion: 1, createdBy: adminId, pointed: true, locales: ["nl", "en"] }]);
    const activity = await server.db.query(`SELECT area, action FROM admin_activity WHERE subject = $1 ORDER BY area`, [fields.slug]);
    expect(activity.rows).toEqual([
      { area: "bucket", action: "created" },
      { area: "schema", action: "created" },
    ]);
    const home = await page(server.url, "/", admin);
    expect(topBarBucketLinks(home.html)?.map((link) => link.text)).toContain("Sculptures");
    const saved = await page(server.url, `/settings/buckets/${fields.slug}?saved`, admin);
    expect(textOf(saved.html)).toContain("The bucket was saved.");
    expect(saved.html).toMatch(/<input[^>]*name="slug"[^>]*value="/);
    expect(saved.html).not.toMatch(/<input[^>]*type="checkbox"[^>]*name="singleton"[^>]*checked/);
  });

  it("keeps singleton and private as they were set (the form shows them checked)", async () => {
    const fields = await createThroughForm({ singleton: "on", private: "on" });
    const { rows } = await server.db.query(`SELECT singleton, private FROM buckets WHERE slug = $1`, [fields.slug]);
    expect(rows).toEqual([{ singleton: true, private: true }]);
    const { html } = await page(server.url, `/settings/buckets/${fields.slug}`, admin);
    expect(html).toMatch(/<input[^>]*type="checkbox"[^>]*name="singleton"[^>]*checked=""/);
    expect(html).toMatch(/<input[^>]*type="checkbox"[^>]*name="private"[^>]*checked=""/);
    // A private bucket has no page to open.
    expect(html).not.toContain(`href="/b/${fields.slug}"`);
  });

  it("a schema change is a new schema version (who, when); the page shows the history and a diff", async () => {
    const fields = await createThroughForm();
    const changed = { ...SIMPLE_SCHEMA, properties: { ...SIMPLE_SCHEMA.properties, year: { type: "integer", title: "Year" } } };
    const response = await postForm(
      server.url,
      `/settings/buckets/${fields.slug}`,
      { ...fields, jsonSchema: JSON.stringify(changed) },
      admin,
    );
    expect(response.status).toBe(302);
    // Saving the same schema again makes no version.
    await postForm(
      server.url,
      `/settings/buckets/${fields.slug}`,
      { ...fields, name: "Renamed only", jsonSchema: JSON.stringify(changed) },
      admin,
    );
    const { rows } = await server.db.query<{ number: number }>(
      `SELECT s.number FROM schema_versions s JOIN buckets b ON b.id = s.bucket_id WHERE b.slug = $1 ORDER BY s.number`,
      [fields.slug],
    );
    expect(rows.map((row) => row.number)).toEqual([1, 2]);
    const { html } = await page(server.url, `/settings/buckets/${fields.slug}?from=1&to=2`, admin);
    expect(textOf(html)).toContain("Admin Ada");
    const diff = /<figure class="schema-diff">[\s\S]*?<\/figure>/.exec(html)?.[0] ?? "";
    expect(diff).toMatch(/<span class="diff-line diff-added">/);
    expect(textOf(diff)).toContain('+ "year": {');
    expect(textOf(diff)).toContain('+ "type": "integer",');
    expect(diff).not.toContain("diff-removed");
    expect(textOf(html)).toContain("Changes from version 1 to version 2");
    // The comparison's form keeps the two versions chosen.
    expect(html).toMatch(/<select name="from">(?:(?!<\/select>)[\s\S])*<option value="1" selected="">1<\/option>/);
    expect(html).toMatch(/<select name="to">(?:(?!<\/select>)[\s\S])*<option value="2" selected="">2<\/option>/);
    const activity = await server.db.query(
      `SELECT area, action, details FROM admin_activity WHERE subject = $1 AND action = 'updated' ORDER BY created_at`,
      [fields.slug],
    );
    expect(activity.rows).toEqual([
      { area: "schema", action: "updated", details: { version: 2 } },
      { area: "bucket", action: "updated", details: { changes: ["name"] } },
    ]);
  });

  it("each saved document version records the schema version it was validated against", async () => {
    const fields = await createThroughForm();
    const first = await postJson(server.url, `/api/v1/buckets/${fields.slug}/save`, { content: { title: "Before" } }, admin);
    expect(first.status).toBe(201);
    const saved = (await first.json()) as { contentId: string };
    const changed = { ...SIMPLE_SCHEMA, properties: { ...SIMPLE_SCHEMA.properties, note: { type: "string" } } };
    await postForm(server.url, `/settings/buckets/${fields.slug}`, { ...fields, jsonSchema: JSON.stringify(changed) }, admin);
    const { rows: latest } = await server.db.query<{ latestVersionId: string }>(
      `SELECT latest_version_id AS "latestVersionId" FROM contents WHERE content_id = $1`,
      [saved.contentId],
    );
    const second = await postJson(
      server.url,
      `/api/v1/buckets/${fields.slug}/save`,
      { content: { _id: latest[0]!.latestVersionId, contentId: saved.contentId, title: "After", note: "n" } },
      admin,
    );
    expect(second.status, await second.clone().text()).toBeLessThan(300);
    const { rows } = await server.db.query<{ number: number }>(
      `SELECT s.number FROM versions v JOIN schema_versions s ON s.id = v.schema_version_id WHERE v.content_id = $1 ORDER BY v.created_at`,
      [saved.contentId],
    );
    expect(rows.map((row) => row.number)).toEqual([1, 2]);
  });

  it("refuses the fixed fields' mistakes with their messages, the input kept", async () => {
    const taken = await createTestBucket(server.db);
    const cases: Array<[Record<string, string>, string, string]> = [
      [{ slug: "Not A Slug" }, "slug", "Use lower-case letters, digits and single hyphens only"],
      [{ slug: "new" }, "slug", "This slug is reserved"],
      [{ slug: taken.slug }, "slug", "Another bucket has this slug"],
      [{ collectionName: taken.collectionName }, "collectionName", "Another bucket has this collection name"],
      [{ collectionName: "b-image" }, "collectionName", "it can't start with b- (media)"],
      [{ name: " " }, "name", "A name is required"],
      [{ locales: "" }, "locales", "At least one locale is required"],
      [{ locales: "nl, English" }, "locales", "Locales are language codes such as nl, en or fr-BE"],
      [{ locales: "nl, nl" }, "locales", "Each locale can be listed once"],
    ];
    for (const [overrides, field, message] of cases) {
      const fields = formFields(overrides);
      const { status, html, text } = await refusal(fields);
      expect(status, message).toBeGreaterThanOrEqual(400);
      expect(text, message).toContain(message);
      expect(html, field).toMatch(new RegExp(`id="[^"]*-${field}-error"`));
      expect(html).toContain(`value="${fields.name}"`);
      const { rows } = await server.db.query(`SELECT 1 FROM buckets WHERE name = $1 AND slug = $2`, [fields.name, fields.slug]);
      expect(rows).toHaveLength(0);
    }
  });
});

describe("the schema check (docs/schema-dialect.md)", () => {
  const root = (properties: Record<string, unknown>) => ({ type: "object", properties });
  it.each<[string, unknown, string]>([
    [
      "a JSON syntax error names its line and column",
      '{\n  "type": "object",\n  "properties": {,}\n}',
      "JSON error at line 3, column 18: unexpected ,",
    ],
    ["a text that ends too early", '{\n  "type": "object"', "JSON error at line 2, column 19: the text ends too early"],
    ["an unknown keyword", root({ title: { type: "string", colour: "red" } }), "properties.title: unknown keyword colour"],
    [
      "oneOf",
      root({ rooms: { type: "array", items: { type: "object", properties: { photo: { oneOf: [{ type: "string" }] } } } } }),
      "properties.rooms.items.properties.photo: the keyword oneOf is not supported: the form can't render it",
    ],
    [
      "if/then/else",
      root({ a: { type: "string", if: { minLength: 1 }, then: {}, else: {} } }),
      "properties.a: the keyword if is not supported",
    ],
    [
      "$ref to definitions",
      { type: "object", definitions: { x: { type: "string" } }, properties: { a: { $ref: "#/definitions/x" } } },
      'The keyword $ref is not supported: inline the definition "x" where it is used, then remove definitions.',
    ],
    ["an unknown renderer", root({ a: { type: "string", renderer: "wysiwyg" } }), "properties.a: unknown renderer wysiwyg"],
    [
      "a _ref to a collection that no bucket has",
      root({ artist: { type: "string", _ref: "no-such-collection" } }),
      "properties.artist: _ref names the collection no-such-collection, which no bucket has",
    ],
    ["an unknown media kind", root({ photo: { type: "string", _ref: "b-audio" } }), "properties.photo: unknown media kind b-audio"],
    [
      "a minimum above its maximum",
      root({ photo: { type: "string", _ref: "b-image", minWidth: 2000, maxWidth: 1000 } }),
      "properties.photo: minWidth is greater than maxWidth",
    ],
    [
      "a bound that is not a size",
      root({ photo: { type: "string", _ref: "b-image", minWidth: "big" } }),
      "properties.photo: minWidth must be a number of pixels",
    ],
    [
      "a file size that is not a number",
      root({ doc: { type: "string", _ref: "b-file", maxFilesize: "lots" } }),
      "properties.doc: maxFilesize must be a number greater than 0",
    ],
    [
      "an integer step below 1 (the spec's text)",
      root({ n: { type: "integer", step: 0.5 } }),
      "properties.n: schema error: property with type 'integer' can't have a step value smaller than 1",
    ],
    [
      "translate inside translate",
      root({ a: { type: "object", translate: true, properties: { b: { type: "string", translate: true } } } }),
      "properties.a.properties.b: schema error: a translatable property can't be inside a translatable property",
    ],
    ["a property no field renders", root({ a: { description: "nothing" } }), "properties.a: no field can render this property"],
    [
      "a required name that is no property",
      { ...root({ a: { type: "string" } }), required: ["b"] },
      "the schema: required names b, which is not one of the properties",
    ],
    [
      "what AJV cannot compile",
      root({ a: { type: "string", enum: { $data: "not a pointer" } } }),
      "the validator can't compile this schema",
    ],
    [
      "a default its property does not accept",
      root({ seats: { type: "integer", maximum: 5, default: 7 } }),
      "properties.seats: the default 7 does not fit this property: This value can't be more than 5",
    ],
  ])("refuses %s, with a message naming the place, and keeps the input (422, never a 500)", async (_label, schema, message) => {
    const fields = formFields({ schema: typeof schema === "string" ? schema : JSON.stringify(schema, null, 2) });
    const { status, html, text } = await refusal(fields);
    expect(status).toBe(422);
    expect(text).toContain(message);
    expect(html).toContain(fields.jsonSchema.split("\n")[0]!.replaceAll('"', "&quot;"));
    const { rows } = await server.db.query(`SELECT 1 FROM buckets WHERE slug = $1`, [fields.slug]);
    expect(rows).toHaveLength(0);
  });

  it("answers in Dutch for a Dutch admin", async () => {
    const dutch = await signedInUser(server.url, server.db, { permissions: ["user", "admin"] });
    await server.db.query(`UPDATE users SET locale = 'nl' WHERE id = $1`, [dutch.user.id]);
    const response = await postForm(
      server.url,
      "/settings/buckets/new",
      formFields({ schema: root({ n: { type: "integer", step: 0.5 } }) }),
      dutch.cookie,
    );
    const text = textOf(await response.text());
    expect(text).toContain("properties.n: schemafout: een eigenschap van type 'integer' mag geen stapwaarde kleiner dan 1 hebben");
  });

  it("accepts _ref to its own new collection and to an existing one, and every documented kind", async () => {
    const artists = await createTestBucket(server.db);
    const slug = unique("museum");
    await createThroughForm({
      slug,
      collectionName: slug,
      schema: {
        type: "object",
        required: ["name"],
        properties: {
          name: { type: "string", title: "Name", translate: true, isNotEmpty: true, maxLength: 80 },
          body: { type: "string", renderer: "textarea" },
          count: { type: "integer", step: 5, minimum: 0 },
          opens: { type: "string", format: "date" },
          colour: { type: "string", format: "color" },
          room: { type: "string", enum: ["east", "atrium"], labels: { east: "East wing" } },
          tags: { type: "array", items: { type: "string" }, renderer: "tags" },
          texts: { type: "array", renderer: "texts" },
          toggle: { type: "object", "x-disableable-bool": true, enableButton: "Show", disableButton: "Hide" },
          artist: { type: "string", _ref: artists.collectionName, renderer: "popup" },
          related: { type: "array", items: { type: "string", _ref: slug } },
          photo: { type: "string", _ref: "b-image", enableCrop: true, minWidth: "HD", maxWidth: "4K" },
          film: { type: "string", _ref: "b-video", minFps: 24, maxFps: 60, allowCustomStill: true },
          leaflet: { type: "string", _ref: "b-file", allowedFiles: ["pdf"], maxFilesize: 1048576 },
          rooms: {
            type: "array",
            sortable: true,
            "add-button": "Add room",
            items: { type: "object", properties: { title: { type: "string" } } },
          },
        },
      },
    });
  });
});

describe("the preview without JavaScript", () => {
  it("'Preview' renders the form the typed schema produces, with the input kept, saving nothing", async () => {
    const fields = formFields({
      intent: "preview",
      schema: {
        type: "object",
        properties: { headline: { type: "string", title: "Preview headline" }, wing: { type: "string", enum: ["East", "West"] } },
      },
    });
    const response = await postForm(server.url, "/settings/buckets/new", fields, admin);
    expect(response.status).toBe(200);
    const html = await response.text();
    const preview = /<section class="schema-preview"[\s\S]*?<\/section>/.exec(html)?.[0] ?? "";
    expect(preview).toContain("Preview headline");
    expect(preview).toMatch(/<select[^>]*name="wing"/);
    expect(html).toContain(`value="${fields.slug}"`);
    expect(html).toContain("Preview headline"); // in the textarea too
    const { rows } = await server.db.query(`SELECT 1 FROM buckets WHERE slug = $1`, [fields.slug]);
    expect(rows).toHaveLength(0);
  });

  it("a preview of a refused schema shows the refusal and no form", async () => {
    const fields = formFields({ intent: "preview", schema: { type: "object", properties: { a: { anyOf: [] } } } });
    const { status, text } = await refusal(fields);
    expect(status).toBe(422);
    expect(text).toContain("properties.a: the keyword anyOf is not supported");
    expect(text).toContain("No preview: the schema has errors.");
  });
});

describe("renaming a bucket's slug", () => {
  it("keeps the old slug as a redirect for pages (301 GET, 308 POST), answers the JSON API, and moves slug lists", async () => {
    const fields = await createThroughForm();
    const old = fields.slug;
    const reader = await signedInUser(server.url, server.db, { buckets: [old] });
    const created = await postJson(server.url, `/api/v1/buckets/${old}/save`, { content: { title: "Kept" } }, admin);
    const { contentId } = (await created.json()) as { contentId: string };
    const renamed = unique("renamed");
    const response = await postForm(server.url, `/settings/buckets/${old}`, { ...fields, slug: renamed }, admin);
    expect(response.headers.get("location")).toBe(`/settings/buckets/${renamed}?saved`);

    const overview = await get(server.url, `/b/${old}?page=2`, admin);
    expect(overview.status).toBe(301);
    expect(overview.headers.get("location")).toBe(`/b/${renamed}?page=2`);
    const latest = await get(server.url, `/b/${old}/${contentId}/latest`, admin);
    expect(latest.headers.get("location")).toBe(`/b/${renamed}/${contentId}/latest`);
    const post = await postForm(server.url, `/b/${old}/new`, { title: "x" }, admin);
    expect(post.status).toBe(308);
    expect(post.headers.get("location")).toBe(`/b/${renamed}/new`);
    const legacy = await get(server.url, `/overview/${old}`, admin);
    expect(legacy.headers.get("location")).toBe(`/b/${old}`);
    const adminPage = await get(server.url, `/settings/buckets/${old}`, admin);
    expect(adminPage.status).toBe(301);
    expect(adminPage.headers.get("location")).toBe(`/settings/buckets/${renamed}`);
    const exportPage = await get(server.url, `/settings/buckets/${old}/export`, admin);
    expect(exportPage.headers.get("location")).toBe(`/settings/buckets/${renamed}/export`);
    const adminPost = await postForm(
      server.url,
      `/settings/buckets/${old}`,
      { ...fields, slug: renamed, name: "Posted to the old slug" },
      admin,
    );
    expect(adminPost.status).toBe(308);
    expect(adminPost.headers.get("location")).toBe(`/settings/buckets/${renamed}`);

    const schema = await get(server.url, `/api/v1/buckets/${old}/schema`, admin);
    expect(schema.status).toBe(200);
    const content = await get(server.url, `/api/v1/buckets/${old}/content/${contentId}/latest`, admin);
    expect(((await content.json()) as { title: string }).title).toBe("Kept");

    // A user limited to the bucket keeps it under its new slug.
    const { rows } = await server.db.query<{ buckets: string[] }>(`SELECT buckets FROM users WHERE id = $1`, [reader.user.id]);
    expect(rows[0]!.buckets).toEqual([renamed]);
    expect((await get(server.url, `/b/${renamed}`, reader.cookie)).status).toBe(200);

    // The redirect never leaks a bucket the user may not see.
    const outsider = (await signedInUser(server.url, server.db, { buckets: ["nothing"] })).cookie;
    expect((await get(server.url, `/b/${old}`, outsider)).status).toBe(404);
  });

  it("a new bucket may take an old slug: the redirect goes", async () => {
    const fields = await createThroughForm();
    const renamed = unique("moved");
    await postForm(server.url, `/settings/buckets/${fields.slug}`, { ...fields, slug: renamed }, admin);
    await createThroughForm({ slug: fields.slug, collectionName: unique("other") });
    expect((await get(server.url, `/b/${fields.slug}`, admin)).status).toBe(200);
    const { rows } = await server.db.query(`SELECT 1 FROM bucket_slug_redirects WHERE old_slug = $1`, [fields.slug]);
    expect(rows).toHaveLength(0);
  });
});

describe("export and import", () => {
  it("exports a definition as a JSON download that imports back: an update asks to confirm, then saves", async () => {
    const fields = await createThroughForm({ locales: "en, nl" });
    const exported = await get(server.url, `/settings/buckets/${fields.slug}/export`, admin);
    expect(exported.status).toBe(200);
    expect(exported.headers.get("content-disposition")).toBe(`attachment; filename="${fields.slug}.bucket.json"`);
    expect(exported.headers.get("content-type")).toMatch(/^application\/json/);
    const definition = (await exported.json()) as Record<string, unknown>;
    expect(definition).toEqual({
      slug: fields.slug,
      name: fields.name,
      names: {},
      singleton: false,
      private: false,
      collectionName: fields.slug,
      locales: ["en", "nl"],
      screen: "generic",
      jsonSchema: SIMPLE_SCHEMA,
    });

    const changed = {
      ...definition,
      name: "Imported name",
      jsonSchema: { ...SIMPLE_SCHEMA, properties: { ...SIMPLE_SCHEMA.properties, extra: { type: "boolean" } } },
    };
    const upload = new FormData();
    upload.append("file", new Blob([JSON.stringify(changed)], { type: "application/json" }), "definition.json");
    const asked = await fetch(`${server.url}/settings/buckets/import`, {
      method: "POST",
      body: upload,
      headers: { Cookie: admin, ...sameOrigin(server.url) },
      redirect: "manual",
    });
    expect(asked.status).toBe(200);
    const askedText = textOf(await asked.text());
    expect(askedText).toContain(`exists: importing updates it.`);
    expect(askedText).toMatch(/What changes: Name JSON Schema/);
    const { rows: unchanged } = await server.db.query<{ name: string }>(`SELECT name FROM buckets WHERE slug = $1`, [fields.slug]);
    expect(unchanged[0]!.name).toBe(fields.name);

    const confirmed = await postForm(
      server.url,
      "/settings/buckets/import",
      { intent: "confirm", definition: JSON.stringify(changed) },
      admin,
    );
    expect(confirmed.status).toBe(302);
    expect(confirmed.headers.get("location")).toBe(`/settings/buckets/${fields.slug}?saved`);
    const { rows } = await server.db.query<{ name: string; versions: number }>(
      `SELECT name, (SELECT max(number) FROM schema_versions WHERE bucket_id = b.id) AS versions FROM buckets b WHERE slug = $1`,
      [fields.slug],
    );
    expect(rows).toEqual([{ name: "Imported name", versions: 2 }]);
  });

  it("an import with a new slug creates the bucket (pasted JSON)", async () => {
    const slug = unique("imported");
    const definition = {
      slug,
      name: "From test",
      singleton: true,
      private: false,
      collectionName: slug,
      locales: ["nl"],
      jsonSchema: SIMPLE_SCHEMA,
    };
    const response = await postForm(
      server.url,
      "/settings/buckets/import",
      { intent: "check", definition: JSON.stringify(definition) },
      admin,
    );
    expect(response.status).toBe(302);
    const exported = (await (await get(server.url, `/settings/buckets/${slug}/export`, admin)).json()) as unknown;
    // An older export names no screen: the bucket gets the generic editor, and its export says so.
    expect(exported).toEqual({ ...definition, names: {}, screen: "generic" });
  });

  it("refuses a broken import with the same checks, naming line and column or the field", async () => {
    const slug = unique("broken");
    const cases: Array<[string, string]> = [
      ['{\n "slug": "x",\n}', "JSON error at line 3, column 1: unexpected }"],
      [
        JSON.stringify({ slug: "Bad Slug", name: "x", collectionName: "x", locales: ["en"], jsonSchema: {} }),
        "slug: Use lower-case letters",
      ],
      [
        JSON.stringify({
          slug,
          name: "x",
          collectionName: slug,
          locales: ["en"],
          jsonSchema: { type: "object", properties: { a: { allOf: [] } } },
        }),
        "properties.a: the keyword allOf is not supported",
      ],
    ];
    for (const [text, message] of cases) {
      const response = await postForm(server.url, "/settings/buckets/import", { intent: "check", definition: text }, admin);
      expect(response.status).toBe(422);
      expect(textOf(await response.text())).toContain(message);
    }
  });
});

describe("delete", () => {
  it("deletes an empty bucket at once and records it", async () => {
    const fields = await createThroughForm();
    const response = await postForm(server.url, `/settings/buckets/${fields.slug}`, { intent: "delete" }, admin);
    expect(response.headers.get("location")).toBe(`/settings/buckets?deleted=${fields.slug}`);
    const { rows } = await server.db.query(`SELECT 1 FROM buckets WHERE slug = $1`, [fields.slug]);
    expect(rows).toHaveLength(0);
    const activity = await server.db.query(`SELECT area, action FROM admin_activity WHERE subject = $1 AND action = 'deleted'`, [
      fields.slug,
    ]);
    expect(activity.rows).toEqual([{ area: "bucket", action: "deleted" }]);
  });

  it("refuses while it holds documents unless the slug is typed; then deletes documents, versions and media", async () => {
    const bucket: Bucket = await createTestBucket(server.db);
    const other: Bucket = await createTestBucket(server.db);
    await createContent(server.db, bucket.id, { title: "One" }, null);
    const mediaDir = path.join(server.database.dataDir, "media", "files");
    mkdirSync(mediaDir, { recursive: true });
    const media = async (contentId: string) => {
      const key = `${randomUUID()}.png`;
      writeFileSync(path.join(mediaDir, key), "not really a png");
      await server.db.query(
        `INSERT INTO media (content_id, kind, bucket_id, storage_key, original_filename, mimetype, size) VALUES ($1, 'image', $2, $3, 'a.png', 'image/png', 16)`,
        [contentId, bucket.id, key],
      );
      return key;
    };
    const lonely = await media(randomUUID());
    const sharedContent = randomUUID();
    const shared = await media(sharedContent);
    // A document of another bucket names the second image: it stays, moved to that bucket.
    await createContent(server.db, other.id, { title: "Uses it", image: sharedContent }, null);

    for (const confirmSlug of ["", "wrong"]) {
      const refused = await postForm(server.url, `/settings/buckets/${bucket.slug}`, { intent: "delete", confirmSlug }, admin);
      expect(refused.status).toBe(409);
      expect(textOf(await refused.text())).toContain(`This bucket holds documents (1): type its slug ${bucket.slug} to confirm.`);
    }
    expect((await server.db.query(`SELECT 1 FROM buckets WHERE id = $1`, [bucket.id])).rows).toHaveLength(1);

    const deleted = await postForm(server.url, `/settings/buckets/${bucket.slug}`, { intent: "delete", confirmSlug: bucket.slug }, admin);
    expect(deleted.status).toBe(302);
    const counts = await server.db.query<{ contents: number; versions: number }>(
      `SELECT (SELECT count(*)::int FROM contents WHERE bucket_id = $1) AS contents,
              (SELECT count(*)::int FROM versions v WHERE NOT EXISTS (SELECT 1 FROM contents c WHERE c.content_id = v.content_id)) AS versions`,
      [bucket.id],
    );
    expect(counts.rows).toEqual([{ contents: 0, versions: 0 }]);
    const deadline = Date.now() + 10_000;
    while (existsSync(path.join(mediaDir, lonely)) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(existsSync(path.join(mediaDir, lonely))).toBe(false);
    expect(existsSync(path.join(mediaDir, shared))).toBe(true);
    const { rows } = await server.db.query<{ bucketId: string }>(`SELECT bucket_id AS "bucketId" FROM media WHERE storage_key = $1`, [
      shared,
    ]);
    expect(rows).toEqual([{ bucketId: other.id }]);
  });
});

describe("a schema change that breaks stored documents", () => {
  async function bucketWithDocuments(count: number) {
    const fields = await createThroughForm();
    for (let i = 0; i < count; i++) {
      const saved = await postJson(server.url, `/api/v1/buckets/${fields.slug}/save`, { content: { title: `Piece ${i}` } }, admin);
      expect(saved.status).toBe(201);
    }
    return fields;
  }
  const schemaVersions = async (slug: string) =>
    (
      await server.db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM schema_versions s JOIN buckets b ON b.id = s.bucket_id WHERE b.slug = $1`,
        [slug],
      )
    ).rows[0]!.n;
  // `title` becomes a number: every stored document's text no longer validates.
  const breaking = { ...SIMPLE_SCHEMA, properties: { title: { type: "number", title: "Headline" } } };

  it("is held with the impact report (how many, grouped, links) until the admin confirms; then saved, documents untouched", async () => {
    const fields = await bucketWithDocuments(3);
    const stored = await server.db.query(
      `SELECT v.data FROM versions v JOIN contents c ON c.content_id = v.content_id JOIN buckets b ON b.id = c.bucket_id WHERE b.slug = $1 ORDER BY v.data->>'title'`,
      [fields.slug],
    );
    const held = await refusal({ ...fields, jsonSchema: JSON.stringify(breaking) }, `/settings/buckets/${fields.slug}`);
    expect(held.status).toBe(409);
    expect(held.text).toContain("What this schema change breaks");
    expect(held.text).toMatch(/3 of 3 documents/);
    expect(held.html).toContain(`href="/b/${fields.slug}/`);
    expect(held.html).toContain('name="confirmBreaking"');
    expect(held.html).toContain(`value="${fields.name}"`); // the input is kept
    expect(await schemaVersions(fields.slug)).toBe(1);

    const confirmed = await postForm(
      server.url,
      `/settings/buckets/${fields.slug}`,
      { ...fields, jsonSchema: JSON.stringify(breaking), confirmBreaking: "on" },
      admin,
    );
    expect(confirmed.status).toBe(302);
    expect(await schemaVersions(fields.slug)).toBe(2);
    const after = await server.db.query(
      `SELECT v.data FROM versions v JOIN contents c ON c.content_id = v.content_id JOIN buckets b ON b.id = c.bucket_id WHERE b.slug = $1 ORDER BY v.data->>'title'`,
      [fields.slug],
    );
    expect(after.rows).toEqual(stored.rows); // nothing stored changed
  });

  it("a change that breaks nothing saves at once", async () => {
    const fields = await bucketWithDocuments(2);
    const harmless = { ...SIMPLE_SCHEMA, properties: { ...SIMPLE_SCHEMA.properties, subtitle: { type: "string" } } };
    const response = await postForm(
      server.url,
      `/settings/buckets/${fields.slug}`,
      { ...fields, jsonSchema: JSON.stringify(harmless) },
      admin,
    );
    expect(response.status).toBe(302);
    expect(await schemaVersions(fields.slug)).toBe(2);
  });

  it("an import that updates the schema shows the impact, and needs the same confirmation", async () => {
    const fields = await bucketWithDocuments(2);
    const definition = JSON.stringify({
      slug: fields.slug,
      name: fields.name,
      singleton: false,
      private: false,
      collectionName: fields.slug,
      locales: ["nl", "en"],
      jsonSchema: breaking,
    });
    const asked = await refusal({ definition }, "/settings/buckets/import");
    expect(asked.status).toBe(200);
    expect(asked.text).toMatch(/2 of 2 documents/);
    const held = await refusal({ intent: "confirm", definition }, "/settings/buckets/import");
    expect(held.status).toBe(409);
    expect(await schemaVersions(fields.slug)).toBe(1);
    const saved = await postForm(server.url, "/settings/buckets/import", { intent: "confirm", definition, confirmBreaking: "on" }, admin);
    expect(saved.status).toBe(302);
    expect(await schemaVersions(fields.slug)).toBe(2);
  });
});

describe("a bucket's screen (docs/screens.md)", () => {
  const CASES_SCHEMA = {
    type: "object",
    properties: {
      title: { type: "string", title: "Title" },
      cases: { type: "array", renderer: "video-cases", items: { type: "string", _ref: "cases-for-screens" } },
    },
  };
  beforeAll(async () => {
    await createTestBucket(server.db, { slug: unique("cases"), collectionName: "cases-for-screens" });
  });
  const bucketScreen = async (slug: string) =>
    (await server.db.query<{ screen: string }>("SELECT screen FROM buckets WHERE slug = $1", [slug])).rows[0]?.screen;

  it("is chosen in the bucket editor, stored, and sends home, the top bar and the generic pages to the screen", async () => {
    const fields = await createThroughForm({ screen: "sessies", schema: CASES_SCHEMA });
    expect(await bucketScreen(fields.slug)).toBe("sessies");
    const { html } = await page(server.url, `/settings/buckets/${fields.slug}`, admin);
    expect(html).toMatch(/<option value="sessies" selected="">/);

    const home = await page(server.url, "/", admin);
    expect(home.html).toContain(`href="/sessies/${fields.slug}"`);
    const overview = await get(server.url, `/b/${fields.slug}`, admin);
    expect([overview.status, overview.headers.get("location")]).toEqual([302, `/sessies/${fields.slug}`]);
    const create = await get(server.url, `/b/${fields.slug}/new`, admin);
    expect([create.status, create.headers.get("location")]).toEqual([302, `/sessies/${fields.slug}/new`]);

    // Back to the generic editor: the screen's routes answer 404, the generic pages serve the bucket.
    await postForm(server.url, `/settings/buckets/${fields.slug}`, { ...fields, screen: "generic" }, admin);
    expect(await bucketScreen(fields.slug)).toBe("generic");
    expect((await page(server.url, `/sessies/${fields.slug}`, admin)).status).toBe(404);
    expect((await page(server.url, `/b/${fields.slug}`, admin)).status).toBe(200);
  });

  it("refuses a screen the schema or the bucket cannot serve, with the reason under the field and the input kept", async () => {
    const withoutCases = formFields({ screen: "dle-sessies" });
    const missing = await refusal(withoutCases);
    expect(missing.status).toBe(422);
    expect(missing.text).toContain(
      'This screen shows a session\'s video cases: the schema needs a top-level list with renderer "video-cases".',
    );
    expect(missing.html).toMatch(/<option value="dle-sessies" selected="">/);
    expect(await bucketScreen(withoutCases.slug)).toBeUndefined();

    const singleton = await refusal(formFields({ screen: "trend", singleton: "on" }));
    expect(singleton.status).toBe(422);
    expect(singleton.text).toContain("This screen edits a list of documents: it cannot be used for a singleton bucket.");

    const unknown = await refusal(formFields({ screen: "kiosk" }));
    expect(unknown.status).toBe(400);
    expect(unknown.text).toContain("Choose one of the listed screens.");
  });

  it("travels with the export and the import", async () => {
    const fields = await createThroughForm({ screen: "trend" });
    const exported = (await (await get(server.url, `/settings/buckets/${fields.slug}/export`, admin)).json()) as Record<string, unknown>;
    expect(exported.screen).toBe("trend");
    const slug = unique("imported-screen");
    const response = await postForm(
      server.url,
      "/settings/buckets/import",
      { intent: "check", definition: JSON.stringify({ ...exported, slug, collectionName: slug }) },
      admin,
    );
    expect(response.status).toBe(302);
    expect(await bucketScreen(slug)).toBe("trend");
  });
});

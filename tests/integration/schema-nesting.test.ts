import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "@tests/support/server";
import { postForm, sameOrigin } from "@tests/support/http";
import { createTestBucket, signedInUser } from "@tests/support/fixtures";

/*
 * Issue 36, item 4: a schema nested deeper than 64 levels (docs/schema-dialect.md) is refused with a message naming
 * the limit, never a 500, at every way in over real HTTP: the bucket form (save and preview), the import (pasted and
 * uploaded), the impact preview (page and stream). Both kinds of deep text: valid JSON that nests too deep, and
 * 200,000 open brackets that JSON.parse refuses (the grammar walk that then looked for the error overflowed the
 * stack). Item 12c: an rjsf-style schema with definitions and $ref gets one message, not one per field.
 */

let server: TestServer;
let admin: string;
let counter = 0;
const unique = (label: string) => `${label}-${++counter}-${Date.now().toString(36)}`;

beforeAll(async () => {
  server = await startTestServer();
  admin = (await signedInUser(server.url, server.db, { permissions: ["user", "admin"] })).cookie;
});
afterAll(() => server.stop());

/** Valid JSON: a property whose default nests 100,000 lists (JSON.stringify and the dialect's walks overflowed). */
const DEEP_SCHEMA = `{"type":"object","properties":{"a":{"type":"array","default":${"[".repeat(100_000)}${"]".repeat(100_000)}}}}`;
/** Not JSON: 200,000 open brackets. */
const OPEN_BRACKETS = "[".repeat(200_000);
const TOO_DEEP = (column: number) =>
  `JSON error at line 1, column ${column}: objects and lists nest more than 64 levels deep here, the limit for a schema`;

function textOf(html: string): string {
  return html
    .replace(/<script[\s\S]*?<\/script>/g, " ")
    .replace(/<[^>]+>/g, " ")
    .replace(/&quot;/g, '"')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&amp;/g, "&")
    .replace(/\s+/g, " ");
}

async function post(path: string, fields: Record<string, string>) {
  const response = await postForm(server.url, path, fields, admin);
  return { status: response.status, text: textOf(await response.text()) };
}

const bucketCount = async (slug: string) => (await server.db.query(`SELECT 1 FROM buckets WHERE slug = $1`, [slug])).rows.length;

describe("the bucket form refuses a schema nested too deep (422, the input kept)", () => {
  it.each<[string, string, number]>([
    ["valid JSON nested 100,000 levels", DEEP_SCHEMA, 123],
    ["200,000 open brackets", OPEN_BRACKETS, 65],
  ])("%s", async (_name, jsonSchema, column) => {
    for (const intent of ["save", "preview"]) {
      const slug = unique("deep");
      const { status, text } = await post("/settings/buckets/new", {
        intent,
        slug,
        name: "Deep",
        collectionName: slug,
        locales: "en",
        jsonSchema,
      });
      expect(status, intent).toBe(422);
      expect(text, intent).toContain(TOO_DEEP(column));
      expect(text).not.toContain("Something went wrong");
      expect(await bucketCount(slug)).toBe(0);
    }
  });
});

describe("the import refuses a definition whose schema nests too deep (422)", () => {
  const definition = (slug: string, jsonSchema: string) =>
    `{"slug":"${slug}","name":"Deep","collectionName":"${slug}","locales":["en"],"jsonSchema":${jsonSchema}}`;

  it.each<[string, string, number]>([
    ["valid JSON nested 100,000 levels", DEEP_SCHEMA, 123],
    ["200,000 open brackets", OPEN_BRACKETS, 65],
  ])("%s, pasted and uploaded", async (_name, jsonSchema, columnInSchema) => {
    const slug = unique("deep-import");
    // The same bracket as in the form: the schema starts after the definition's other fields.
    const column = definition(slug, "").length - 1 + columnInSchema;
    const pasted = await post("/settings/buckets/import", { intent: "check", definition: definition(slug, jsonSchema) });
    expect(pasted.status).toBe(422);
    expect(pasted.text).toContain(`The definition can't be imported: ${TOO_DEEP(column)}`);

    const upload = new FormData();
    upload.append("file", new Blob([definition(slug, jsonSchema)], { type: "application/json" }), "deep.bucket.json");
    const uploaded = await fetch(`${server.url}/settings/buckets/import`, {
      method: "POST",
      body: upload,
      headers: { Cookie: admin, ...sameOrigin(server.url) },
      redirect: "manual",
    });
    expect(uploaded.status).toBe(422);
    expect(textOf(await uploaded.text())).toContain(TOO_DEEP(column));
    expect(await bucketCount(slug)).toBe(0);
  });

  it("imports a schema at the limit: the definition around it is not counted", async () => {
    const slug = unique("at-limit");
    // 3 levels (the schema, properties, a) and 61 lists: 64 levels, inside the definition's own.
    const atLimit = `{"type":"object","properties":{"a":{"type":"array","default":${"[".repeat(61)}${"]".repeat(61)}}}}`;
    const response = await postForm(
      server.url,
      "/settings/buckets/import",
      { intent: "check", definition: definition(slug, atLimit) },
      admin,
    );
    expect(response.status).toBe(302);
    expect(await bucketCount(slug)).toBe(1);
  });
});

describe("the impact preview refuses a schema nested too deep (400)", () => {
  const message = "The schema nests objects and lists more than 64 levels deep, the limit for a schema";

  it.each([
    ["valid JSON nested 100,000 levels", DEEP_SCHEMA],
    ["200,000 open brackets", OPEN_BRACKETS],
  ])("%s: the page and its stream", async (_name, jsonSchema) => {
    const bucket = await createTestBucket(server.db);
    const page = await post(`/settings/buckets/${bucket.slug}/impact`, { jsonSchema });
    expect(page.status).toBe(400);
    expect(page.text).toContain(message);
    const stream = await postForm(server.url, `/settings/buckets/${bucket.slug}/impact/stream`, { jsonSchema }, admin);
    expect(stream.status).toBe(400);
    expect(await stream.json()).toEqual({ error: message });
  });
});

describe("an rjsf-style schema with definitions and $ref (item 12c)", () => {
  const rjsf = {
    type: "object",
    definitions: { address: { type: "object", properties: { street: { type: "string" }, city: { type: "string" } } } },
    properties: {
      billing_address: { title: "Billing address", $ref: "#/definitions/address" },
      shipping_address: { title: "Shipping address", $ref: "#/definitions/address" },
    },
  };
  const message = 'The keyword $ref is not supported: inline the definition "address" where it is used, then remove definitions.';

  it("is refused once, naming the definition to inline, by the form and the import", async () => {
    const slug = unique("rjsf");
    const form = await post("/settings/buckets/new", {
      intent: "save",
      slug,
      name: "Rjsf",
      collectionName: slug,
      locales: "en",
      jsonSchema: JSON.stringify(rjsf, null, 2),
    });
    expect(form.status).toBe(422);
    expect(form.text.split(message)).toHaveLength(2);
    expect(form.text).not.toContain("the keyword $ref is not supported: the form can't render it");
    expect(form.text).not.toContain("the keyword definitions is not supported");

    const imported = await post("/settings/buckets/import", {
      intent: "check",
      definition: JSON.stringify({ slug, name: "Rjsf", collectionName: slug, locales: ["en"], jsonSchema: rjsf }),
    });
    expect(imported.status).toBe(422);
    expect(imported.text).toContain(`The definition can't be imported: ${message}`);
    expect(imported.text.split("$ref is not supported")).toHaveLength(2);
    expect(imported.text).not.toContain("the form can't render it");
    expect(await bucketCount(slug)).toBe(0);
  });
});

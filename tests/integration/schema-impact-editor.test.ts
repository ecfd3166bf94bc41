import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Bucket } from "@server/content/buckets";
import { createContent, getLatestVersion, type ContentVersion } from "@server/content/store";
import { startTestServer, type TestServer } from "@tests/support/server";
import { postForm } from "@tests/support/http";
import { createTestBucket, decode, page, signedInUser } from "@tests/support/fixtures";

/*
 * Issue 11: "nothing in stored documents is changed by a schema change; an editor opening a document that no longer
 * validates sees its errors and can fix them". Documents saved under one schema, the bucket's schema changed under
 * them, then opened and fixed on the edit page (without JavaScript: the errors are in the server's HTML).
 */

const BEFORE = {
  type: "object",
  properties: {
    title: { type: "string", title: "Title" },
    year: { type: "integer", title: "Year" },
    maker: { type: "string", title: "Maker" },
    tags: { type: "array", title: "Tags", items: { type: "string" } },
    size: { type: "object", title: "Size", properties: { height: { type: "number", title: "Height" } } },
  },
};

const AFTER = {
  type: "object",
  required: ["title"],
  properties: {
    title: { type: "string", title: "Title", minLength: 5 },
    year: { type: "integer", title: "Year", maximum: 1960 },
    tags: { type: "array", title: "Tags", items: { type: "string", maxLength: 4 } },
    size: { type: "object", title: "Size", properties: { height: { type: "string", title: "Height" } } },
  },
};

let server: TestServer;
let bucket: Bucket;
let editor: string;
let broken: ContentVersion;

beforeAll(async () => {
  server = await startTestServer();
  bucket = await createTestBucket(server.db, { jsonSchema: BEFORE });
  broken = await createContent(
    server.db,
    bucket.id,
    { title: "Sea", year: 2005, maker: "Mesdag", tags: ["coast", "sea"], size: { height: 12.5 } },
    null,
  );
  editor = (await signedInUser(server.url, server.db)).cookie;
  // The schema changes under the stored documents (the bucket page's save does this, and only this).
  await server.db.query("UPDATE buckets SET json_schema = $2 WHERE id = $1", [bucket.id, JSON.stringify(AFTER)]);
});
afterAll(() => server.stop());

/** The message under the field named `name`, or null. */
function fieldError(html: string, name: string): string | null {
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const match = new RegExp(`<p id="[^"]*-${escaped}-error" class="field-error" role="alert">([^<]*)</p>`).exec(html);
  return match ? decode(match[1]!) : null;
}

/** The messages under a field that has several: its error paragraph's lines. */
function errorLines(html: string, name: string): string[] {
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const box = new RegExp(`<p id="[^"]*-${escaped}-error" class="field-error" role="alert">(.*?)</p>`).exec(html)?.[1] ?? "";
  return [...box.matchAll(/<span class="error-line"> ?([^<]*)<\/span>/g)].map((match) => decode(match[1]!));
}

describe("a document that no longer fits its bucket's schema", () => {
  it("opens on the edit page with its errors under its fields and a notice", async () => {
    const { status, html } = await page(server.url, `/b/${bucket.slug}/${broken.contentId}/latest`, editor);
    expect(status).toBe(200);
    const text = decode(html);
    expect(text).toContain("This document does not match the bucket's current schema.");
    expect(fieldError(html, "title")).toBe("This text should be at least 5 characters");
    expect(fieldError(html, "year")).toBe("This value can't be more than 1960");
    expect(fieldError(html, "tags[0]")).toBe("This text can't be longer than 4 characters");
    expect(fieldError(html, "tags[1]")).toBeNull();
    // A number where the field is now a text: the spec's message, and the value the field shows (issue 36).
    expect(errorLines(html, "size.height")).toEqual(["This field is required", "Stored value: 12.5"]);
    // The removed property has no field: its message is the form's.
    expect(text).toMatch(/<p class="form-error" role="alert">[^<]*Unknown field: maker/);
    // The stored values are in the form, to be fixed.
    expect(text).toContain('value="2005"');
  });

  it("opens without errors once it fits", async () => {
    const fitting = await createContent(server.db, bucket.id, { title: "Fitting", year: 1950 }, null);
    const { status, html } = await page(server.url, `/b/${bucket.slug}/${fitting.contentId}/latest`, editor);
    expect(status).toBe(200);
    expect(html).not.toContain('class="field-error"');
    expect(decode(html)).not.toContain("does not match the bucket's current schema");
  });

  it("opens even when its values have other types than the schema's fields", async () => {
    const odd = await createContent(
      server.db,
      bucket.id,
      { title: { en: "An object" }, year: "nineteen", tags: "coast", size: [1, 2] },
      null,
    );
    const { status, html } = await page(server.url, `/b/${bucket.slug}/${odd.contentId}/latest`, editor);
    expect(status).toBe(200);
    expect(decode(html)).toContain("This document does not match the bucket's current schema.");
  });

  it("shows a value the schema now refuses as a whole under its message, each message on its own line (issue 36)", async () => {
    const changed = await createTestBucket(server.db, {
      jsonSchema: {
        type: "object",
        properties: { born: { type: "integer", title: "Born" }, room: { type: "string", title: "Room", enum: ["east", "atrium"] } },
      },
    });
    const odd = await createContent(server.db, changed.id, { born: "1831-02-23", room: "attic" }, null);
    for (const [language, expected] of [
      ["en-US", { born: ["This field is required", "Stored value: 1831-02-23"], room: ["Pick one of the options", "Stored value: attic"] }],
      [
        "nl-NL",
        {
          born: ["Dit is een verplicht veld", "Opgeslagen waarde: 1831-02-23"],
          room: ["Kies een van de opties", "Opgeslagen waarde: attic"],
        },
      ],
    ] as const) {
      const { status, html } = await page(server.url, `/b/${changed.slug}/${odd.contentId}/latest`, editor, {
        "Accept-Language": language,
      });
      expect(status).toBe(200);
      expect({ born: errorLines(html, "born"), room: errorLines(html, "room") }).toEqual(expected);
    }
  });

  it("is fixed by the editor: a new version that fits, the old version kept as it was", async () => {
    const fields = {
      __contentId: broken.contentId,
      __baseVersionId: broken.versionId,
      title: "Seascape",
      year: "1955",
      "tags[0]": "sea",
      "tags[1]": "sky",
      "size.height": "12.5 cm",
    };
    const response = await postForm(server.url, `/b/${bucket.slug}/${broken.contentId}/latest`, fields, editor, { Origin: server.url });
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe(`/b/${bucket.slug}/${broken.contentId}/latest?saved`);
    const latest = await getLatestVersion(server.db, bucket.id, broken.contentId);
    expect(latest?.data).toEqual({ title: "Seascape", year: 1955, tags: ["sea", "sky"], size: { height: "12.5 cm" } });
    const { rows } = await server.db.query<{ data: unknown }>("SELECT data FROM versions WHERE version_id = $1", [broken.versionId]);
    expect(rows[0]?.data).toEqual({ title: "Sea", year: 2005, maker: "Mesdag", tags: ["coast", "sea"], size: { height: 12.5 } });
    const { html } = await page(server.url, `/b/${bucket.slug}/${broken.contentId}/latest?saved`, editor);
    expect(html).not.toContain('class="field-error"');
  });
});

/**
 * Inline sub-forms through the one save pipeline (server/content/save-form.ts, save-subforms.ts): the sub-form's
 * fields post with the parent's under `__subforms.<field>.…`, and the referenced document and the parent are saved
 * in one transaction: all or none. A refused parent (validation, a conflict, a server check) leaves no
 * sub-document; a sub-document edited by someone else is a conflict with the spec's message and nothing is saved.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Bucket } from "@server/content/buckets";
import { createTestBucket, decode, signedInUser } from "@tests/support/fixtures";
import { get, postForm } from "@tests/support/http";
import { startTestServer, type TestServer } from "@tests/support/server";
import { inlineRefusals, loadInlineSubForms } from "@server/content/subforms";
import { compileBucketSchema } from "@server/content/validator";
import { translate } from "@core/messages";

const CONFLICT =
  "Version conflict: unfortunately the data in this sub-form has been edited by someone else. Open this document in another tab and apply your changes again.";
const SAVE_FAILED =
  "Error saving sub-form: for unknown reasons the sub-form couldn't be saved. Try again in a bit, or reach out to support.";
const FETCH_FAILED = "Something went wrong fetching the subform content, please try again or contact support.";

let server: TestServer;
let rooms: Bucket;
let exhibitions: Bucket;
let other: Bucket;
let editor: { cookie: string };

beforeAll(async () => {
  server = await startTestServer();
  const unique = Date.now().toString(36);
  rooms = await createTestBucket(server.db, {
    slug: `rooms-${unique}`,
    collectionName: `rooms-${unique}`,
    locales: ["en"],
    jsonSchema: {
      type: "object",
      required: ["name"],
      properties: { name: { type: "string", title: "Name", isNotEmpty: true }, capacity: { type: "integer", title: "Capacity" } },
    },
  });
  exhibitions = await createTestBucket(server.db, {
    slug: `exhibitions-${unique}`,
    collectionName: `exhibitions-${unique}`,
    locales: ["en"],
    jsonSchema: {
      type: "object",
      required: ["title"],
      properties: {
        title: { type: "string", title: "Title", isNotEmpty: true },
        room: { type: "string", title: "Room", _ref: rooms.collectionName, renderer: "inline" },
      },
    },
  });
  other = await createTestBucket(server.db, { locales: ["en"] });
  editor = await signedInUser(server.url, server.db);
});
afterAll(() => server.stop());

async function counts(bucket: Bucket) {
  const {
    rows: [row],
  } = await server.db.query<{ contents: number; versions: number }>(
    `SELECT (SELECT count(*) FROM contents WHERE bucket_id = $1)::int AS contents,
            (SELECT count(*) FROM versions v JOIN contents c ON c.content_id = v.content_id WHERE c.bucket_id = $1)::int AS versions`,
    [bucket.id],
  );
  return row!;
}

async function latest(bucket: Bucket, contentId: string) {
  const {
    rows: [row],
  } = await server.db.query<{ versionId: string; data: Record<string, unknown> }>(
    `SELECT v.version_id AS "versionId", v.data FROM contents c JOIN versions v ON v.version_id = c.latest_version_id WHERE c.content_id = $1 AND c.bucket_id = $2`,
    [contentId, bucket.id],
  );
  return row ?? null;
}

const post = (path: string, fields: Record<string, string>) =>
  postForm(server.url, path, { __contentId: "", __baseVersionId: "", ...fields }, editor.cookie);
const savedId = (response: Response) => /\/b\/[^/]+\/([0-9a-f-]{36})\/latest/.exec(response.headers.get("location") ?? "")?.[1] ?? null;

/** An exhibition with its room, both saved through the form. */
async function exhibitionWithRoom(title: string, room: string) {
  const response = await post(`/b/${exhibitions.slug}/new`, {
    title,
    room: "",
    "__subforms.room.__contentId": "",
    "__subforms.room.__baseVersionId": "",
    "__subforms.room.name": room,
  });
  expect(response.status).toBe(302);
  const id = savedId(response)!;
  const saved = await latest(exhibitions, id);
  const roomId = String(saved!.data.room);
  return { id, versionId: saved!.versionId, roomId, roomVersionId: (await latest(rooms, roomId))!.versionId };
}

describe("inline sub-form saves", () => {
  it("creates the room and the exhibition together, the field holding the room's contentId", async () => {
    const before = await counts(rooms);
    const response = await post(`/b/${exhibitions.slug}/new`, {
      title: "Spring",
      room: "",
      "__subforms.room.name": "East wing",
      "__subforms.room.capacity": "40",
    });
    expect(response.status).toBe(302);
    const exhibition = await latest(exhibitions, savedId(response)!);
    expect(exhibition?.data).toEqual({ title: "Spring", room: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    expect((await latest(rooms, String(exhibition!.data.room)))?.data).toEqual({ name: "East wing", capacity: 40 });
    expect((await counts(rooms)).contents).toBe(before.contents + 1);
  });

  it("saves no room when the parent is refused by validation, and keeps the sub-form's input", async () => {
    const before = await counts(rooms);
    const response = await post(`/b/${exhibitions.slug}/new`, { title: " ", room: "", "__subforms.room.name": "Orphan hall" });
    expect(response.status).toBe(400);
    const html = decode(await response.text());
    expect(html).toContain("This field is required");
    expect(html).toMatch(/name="__subforms\.room\.name"[^>]*value="Orphan hall"|value="Orphan hall"[^>]*name="__subforms\.room\.name"/);
    expect(await counts(rooms)).toEqual(before);
  });

  it("refuses an invalid sub-form with its error under the sub-form's field, saving neither", async () => {
    const [roomsBefore, exhibitionsBefore] = [await counts(rooms), await counts(exhibitions)];
    const response = await post(`/b/${exhibitions.slug}/new`, {
      title: "Summer",
      room: "",
      "__subforms.room.name": "",
      "__subforms.room.capacity": "12",
    });
    expect(response.status).toBe(400);
    const html = await response.text();
    expect(html).toMatch(/id="[^"]*__subforms\.room\.name[^"]*-error"[^>]*>This field is required/);
    expect(await counts(rooms)).toEqual(roomsBefore);
    expect(await counts(exhibitions)).toEqual(exhibitionsBefore);
  });

  it("creates nothing for a new sub-form left empty", async () => {
    const before = await counts(rooms);
    const response = await post(`/b/${exhibitions.slug}/new`, {
      title: "Autumn",
      room: "",
      "__subforms.room.name": "",
      "__subforms.room.capacity": "",
    });
    expect(response.status).toBe(302);
    expect((await latest(exhibitions, savedId(response)!))?.data).toEqual({ title: "Autumn" });
    expect(await counts(rooms)).toEqual(before);
  });

  it("saves an edited room as a new version on top of the one the form was loaded with", async () => {
    const saved = await exhibitionWithRoom("Winter", "North hall");
    const response = await post(`/b/${exhibitions.slug}/${saved.id}/latest`, {
      __contentId: saved.id,
      __baseVersionId: saved.versionId,
      title: "Winter",
      room: saved.roomId,
      "__subforms.room.__contentId": saved.roomId,
      "__subforms.room.__baseVersionId": saved.roomVersionId,
      "__subforms.room.name": "North hall (renovated)",
    });
    expect(response.status).toBe(302);
    expect((await latest(rooms, saved.roomId))?.data).toEqual({ name: "North hall (renovated)" });
    expect((await latest(exhibitions, saved.id))?.data.room).toBe(saved.roomId);
  });

  it("answers a room edited by someone else with the spec's conflict message and saves nothing", async () => {
    const saved = await exhibitionWithRoom("Conflict", "South hall");
    const moved = await post(`/b/${rooms.slug}/${saved.roomId}/latest`, {
      __contentId: saved.roomId,
      __baseVersionId: saved.roomVersionId,
      name: "South hall, by someone else",
    });
    expect(moved.status).toBe(302);
    const [roomsBefore, exhibitionsBefore] = [await counts(rooms), await counts(exhibitions)];
    const response = await post(`/b/${exhibitions.slug}/${saved.id}/latest`, {
      __contentId: saved.id,
      __baseVersionId: saved.versionId,
      title: "Conflict, changed",
      room: saved.roomId,
      "__subforms.room.__contentId": saved.roomId,
      "__subforms.room.__baseVersionId": saved.roomVersionId,
      "__subforms.room.name": "South hall, by me",
    });
    expect(response.status).toBe(409);
    expect(decode(await response.text())).toContain(CONFLICT);
    expect(await counts(rooms)).toEqual(roomsBefore);
    expect(await counts(exhibitions)).toEqual(exhibitionsBefore);
    expect((await latest(rooms, saved.roomId))?.data).toEqual({ name: "South hall, by someone else" });
  });

  it("leaves the room unchanged when the parent is the one in conflict", async () => {
    const saved = await exhibitionWithRoom("Parent conflict", "West hall");
    const moved = await post(`/b/${exhibitions.slug}/${saved.id}/latest`, {
      __contentId: saved.id,
      __baseVersionId: saved.versionId,
      title: "Parent conflict, by someone else",
      room: saved.roomId,
    });
    expect(moved.status).toBe(302);
    const roomsBefore = await counts(rooms);
    const response = await post(`/b/${exhibitions.slug}/${saved.id}/latest`, {
      __contentId: saved.id,
      __baseVersionId: saved.versionId,
      title: "Parent conflict, by me",
      room: saved.roomId,
      "__subforms.room.__contentId": saved.roomId,
      "__subforms.room.__baseVersionId": saved.roomVersionId,
      "__subforms.room.name": "West hall, by me",
    });
    expect(response.status).toBe(409);
    expect(await counts(rooms)).toEqual(roomsBefore);
    expect((await latest(rooms, saved.roomId))?.data).toEqual({ name: "West hall" });
  });

  it("saves no new version of a room the form left as it was loaded", async () => {
    const saved = await exhibitionWithRoom("Unchanged room", "East hall");
    const roomsBefore = await counts(rooms);
    const response = await post(`/b/${exhibitions.slug}/${saved.id}/latest`, {
      __contentId: saved.id,
      __baseVersionId: saved.versionId,
      title: "Unchanged room, retitled",
      room: saved.roomId,
      "__subforms.room.__contentId": saved.roomId,
      "__subforms.room.__baseVersionId": saved.roomVersionId,
      "__subforms.room.name": "East hall",
    });
    expect(response.status).toBe(302);
    expect(await counts(rooms)).toEqual(roomsBefore);
    expect((await latest(exhibitions, saved.id))?.data).toMatchObject({ title: "Unchanged room, retitled", room: saved.roomId });
  });

  it("merges a stale parent with the newest: someone else's title kept, the editor's room saved", async () => {
    const saved = await exhibitionWithRoom("Merged parent", "Glass hall");
    const moved = await post(`/b/${exhibitions.slug}/${saved.id}/latest`, {
      __contentId: saved.id,
      __baseVersionId: saved.versionId,
      title: "Merged parent, by someone else",
      room: saved.roomId,
      "__subforms.room.__contentId": saved.roomId,
      "__subforms.room.__baseVersionId": saved.roomVersionId,
      "__subforms.room.name": "Glass hall",
    });
    expect(moved.status).toBe(302);
    const response = await post(`/b/${exhibitions.slug}/${saved.id}/latest`, {
      __contentId: saved.id,
      __baseVersionId: saved.versionId,
      title: "Merged parent",
      room: saved.roomId,
      "__subforms.room.__contentId": saved.roomId,
      "__subforms.room.__baseVersionId": saved.roomVersionId,
      "__subforms.room.name": "Glass hall (east wing)",
    });
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toMatch(/&merged$/);
    expect((await latest(exhibitions, saved.id))?.data).toMatchObject({ title: "Merged parent, by someone else", room: saved.roomId });
    expect((await latest(rooms, saved.roomId))?.data).toEqual({ name: "Glass hall (east wing)" });
  });

  it("refuses a sub-form that names a document of another bucket as a failed sub-form save, saving nothing", async () => {
    const foreign = await post(`/b/${other.slug}/new`, { title: "Not a room" });
    const foreignId = savedId(foreign)!;
    const foreignVersion = (await latest(other, foreignId))!.versionId;
    const before = [await counts(rooms), await counts(exhibitions), await counts(other)];
    const response = await post(`/b/${exhibitions.slug}/new`, {
      title: "Hostile",
      room: foreignId,
      "__subforms.room.__contentId": foreignId,
      "__subforms.room.__baseVersionId": foreignVersion,
      "__subforms.room.name": "Overwritten?",
    });
    expect(response.status).toBe(500);
    expect(decode(await response.text())).toContain(SAVE_FAILED);
    expect([await counts(rooms), await counts(exhibitions), await counts(other)]).toEqual(before);
    expect((await latest(other, foreignId))?.data).toEqual({ title: "Not a room" });
  });
});

describe("inline sub-form loading", () => {
  it("renders the referenced room's form with its values, contentId and base version", async () => {
    const saved = await exhibitionWithRoom("Loaded", "Loaded hall");
    const response = await get(server.url, `/b/${exhibitions.slug}/${saved.id}/latest`, editor.cookie);
    const html = decode(await response.text());
    expect(html).toMatch(new RegExp(`name="__subforms\\.room\\.__baseVersionId"[^>]*value="${saved.roomVersionId}"`));
    expect(html).toMatch(/name="__subforms\.room\.name"[^>]*value="Loaded hall"/);
  });

  it("clears the field and leaves the sub-form empty when the room is gone (fetch 404)", async () => {
    const saved = await exhibitionWithRoom("Gone", "Demolished hall");
    await server.db.query("DELETE FROM contents WHERE content_id = $1", [saved.roomId]);
    const html = decode(await (await get(server.url, `/b/${exhibitions.slug}/${saved.id}/latest`, editor.cookie)).text());
    expect(html).toMatch(/<input type="hidden" name="room" value=""/);
    expect(html).not.toContain("Demolished hall");
    expect(html).toContain("A new document is created when you save.");
  });

  it("says the sub-form's content could not be fetched, keeping the field's value, when the load fails", async () => {
    const saved = await exhibitionWithRoom("Failing", "Failing hall");
    // The database fails on the one read of the referenced document (a lost connection, say): not a 404.
    const failing = {
      ...server.db,
      query: (sql: string, params?: unknown[]) =>
        sql.includes("c.latest_version_id") && sql.includes("c.content_id = $1")
          ? Promise.reject(new Error("connection lost"))
          : server.db.query(sql, params),
    };
    const logged: string[] = [];
    const logger = { error: (_: unknown, message: string) => logged.push(message) };
    const context = { db: failing, logger } as unknown as Parameters<typeof loadInlineSubForms>[0];
    const user = { buckets: null } as unknown as Parameters<typeof loadInlineSubForms>[1];
    const { schema } = compileBucketSchema(exhibitions);
    const loaded = await loadInlineSubForms(context, user, schema, { title: "Failing", room: saved.roomId });
    expect(loaded.subForms.room).toEqual({ state: "failed", collection: rooms.collectionName });
    expect(loaded.cleared).toEqual([]);
    expect(logged).toEqual(["Error fetching the sub-form content"]);
    expect(translate("en", "subForm.fetchFailed")).toBe(FETCH_FAILED);
  });
});

describe("inline sub-forms of buckets with media fields", () => {
  it("are refused by the bucket admin's check, and render as a plain reference with the reason", async () => {
    const portraits = await createTestBucket(server.db, {
      locales: ["en"],
      jsonSchema: { type: "object", properties: { name: { type: "string" }, photo: { type: "string", _ref: "b-image" } } },
    });
    const schema = {
      type: "object",
      properties: {
        portrait: { type: "string", _ref: portraits.collectionName, renderer: "inline" },
        room: { type: "string", _ref: rooms.collectionName, renderer: "inline" },
      },
    };
    expect(await inlineRefusals(server.db, JSON.stringify(schema))).toEqual({ [portraits.collectionName]: "media" });
    // A bucket saved before the check (or whose sub-bucket gained a media field later) renders the reference select.
    const legacy = await createTestBucket(server.db, { locales: ["en"], jsonSchema: schema });
    const html = decode(await (await get(server.url, `/b/${legacy.slug}/new`, editor.cookie)).text());
    expect(html).toContain(
      "This sub-form can't be shown here: its document has media fields, which an inline sub-form can't hold (use a popup sub-form). Choose the document instead.",
    );
    expect(html).toMatch(/<select[^>]*name="portrait"/);
  });
});

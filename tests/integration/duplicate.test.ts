/**
 * Duplicating a document (/b/{bucket}/duplicate/{contentId}/latest) through the form, on a real database over real
 * HTTP: the inline sub-documents belong to the original, so the copy gets copies of them (a nested one and those
 * in a list too, at any depth) in the save's transaction, all or none; the copy's title is marked as a copy in the
 * editor's language (server/content/duplicate.ts, core/content/title.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Bucket } from "@server/content/buckets";
import { createContent, getLatestVersion } from "@server/content/store";
import { createTestBucket, decode, signedInUser } from "@tests/support/fixtures";
import { get, inputValue, postForm } from "@tests/support/http";
import { startTestServer, type TestServer } from "@tests/support/server";

let server: TestServer;
let editor: { cookie: string };
let lamps: Bucket;
let rooms: Bucket;
let exhibitions: Bucket;
/** Rooms with an inline lamp of their own: saved before the dialect refused an inline sub-form inside another. */
let litRooms: Bucket;
/** Halls: an inline lit room (shown as a reference select: it nests) and a list of inline lamps (legacy too). */
let halls: Bucket;

beforeAll(async () => {
  server = await startTestServer();
  const unique = Date.now().toString(36);
  const bucket = (name: string, properties: Record<string, unknown>, required: string[]) =>
    createTestBucket(server.db, {
      slug: `${name}-${unique}`,
      collectionName: `${name}-${unique}`,
      name,
      locales: ["en"],
      jsonSchema: { type: "object", required, properties },
    });
  lamps = await bucket("lamps", { name: { type: "string", title: "Name", isNotEmpty: true }, watts: { type: "integer", title: "Watts" } }, [
    "name",
  ]);
  rooms = await bucket(
    "rooms",
    { name: { type: "string", title: "Name", isNotEmpty: true }, capacity: { type: "integer", title: "Capacity" } },
    ["name"],
  );
  exhibitions = await bucket(
    "exhibitions",
    {
      title: { type: "string", title: "Title", isNotEmpty: true },
      room: { type: "string", title: "Room", _ref: rooms.collectionName, renderer: "inline" },
    },
    ["title"],
  );
  litRooms = await bucket(
    "lit-rooms",
    {
      name: { type: "string", title: "Name" },
      lamp: { type: "string", title: "Lamp", _ref: lamps.collectionName, renderer: "inline" },
    },
    [],
  );
  halls = await bucket(
    "halls",
    {
      title: { type: "string", title: "Title" },
      room: { type: "string", title: "Room", _ref: litRooms.collectionName, renderer: "inline" },
      lamps: { type: "array", title: "Lamps", items: { type: "string", _ref: lamps.collectionName, renderer: "inline" } },
    },
    [],
  );
  editor = await signedInUser(server.url, server.db);
});
afterAll(() => server.stop());

const post = (path: string, fields: Record<string, string>) =>
  postForm(server.url, path, { __contentId: "", __baseVersionId: "", ...fields }, editor.cookie);
const savedId = (response: Response) => /\/b\/[^/]+\/([0-9a-f-]{36})\/latest/.exec(response.headers.get("location") ?? "")?.[1] ?? null;
const data = async (bucket: Bucket, contentId: string) => (await getLatestVersion(server.db, bucket.id, contentId))?.data ?? null;

async function counts(...buckets: Bucket[]) {
  return Promise.all(
    buckets.map(async (bucket) => {
      const { rows } = await server.db.query<{ contents: number; versions: number }>(
        `SELECT (SELECT count(*) FROM contents WHERE bucket_id = $1)::int AS contents,
              (SELECT count(*) FROM versions v JOIN contents c ON c.content_id = v.content_id WHERE c.bucket_id = $1)::int AS versions`,
        [bucket.id],
      );
      return rows[0]!;
    }),
  );
}

/** An exhibition with its room, saved through the form. */
async function exhibitionWithRoom(title: string, room: string) {
  const response = await post(`/b/${exhibitions.slug}/new`, {
    title,
    room: "",
    "__subforms.room.name": room,
    "__subforms.room.capacity": "40",
  });
  expect(response.status).toBe(302);
  const id = savedId(response)!;
  return { id, roomId: String((await data(exhibitions, id))!.room) };
}

/** What the duplicate page posts without JavaScript: its fields as it renders them. */
async function duplicatePage(bucket: Bucket, contentId: string, headers: Record<string, string> = {}) {
  const response = await get(server.url, `/b/${bucket.slug}/duplicate/${contentId}/latest`, editor.cookie, headers);
  expect(response.status).toBe(200);
  return decode(await response.text());
}

describe("duplicating a document with an inline sub-form", () => {
  it("gives the copy its own room with the same content, which the copy's edits change without touching the original", async () => {
    const original = await exhibitionWithRoom("Spring", "East wing");
    const html = await duplicatePage(exhibitions, original.id);
    // The sub-form is a new document with the room's content; the page says a copy is made.
    expect(inputValue(html, "__subforms.room.__contentId")).toBe("");
    expect(inputValue(html, "__subforms.room.__baseVersionId")).toBe("");
    expect(inputValue(html, "room")).toBe("");
    expect(inputValue(html, "__subforms.room.name")).toBe("East wing");
    expect(html).toContain("Saving creates a copy of “East wing” for this document; the original stays as it is.");
    expect(inputValue(html, "title")).toBe("Spring (copy)");

    const [roomsBefore] = await counts(rooms);
    const names = [
      "title",
      "room",
      "__subforms.room.__contentId",
      "__subforms.room.__baseVersionId",
      "__subforms.room.name",
      "__subforms.room.capacity",
    ];
    const response = await post(
      `/b/${exhibitions.slug}/duplicate/${original.id}/latest`,
      Object.fromEntries(names.map((name) => [name, inputValue(html, name) ?? ""])),
    );
    expect(response.status).toBe(302);
    const copyId = savedId(response)!;
    expect(copyId).not.toBe(original.id);
    const copy = (await data(exhibitions, copyId))!;
    expect(copy.title).toBe("Spring (copy)");
    const copyRoomId = String(copy.room);
    expect(copyRoomId).toMatch(/^[0-9a-f-]{36}$/);
    expect(copyRoomId).not.toBe(original.roomId);
    expect(await data(rooms, copyRoomId)).toEqual({ name: "East wing", capacity: 40 });
    expect((await counts(rooms))[0]).toEqual({ contents: roomsBefore!.contents + 1, versions: roomsBefore!.versions + 1 });

    // The copy's page edits the copy's room; the original's room stays as it was.
    const copyPage = decode(await (await get(server.url, `/b/${exhibitions.slug}/${copyId}/latest`, editor.cookie)).text());
    expect(inputValue(copyPage, "__subforms.room.__contentId")).toBe(copyRoomId);
    const edited = await post(`/b/${exhibitions.slug}/${copyId}/latest`, {
      __contentId: copyId,
      __baseVersionId: inputValue(copyPage, "__baseVersionId")!,
      title: "Spring (copy)",
      room: copyRoomId,
      "__subforms.room.__contentId": copyRoomId,
      "__subforms.room.__baseVersionId": inputValue(copyPage, "__subforms.room.__baseVersionId")!,
      "__subforms.room.name": "East wing, repainted",
      "__subforms.room.capacity": "40",
    });
    expect(edited.status).toBe(302);
    expect(await data(rooms, copyRoomId)).toEqual({ name: "East wing, repainted", capacity: 40 });
    expect(await data(rooms, original.roomId)).toEqual({ name: "East wing", capacity: 40 });
    expect(await data(exhibitions, original.id)).toEqual({ title: "Spring", room: original.roomId });
  });

  it("keeps what the editor changed in the copy's sub-form, and saves a new room, never a version of the original's", async () => {
    const original = await exhibitionWithRoom("Summer", "West wing");
    const originalRoom = (await getLatestVersion(server.db, rooms.id, original.roomId))!;
    // A page loaded before duplicates copied their sub-documents (or a crafted post) names the original's room.
    const response = await post(`/b/${exhibitions.slug}/duplicate/${original.id}/latest`, {
      title: "Summer, again",
      room: original.roomId,
      "__subforms.room.__contentId": original.roomId,
      "__subforms.room.__baseVersionId": originalRoom.versionId,
      "__subforms.room.name": "West wing, smaller",
      "__subforms.room.capacity": "12",
    });
    expect(response.status).toBe(302);
    const copyRoomId = String((await data(exhibitions, savedId(response)!))!.room);
    expect(copyRoomId).not.toBe(original.roomId);
    expect(await data(rooms, copyRoomId)).toEqual({ name: "West wing, smaller", capacity: 12 });
    expect((await getLatestVersion(server.db, rooms.id, original.roomId))!.versionId).toBe(originalRoom.versionId);
  });

  it("marks the title in the editor's interface language", async () => {
    const original = await exhibitionWithRoom("Herfst", "Noordzaal");
    const html = await duplicatePage(exhibitions, original.id, { "Accept-Language": "nl-NL" });
    expect(inputValue(html, "title")).toBe("Herfst (kopie)");
    expect(html).toContain("Bij het opslaan wordt een kopie van “Noordzaal” voor dit document gemaakt; het origineel blijft zoals het is.");
  });

  it("marks each locale of a translated title in that locale's word (the editor's for a locale the interface lacks)", async () => {
    const translated = await createTestBucket(server.db, {
      locales: ["nl", "en", "de"],
      jsonSchema: {
        type: "object",
        properties: { title: { type: "string", title: "Title", translate: true }, note: { type: "string", title: "Note" } },
      },
    });
    const original = await createContent(
      server.db,
      translated.id,
      { title: { nl: "Wad", en: "Mudflats", de: "Watt" }, note: "Low tide" },
      null,
    );
    const html = await duplicatePage(translated, original.contentId);
    expect([inputValue(html, "title.nl"), inputValue(html, "title.en"), inputValue(html, "title.de"), inputValue(html, "note")]).toEqual([
      "Wad (kopie)",
      "Mudflats (copy)",
      "Watt (copy)",
      "Low tide",
    ]);
  });
});

describe("duplicating nested inline sub-documents and those in a list", () => {
  /** A hall with a lit room (its lamp inline in it) and two lamps in a list, saved as documents. */
  async function hall(title: string, second: Record<string, unknown> = { name: "Second lamp", watts: 60 }) {
    const lamp = await createContent(server.db, lamps.id, { name: "Ceiling lamp", watts: 100 }, null);
    const room = await createContent(server.db, litRooms.id, { name: "Lit room", lamp: lamp.contentId }, null);
    const listed = [
      await createContent(server.db, lamps.id, { name: "First lamp", watts: 40 }, null),
      await createContent(server.db, lamps.id, second, null),
    ];
    const created = await createContent(
      server.db,
      halls.id,
      { title, room: room.contentId, lamps: listed.map((item) => item.contentId) },
      null,
    );
    return { id: created.contentId, roomId: room.contentId, lampId: lamp.contentId, listed: listed.map((item) => item.contentId) };
  }

  it("copies every level, so the copy shares none of the original's sub-documents", async () => {
    const original = await hall("Great hall");
    const before = await counts(halls, litRooms, lamps);
    const html = await duplicatePage(halls, original.id);
    // The room nests (its own inline lamp), so the page shows it as a reference select: it still names the original's.
    expect(html).toContain("This sub-form can't be shown here: its document has inline sub-forms of its own. Choose the document instead.");
    const response = await post(`/b/${halls.slug}/duplicate/${original.id}/latest`, {
      title: inputValue(html, "title")!,
      room: original.roomId,
      "lamps[0]": original.listed[0]!,
      "lamps[1]": original.listed[1]!,
    });
    expect(response.status).toBe(302);
    const copy = (await data(halls, savedId(response)!))!;
    expect(copy.title).toBe("Great hall (copy)");
    const [roomCopy, ...lampCopies] = [String(copy.room), ...(copy.lamps as string[])];
    expect([roomCopy, ...lampCopies].some((id) => id === original.roomId || original.listed.includes(id))).toBe(false);
    const roomData = (await data(litRooms, roomCopy))!;
    expect(roomData.name).toBe("Lit room");
    expect(roomData.lamp).not.toBe(original.lampId);
    expect(await data(lamps, String(roomData.lamp))).toEqual({ name: "Ceiling lamp", watts: 100 });
    expect(await Promise.all(lampCopies.map((id) => data(lamps, id)))).toEqual([
      { name: "First lamp", watts: 40 },
      { name: "Second lamp", watts: 60 },
    ]);
    // The originals are untouched; one hall, one room and three lamps more.
    expect(await data(litRooms, original.roomId)).toEqual({ name: "Lit room", lamp: original.lampId });
    expect(await data(halls, original.id)).toEqual({ title: "Great hall", room: original.roomId, lamps: original.listed });
    const after = await counts(halls, litRooms, lamps);
    expect(after.map((row, index) => row.contents - before[index]!.contents)).toEqual([1, 1, 3]);
  });

  it("leaves a document the editor picked instead of the original's referenced as it is", async () => {
    const original = await hall("Side hall");
    const picked = await createContent(server.db, lamps.id, { name: "Picked lamp" }, null);
    const response = await post(`/b/${halls.slug}/duplicate/${original.id}/latest`, {
      title: "Side hall (copy)",
      room: original.roomId,
      "lamps[0]": original.listed[0]!,
      "lamps[1]": picked.contentId,
    });
    expect(response.status).toBe(302);
    const lampIds = (await data(halls, savedId(response)!))!.lamps as string[];
    expect(lampIds[0]).not.toBe(original.listed[0]);
    expect(lampIds[1]).toBe(picked.contentId);
  });

  it("saves nothing when one sub-document cannot be copied after others were, and says which and why", async () => {
    // The second lamp was saved before its bucket required a name: it no longer fits the schema, so no valid copy
    // of it can be written. The room, its lamp and the first lamp are copied before it, in the same transaction.
    const original = await hall("Broken hall", { watts: 5 });
    const before = await counts(halls, litRooms, lamps);
    const response = await post(`/b/${halls.slug}/duplicate/${original.id}/latest`, {
      title: "Broken hall (copy)",
      room: original.roomId,
      "lamps[0]": original.listed[0]!,
      "lamps[1]": original.listed[1]!,
    });
    expect(response.status).toBe(422);
    const html = decode(await response.text());
    expect(html).toContain(
      `The sub-document “${original.listed[1]}” can't be copied: it no longer fits the schema of its bucket lamps. Correct it there first, then duplicate again.`,
    );
    expect(inputValue(html, "title")).toBe("Broken hall (copy)"); // input kept
    expect(await counts(halls, litRooms, lamps)).toEqual(before);
  });
});

import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clickTo, JS_MODES, launchBrowser, open } from "@tests/support/browser";
import { contentIdOf, control, countPosts, fieldBox, save, signedInContext, waitForFieldError } from "@tests/support/content-browser";
import { createTestBucket } from "@tests/support/fixtures";
import { startTestServer, type TestServer } from "@tests/support/server";
import { createContent, getLatestVersion, saveVersion } from "@server/content/store";
import type { Bucket } from "@server/content/buckets";

/*
 * The inline sub-form (spec §4, §8), with JavaScript and without: the referenced room's form inside the
 * exhibition's; the page validates both before it posts, the server saves both in one transaction; a room edited
 * by someone else is the spec's conflict message on the sub-form; a room that is gone leaves the field cleared
 * and the sub-form empty. A duplicate gets its own copy of the room: editing it leaves the original's alone.
 */

const CONFLICT =
  "Version conflict: unfortunately the data in this sub-form has been edited by someone else. Open this document in another tab and apply your changes again.";

let server: TestServer;
let browser: Browser;

beforeAll(async () => {
  [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
});
afterAll(async () => {
  await browser.close();
  await server.stop();
});

async function buckets() {
  const rooms = await createTestBucket(server.db, {
    name: "Rooms",
    locales: ["en"],
    jsonSchema: {
      type: "object",
      required: ["name"],
      properties: { name: { type: "string", title: "Name", isNotEmpty: true }, capacity: { type: "integer", title: "Capacity" } },
    },
  });
  const exhibitions = await createTestBucket(server.db, {
    name: "Exhibitions",
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
  return { rooms, exhibitions };
}

async function roomCount(rooms: Bucket) {
  const { rows } = await server.db.query<{ count: number }>("SELECT count(*)::int AS count FROM contents WHERE bucket_id = $1", [rooms.id]);
  return rows[0]!.count;
}

async function exhibitionRoom(exhibitions: Bucket, contentId: string) {
  const room = (await getLatestVersion(server.db, exhibitions.id, contentId))!.data.room;
  return typeof room === "string" ? room : "";
}

describe.each(JS_MODES)("inline sub-form $label", ({ javaScriptEnabled }) => {
  it("creates a room with an exhibition, and edits it from there", async () => {
    const { rooms, exhibitions } = await buckets();
    const ctx = await signedInContext(browser, server, { javaScriptEnabled });
    const page = await ctx.newPage();
    await open(page, `/b/${exhibitions.slug}/new`);
    await fieldBox(page, "room").getByText("A new document is created when you save.").waitFor();
    await control(page, "title").fill("Spring");
    await control(page, "__subforms.room.name").fill("East wing");
    await control(page, "__subforms.room.capacity").fill("40");
    await save(page);
    const exhibitionId = contentIdOf(page);
    const roomId = await exhibitionRoom(exhibitions, exhibitionId);
    expect((await getLatestVersion(server.db, rooms.id, roomId))!.data).toEqual({ name: "East wing", capacity: 40 });

    // The saved page shows the room's form with its values; a change saves a new version of the same room.
    expect(await control(page, "__subforms.room.name").inputValue()).toBe("East wing");
    await control(page, "__subforms.room.name").fill("East wing (renovated)");
    await save(page);
    expect(await exhibitionRoom(exhibitions, exhibitionId)).toBe(roomId);
    expect((await getLatestVersion(server.db, rooms.id, roomId))!.data).toEqual({ name: "East wing (renovated)", capacity: 40 });
    expect(await roomCount(rooms)).toBe(1);
    expect(ctx.errors).toEqual([]);
    await ctx.close();
  });

  it("does not save the exhibition while the room's form is invalid, showing the error under the room's field", async () => {
    const { rooms, exhibitions } = await buckets();
    const ctx = await signedInContext(browser, server, { javaScriptEnabled });
    const page = await ctx.newPage();
    await open(page, `/b/${exhibitions.slug}/new`);
    const posts = countPosts(page);
    await control(page, "title").fill("Summer");
    await control(page, "__subforms.room.capacity").fill("12");
    if (javaScriptEnabled) {
      await bucketSave(page);
      await waitForFieldError(page, "__subforms.room.name", "This field is required");
      expect(posts.count).toBe(0); // the parent's submit never fired
    } else {
      expect(await save(page)).toBe(400);
      await waitForFieldError(page, "__subforms.room.name", "This field is required");
      expect(await control(page, "__subforms.room.capacity").inputValue()).toBe("12"); // input kept
    }
    expect(await roomCount(rooms)).toBe(0);
    const { rows } = await server.db.query<{ count: number }>("SELECT count(*)::int AS count FROM contents WHERE bucket_id = $1", [
      exhibitions.id,
    ]);
    expect(rows[0]!.count).toBe(0);
    await ctx.close();
  });

  it("shows the spec's conflict message on the sub-form when someone else saved the room, and saves nothing", async () => {
    const { rooms, exhibitions } = await buckets();
    const ctx = await signedInContext(browser, server, { javaScriptEnabled });
    const page = await ctx.newPage();
    await open(page, `/b/${exhibitions.slug}/new`);
    await control(page, "title").fill("Autumn");
    await control(page, "__subforms.room.name").fill("North hall");
    await save(page);
    const exhibitionId = contentIdOf(page);
    const roomId = await exhibitionRoom(exhibitions, exhibitionId);
    const exhibitionVersion = (await getLatestVersion(server.db, exhibitions.id, exhibitionId))!.versionId;

    const room = (await getLatestVersion(server.db, rooms.id, roomId))!;
    await saveVersion(server.db, {
      bucketId: rooms.id,
      contentId: roomId,
      baseVersionId: room.versionId,
      data: { name: "North hall, by someone else" },
      userId: null,
    });
    await control(page, "title").fill("Autumn, changed");
    await control(page, "__subforms.room.name").fill("North hall, by me");
    expect(await save(page)).toBe(409);
    await waitForFieldError(page, "room", CONFLICT);
    expect((await getLatestVersion(server.db, rooms.id, roomId))!.data).toEqual({ name: "North hall, by someone else" });
    expect((await getLatestVersion(server.db, exhibitions.id, exhibitionId))!.versionId).toBe(exhibitionVersion);
    expect(await control(page, "__subforms.room.name").inputValue()).toBe("North hall, by me"); // input kept
    await ctx.close();
  });

  it("duplicates the exhibition with a copy of its room, whose edits leave the original's room alone", async () => {
    const { rooms, exhibitions } = await buckets();
    const room = await createContent(server.db, rooms.id, { name: "East wing", capacity: 40 }, null);
    const original = await createContent(server.db, exhibitions.id, { title: "Spring", room: room.contentId }, null);
    const ctx = await signedInContext(browser, server, { javaScriptEnabled });
    const page = await ctx.newPage();
    await open(page, `/b/${exhibitions.slug}`);
    await clickTo(page, page.getByRole("link", { name: "Duplicate" }), `/b/${exhibitions.slug}/duplicate/${original.contentId}/latest`);
    await fieldBox(page, "room")
      .getByText("Saving creates a copy of “East wing” for this document; the original stays as it is.")
      .waitFor();
    expect(await control(page, "title").inputValue()).toBe("Spring (copy)");
    expect(await control(page, "__subforms.room.name").inputValue()).toBe("East wing");
    await save(page);
    const copyId = contentIdOf(page);
    expect(copyId).not.toBe(original.contentId);
    const copyRoomId = await exhibitionRoom(exhibitions, copyId);
    expect(copyRoomId).not.toBe(room.contentId);
    expect((await getLatestVersion(server.db, rooms.id, copyRoomId))!.data).toEqual({ name: "East wing", capacity: 40 });

    // The copy's page edits the copy's room.
    await control(page, "__subforms.room.name").fill("East wing, repainted");
    await save(page);
    expect((await getLatestVersion(server.db, rooms.id, copyRoomId))!.data).toEqual({ name: "East wing, repainted", capacity: 40 });
    expect((await getLatestVersion(server.db, rooms.id, room.contentId))!.data).toEqual({ name: "East wing", capacity: 40 });
    expect((await getLatestVersion(server.db, exhibitions.id, original.contentId))!.data).toEqual({
      title: "Spring",
      room: room.contentId,
    });
    expect(await roomCount(rooms)).toBe(2);
    expect(ctx.errors).toEqual([]);
    await ctx.close();
  });

  it("clears the field and leaves the sub-form empty when the room is gone", async () => {
    const { rooms, exhibitions } = await buckets();
    const ctx = await signedInContext(browser, server, { javaScriptEnabled });
    const page = await ctx.newPage();
    await open(page, `/b/${exhibitions.slug}/new`);
    await control(page, "title").fill("Winter");
    await control(page, "__subforms.room.name").fill("Demolished hall");
    await save(page);
    const exhibitionId = contentIdOf(page);
    const roomId = await exhibitionRoom(exhibitions, exhibitionId);
    await server.db.query("DELETE FROM contents WHERE content_id = $1", [roomId]);

    await open(page, `/b/${exhibitions.slug}/${exhibitionId}/latest`);
    expect(await control(page, "room").inputValue()).toBe("");
    expect(await control(page, "__subforms.room.name").inputValue()).toBe("");
    await fieldBox(page, "room").getByText("A new document is created when you save.").waitFor();
    // Saved as it is, the exhibition no longer names the room.
    await save(page);
    expect(await exhibitionRoom(exhibitions, exhibitionId)).toBe("");
    expect(await roomCount(rooms)).toBe(0);
    await ctx.close();
  });
});

/** Clicks Save without waiting for a navigation (the page's validation may keep the post from leaving). */
async function bucketSave(page: import("playwright-core").Page) {
  await page.locator("form.bucket-form .form-actions button[type=submit]").click();
}

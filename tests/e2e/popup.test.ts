import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser, open } from "@tests/support/browser";
import { contentIdOf, control, fieldBox, save, signedInContext } from "@tests/support/content-browser";
import { createTestBucket, seedDocuments } from "@tests/support/fixtures";
import { pngOfSize } from "@tests/support/media-fixtures";
import { startTestServer, type TestServer } from "@tests/support/server";
import { createContent, getLatestVersion, saveVersion } from "@server/content/store";

/*
 * The popup sub-form (spec §2 'Edit {title}', §4, §5): the referenced document opens in the bucket-form modal,
 * which validates before it saves, closes with the saved document, cancels with nothing, and on a failed save
 * logs 'Error submitting form' and stays open with a message the user can act on. 'Choose existing' picks a document
 * with the reference select's search (issue 36), after which 'Edit …' edits that one; 'Clear choice' empties it.
 */

let server: TestServer;
let browser: Browser;

beforeAll(async () => {
  [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
});
afterAll(async () => {
  await browser.close();
  await server.stop();
});

describe("popup sub-form", () => {
  it("creates the referenced document through the modal, refuses invalid input, reports a conflict and cancels", async () => {
    const artists = await createTestBucket(server.db, {
      name: "Artists",
      jsonSchema: {
        type: "object",
        required: ["name"],
        properties: { name: { type: "string", title: "Name", isNotEmpty: true }, bio: { type: "string", title: "Bio" } },
      },
    });
    const works = await createTestBucket(server.db, {
      jsonSchema: {
        type: "object",
        properties: {
          title: { type: "string", title: "Title" },
          artist: { type: "string", title: "Artist", _ref: artists.collectionName, renderer: "popup" },
          curator: { type: "string", title: "Curator", _ref: artists.collectionName, renderer: "popup", "button-text": "Choose a curator" },
        },
      },
    });
    const ctx = await signedInContext(browser, server);
    const page = await ctx.newPage();
    const saves: number[] = [];
    page.on("response", (response) => {
      if (response.url().endsWith(`/api/v1/buckets/${artists.slug}/save`)) saves.push(response.status());
    });
    await open(page, `/b/${works.slug}/new`);
    const dialog = page.locator("dialog.bucket-form-modal");
    await fieldBox(page, "curator").getByRole("button", { name: "Choose a curator" }).waitFor(); // button-text

    // Invalid input: the modal's validator refuses it, nothing is sent, the modal stays open.
    await fieldBox(page, "artist").getByRole("button", { name: "Edit Artist" }).click();
    await dialog.waitFor({ state: "visible" });
    expect(await dialog.locator("h2").textContent()).toBe("Edit Artist");
    await dialog.getByRole("button", { name: "Submit" }).click();
    await dialog.locator(".field-error", { hasText: "This field is required" }).waitFor();
    expect(saves).toEqual([]);

    // Valid: saved, closed, and the field now holds the new document.
    await dialog.locator('input[name="name"]').fill("Hendrik Willem Mesdag");
    await dialog.getByRole("button", { name: "Submit" }).click();
    await dialog.waitFor({ state: "hidden" });
    expect(saves).toEqual([201]);
    const artistId = await control(page, "artist").inputValue();
    expect(artistId).toMatch(/^[0-9a-f-]{36}$/);
    await fieldBox(page, "artist").locator(".popup-current", { hasText: "Hendrik Willem Mesdag" }).waitFor();

    // Someone saves the artist in the meantime: the modal's save is refused (409), logged, and it stays open.
    await fieldBox(page, "artist").getByRole("button", { name: "Edit Hendrik Willem Mesdag" }).click();
    await dialog.waitFor({ state: "visible" });
    expect(await dialog.locator('input[name="name"]').inputValue()).toBe("Hendrik Willem Mesdag");
    const latest = (await getLatestVersion(server.db, artists.id, artistId))!;
    await saveVersion(server.db, {
      bucketId: artists.id,
      contentId: artistId,
      baseVersionId: latest.versionId,
      data: { name: "H. W. Mesdag" },
      userId: null,
    });
    await dialog.locator('input[name="bio"]').fill("Painter of the sea");
    await dialog.getByRole("button", { name: "Submit" }).click();
    await dialog.locator(".form-error", { hasText: "Version conflict" }).waitFor();
    expect(saves).toEqual([201, 409]);
    expect(await dialog.isVisible()).toBe(true);
    expect(await dialog.locator('input[name="bio"]').inputValue()).toBe("Painter of the sea"); // nothing lost
    expect(ctx.errors.filter((error) => error.includes("Error submitting form"))).toHaveLength(1);

    // Cancel: closed, the field keeps its value.
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await dialog.waitFor({ state: "hidden" });
    expect(await control(page, "artist").inputValue()).toBe(artistId);
    expect(ctx.errors.filter((error) => !error.includes("Error submitting form") && !error.includes("409"))).toEqual([]);
    await ctx.close();
  });

  it("uploads media of the modal's form to the modal's bucket, not the page's", async () => {
    const artists = await createTestBucket(server.db, {
      name: "Portraits",
      jsonSchema: {
        type: "object",
        properties: { name: { type: "string", title: "Name" }, portrait: { type: "string", title: "Portrait", _ref: "b-image" } },
      },
    });
    const works = await createTestBucket(server.db, {
      jsonSchema: {
        type: "object",
        properties: {
          title: { type: "string", title: "Title" },
          artist: { type: "string", title: "Artist", _ref: artists.collectionName, renderer: "popup" },
        },
      },
    });
    const directory = mkdtempSync(path.join(tmpdir(), "vitrine-popup-"));
    const portrait = path.join(directory, "portrait.png");
    writeFileSync(portrait, await pngOfSize(1920, 1080));
    const ctx = await signedInContext(browser, server);
    const page = await ctx.newPage();
    await open(page, `/b/${works.slug}/new`);
    await fieldBox(page, "artist").getByRole("button", { name: "Edit Artist" }).click();
    const dialog = page.locator("dialog.bucket-form-modal");
    await dialog.waitFor({ state: "visible" });
    await dialog.locator('input[name="name"]').fill("Jan Toorop");
    await dialog.locator('input[type="file"]').setInputFiles(portrait);
    await expect.poll(() => dialog.locator('input[name="portrait"]').inputValue(), { timeout: 20_000 }).toMatch(/^[0-9a-f-]{36}$/);
    const portraitId = await dialog.locator('input[name="portrait"]').inputValue();
    await dialog.getByRole("button", { name: "Submit" }).click();
    await dialog.waitFor({ state: "hidden" });

    const media = await server.db.query<{ bucketId: string }>(`SELECT bucket_id AS "bucketId" FROM media WHERE content_id = $1`, [
      portraitId,
    ]);
    expect(media.rows.map((row) => row.bucketId)).toEqual([artists.id]);
    const artistId = await control(page, "artist").inputValue();
    expect((await getLatestVersion(server.db, artists.id, artistId))!.data).toMatchObject({ name: "Jan Toorop", portrait: portraitId });
    expect(ctx.errors).toEqual([]);
    await ctx.close();
  });
  it("chooses an existing artist with the search, edits the chosen one (no new document) and clears the choice", async () => {
    const artists = await createTestBucket(server.db, {
      name: "Known artists",
      locales: ["en"],
      jsonSchema: { type: "object", required: ["name"], properties: { name: { type: "string", title: "Name", isNotEmpty: true } } },
    });
    const mesdag = (await createContent(server.db, artists.id, { name: "Hendrik Willem Mesdag" }, null)).contentId;
    // Over 200 documents: the picker asks the server, as the reference select's combobox does.
    await seedDocuments(server.db, artists.id, 230, "jsonb_build_object('name', 'Painter ' || lpad(n::text, 3, '0'))");
    const works = await createTestBucket(server.db, {
      locales: ["en"],
      jsonSchema: {
        type: "object",
        properties: {
          title: { type: "string", title: "Title" },
          artist: { type: "string", title: "Artist", _ref: artists.collectionName, renderer: "popup" },
        },
      },
    });
    const ctx = await signedInContext(browser, server);
    const page = await ctx.newPage();
    const saves: number[] = [];
    page.on("response", (response) => {
      if (response.url().endsWith(`/api/v1/buckets/${artists.slug}/save`)) saves.push(response.status());
    });
    await open(page, `/b/${works.slug}/new`);
    const field = fieldBox(page, "artist");
    await field.locator(".popup-current", { hasText: "No entries" }).waitFor();
    expect(await field.getByRole("button", { name: "Clear choice" }).count()).toBe(0);

    await field.getByRole("button", { name: "Choose existing" }).click();
    const picker = page.locator("dialog.reference-picker");
    await picker.waitFor({ state: "visible" });
    expect(await picker.locator("h2").textContent()).toBe("Choose Artist");
    await picker.getByRole("searchbox").fill("Mesdag");
    await picker.getByRole("button", { name: "Choose: Hendrik Willem Mesdag" }).click();
    await picker.waitFor({ state: "hidden" });
    expect(await control(page, "artist").inputValue()).toBe(mesdag);
    await field.locator(".popup-current", { hasText: "Hendrik Willem Mesdag" }).waitFor();
    await expect
      .poll(() => page.evaluate(() => (document.activeElement instanceof HTMLButtonElement ? document.activeElement.textContent : null)))
      .toBe("Choose existing");

    // 'Edit …' now edits the chosen artist: its data in the modal, saved as a new version of it.
    await field.getByRole("button", { name: "Edit Hendrik Willem Mesdag" }).click();
    const dialog = page.locator("dialog.bucket-form-modal");
    await dialog.waitFor({ state: "visible" });
    expect(await dialog.locator('input[name="name"]').inputValue()).toBe("Hendrik Willem Mesdag");
    await dialog.locator('input[name="name"]').fill("H. W. Mesdag");
    await dialog.getByRole("button", { name: "Submit" }).click();
    await dialog.waitFor({ state: "hidden" });
    expect(saves).toEqual([200]);
    expect(await control(page, "artist").inputValue()).toBe(mesdag);
    expect((await getLatestVersion(server.db, artists.id, mesdag))!.data).toEqual({ name: "H. W. Mesdag" });
    const { rows } = await server.db.query<{ count: number }>("SELECT count(*)::int AS count FROM contents WHERE bucket_id = $1", [
      artists.id,
    ]);
    expect(rows[0]!.count).toBe(231); // no new artist

    // The picker marks the chosen one; the work saves with it.
    await field.getByRole("button", { name: "Choose existing" }).click();
    await picker.waitFor({ state: "visible" });
    await picker.getByRole("searchbox").fill("Mesdag");
    expect(await picker.getByRole("button", { name: "Chosen: H. W. Mesdag" }).isDisabled()).toBe(true);
    await picker.getByRole("button", { name: "Close" }).click();
    await picker.waitFor({ state: "hidden" });
    await control(page, "title").fill("The Panorama");
    await save(page);
    const workId = contentIdOf(page);
    expect((await getLatestVersion(server.db, works.id, workId))!.data).toEqual({ title: "The Panorama", artist: mesdag });

    // Clearing the choice: the field is empty again and the work saves without an artist.
    await fieldBox(page, "artist").getByRole("button", { name: "Clear choice" }).click();
    await fieldBox(page, "artist").locator(".popup-current", { hasText: "No entries" }).waitFor();
    expect(await control(page, "artist").inputValue()).toBe("");
    await save(page);
    expect((await getLatestVersion(server.db, works.id, workId))!.data).toEqual({ title: "The Panorama" });
    expect(ctx.errors).toEqual([]);
    await ctx.close();
  }, 60_000);
});

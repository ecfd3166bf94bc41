import type { Browser, Locator } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser, open } from "@tests/support/browser";
import { contentIdOf, control, fieldBox, save, signedInContext, submitWith } from "@tests/support/content-browser";
import { createTestBucket, seedDocuments } from "@tests/support/fixtures";
import { startTestServer, type TestServer } from "@tests/support/server";
import { createContent, getLatestVersion } from "@server/content/store";

/*
 * The popup sub-form without JavaScript (server/content/drafts.ts): 'Create on its own page' keeps the form's
 * input, the artist is made on its own page, and its save comes back to the form with the input restored and the
 * new artist selected; the form then saves as usual. An existing artist is chosen in the reference select, with its
 * search box for a large collection (issue 36); 'Edit on its own page' then edits that one, 'Create on its own
 * page' still makes a new one, and 'Pick an option' clears the choice.
 */

/** The text of the chosen option of a select (the artists are drafts, which the option says: "Vincent van Gogh (Draft)"). */
const chosenText = (select: Locator) => select.evaluate((element: HTMLSelectElement) => element.selectedOptions[0]?.textContent ?? "");

let server: TestServer;
let browser: Browser;

beforeAll(async () => {
  [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
});
afterAll(async () => {
  await browser.close();
  await server.stop();
});

describe("popup sub-form without JavaScript", () => {
  it("creates the artist on its own page and returns with the work's input kept and the artist selected", async () => {
    const artists = await createTestBucket(server.db, {
      name: "Artists",
      locales: ["en"],
      jsonSchema: { type: "object", required: ["name"], properties: { name: { type: "string", title: "Name", isNotEmpty: true } } },
    });
    const works = await createTestBucket(server.db, {
      name: "Works",
      locales: ["en"],
      jsonSchema: {
        type: "object",
        properties: {
          title: { type: "string", title: "Title" },
          artist: { type: "string", title: "Artist", _ref: artists.collectionName, renderer: "popup" },
        },
      },
    });
    const ctx = await signedInContext(browser, server, { javaScriptEnabled: false });
    const page = await ctx.newPage();
    await open(page, `/b/${works.slug}/new`);
    expect(await chosenText(control(page, "artist"))).toBe("Pick an option");
    expect(await fieldBox(page, "artist").getByRole("button", { name: "Edit on its own page" }).count()).toBe(0);
    await control(page, "title").fill("The Starry Night");
    await submitWith(page, fieldBox(page, "artist").getByRole("button", { name: "Create on its own page" }));
    expect(new URL(page.url()).pathname).toBe(`/b/${artists.slug}/new`);
    await page.getByText("After saving you return to the form you came from.").waitFor();

    // A refused save stays on the artist's page, still on its way back.
    expect(await save(page)).toBe(400);
    await control(page, "name").fill("Vincent van Gogh");
    await save(page);
    expect(new URL(page.url()).pathname).toBe(`/b/${works.slug}/new`);
    await page.getByText("Your unsaved input was restored.").waitFor();
    expect(await control(page, "title").inputValue()).toBe("The Starry Night");
    expect(await chosenText(control(page, "artist"))).toBe("Vincent van Gogh (Draft)");
    const artistId = await control(page, "artist").inputValue();
    expect(artistId).toMatch(/^[0-9a-f-]{36}$/);

    // The work saves with its artist; the popup now edits that artist on its own page.
    await save(page);
    const work = await getLatestVersion(server.db, works.id, contentIdOf(page));
    expect(work!.data).toEqual({ title: "The Starry Night", artist: artistId });
    await fieldBox(page, "artist").getByRole("button", { name: "Edit on its own page" }).waitFor();
    expect(ctx.errors).toEqual([]);
    await ctx.close();
  });
  it("chooses an existing artist with the search box, edits it on its own page, creates another and clears the choice", async () => {
    const artists = await createTestBucket(server.db, {
      name: "Known artists",
      locales: ["en"],
      jsonSchema: { type: "object", required: ["name"], properties: { name: { type: "string", title: "Name", isNotEmpty: true } } },
    });
    const mesdag = (await createContent(server.db, artists.id, { name: "Hendrik Willem Mesdag" }, null)).contentId;
    // Over 200 documents: the select lists the first page, and its search box finds the rest.
    await seedDocuments(server.db, artists.id, 230, "jsonb_build_object('name', 'Painter ' || lpad(n::text, 3, '0'))");
    const works = await createTestBucket(server.db, {
      name: "Works",
      locales: ["en"],
      jsonSchema: {
        type: "object",
        properties: {
          title: { type: "string", title: "Title" },
          artist: { type: "string", title: "Artist", _ref: artists.collectionName, renderer: "popup" },
        },
      },
    });
    const ctx = await signedInContext(browser, server, { javaScriptEnabled: false });
    const page = await ctx.newPage();
    await open(page, `/b/${works.slug}/new`);
    const field = fieldBox(page, "artist");
    await control(page, "title").fill("The Panorama");
    await field.getByRole("searchbox", { name: "Search Artist" }).fill("Mesdag");
    expect(await submitWith(page, field.getByRole("button", { name: "Search" }))).toBe(200);
    await field.getByText("1 result").waitFor();
    expect(await control(page, "title").inputValue()).toBe("The Panorama"); // nothing lost, nothing saved
    await control(page, "artist").selectOption(mesdag);
    await save(page);
    const workId = contentIdOf(page);
    expect((await getLatestVersion(server.db, works.id, workId))!.data).toEqual({ title: "The Panorama", artist: mesdag });

    // 'Edit on its own page' edits the chosen artist, not a new one, and comes back with it chosen.
    await control(page, "title").fill("The Panorama of Scheveningen");
    await submitWith(page, fieldBox(page, "artist").getByRole("button", { name: "Edit on its own page" }));
    expect(new URL(page.url()).pathname).toBe(`/b/${artists.slug}/${mesdag}/latest`);
    expect(await control(page, "name").inputValue()).toBe("Hendrik Willem Mesdag");
    await control(page, "name").fill("H. W. Mesdag");
    await save(page);
    expect(new URL(page.url()).pathname).toBe(`/b/${works.slug}/${workId}/latest`);
    expect(await control(page, "title").inputValue()).toBe("The Panorama of Scheveningen");
    expect(await control(page, "artist").inputValue()).toBe(mesdag);
    expect(await chosenText(control(page, "artist"))).toBe("H. W. Mesdag (Draft)");
    expect((await getLatestVersion(server.db, artists.id, mesdag))!.data).toEqual({ name: "H. W. Mesdag" });
    const count = async () =>
      (await server.db.query<{ count: number }>("SELECT count(*)::int AS count FROM contents WHERE bucket_id = $1", [artists.id])).rows[0]!
        .count;
    expect(await count()).toBe(231);

    // 'Create on its own page' makes a new artist even with one chosen, and comes back with the new one chosen.
    await submitWith(page, fieldBox(page, "artist").getByRole("button", { name: "Create on its own page" }));
    expect(new URL(page.url()).pathname).toBe(`/b/${artists.slug}/new`);
    await control(page, "name").fill("Sientje Mesdag-van Houten");
    await save(page);
    expect(new URL(page.url()).pathname).toBe(`/b/${works.slug}/${workId}/latest`);
    expect(await chosenText(control(page, "artist"))).toBe("Sientje Mesdag-van Houten (Draft)");
    expect(await count()).toBe(232);
    expect((await getLatestVersion(server.db, artists.id, mesdag))!.data).toEqual({ name: "H. W. Mesdag" });

    // 'Pick an option' clears the choice.
    await control(page, "artist").selectOption("");
    await save(page);
    expect((await getLatestVersion(server.db, works.id, workId))!.data).toEqual({ title: "The Panorama of Scheveningen" });
    expect(ctx.errors).toEqual([]);
    await ctx.close();
  }, 60_000);
});

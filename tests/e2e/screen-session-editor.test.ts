import { randomUUID } from "node:crypto";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Bucket } from "@server/content/buckets";
import { createContent } from "@server/content/store";
import { insertMedia } from "@server/media/store";
import { createUser } from "@server/accounts/users";
import { JS_MODES, launchBrowser, open } from "@tests/support/browser";
import {
  control,
  countPosts,
  fieldBox,
  save,
  signedInContext,
  storedDocument,
  submitWith,
  waitForFieldError,
} from "@tests/support/content-browser";
import { createTestBucket } from "@tests/support/fixtures";
import { startTestServer, type TestServer } from "@tests/support/server";

/*
 * The session editor (docs/screens.md) in Chromium, JavaScript on and off: a session made from
 * cases chosen in the picker, its cases reordered (drag and Move buttons in place with JavaScript, the buttons as
 * posts without), removed and saved; a version conflict between two pages; the preview that plays the cases in
 * order (the next case's video when one ends) or, without JavaScript, lists them with native players; a learning
 * session's availability.
 */

let server: TestServer;
let browser: Browser;
let cases: Bucket;
let sessions: Bucket;
let learning: Bucket;
const ids = {} as Record<"harbour" | "glass" | "tide" | "waiting", string>;
const videos = {} as Record<"harbour" | "glass" | "tide", string>;

const casesProperty = (bucket: Bucket) => ({
  type: "array",
  title: "Video cases",
  renderer: "video-cases",
  maxItems: 8,
  items: { type: "string", _ref: bucket.collectionName },
});

beforeAll(async () => {
  [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
  const owner = await createUser(server.db, {
    name: "Owner",
    email: `owner-${randomUUID()}@example.test`,
    password: "correct horse battery",
    permissions: ["user"],
  });
  cases = await createTestBucket(server.db, {
    name: "Cases",
    jsonSchema: {
      type: "object",
      required: ["title"],
      properties: {
        title: { type: "string", title: "Title" },
        subtitle: { type: "string", title: "Subtitle" },
        thumbnail: { type: "string", title: "Video", _ref: "b-video" },
      },
    },
  });
  sessions = await createTestBucket(server.db, {
    name: "Sessions",
    screen: "sessies",
    jsonSchema: {
      type: "object",
      required: ["title"],
      properties: { title: { type: "string", title: "Title" }, cases: casesProperty(cases), note: { type: "string", title: "Note" } },
    },
  });
  learning = await createTestBucket(server.db, {
    name: "Learning sessions",
    screen: "dle-sessies",
    jsonSchema: {
      type: "object",
      required: ["title"],
      properties: {
        title: { type: "string", title: "Title" },
        cases: casesProperty(cases),
        availableFrom: { type: "string", format: "date", title: "Available from" },
        availableUntil: { type: "string", format: "date", title: "Available until" },
      },
    },
  });
  const video = async (duration: number, ready = true) => {
    const media = await insertMedia(server.db, {
      kind: "video",
      originalFilename: "x.mp4",
      mimetype: "video/mp4",
      size: 4096,
      width: 1280,
      height: 720,
      details: { fps: 25, codec: "h264", duration, stillKeys: [`${randomUUID()}.jpg`], thumb: { index: 0 } },
      bucketId: cases.id,
      storageKey: `${randomUUID()}.mp4`,
      createdBy: owner.id,
    });
    if (!ready)
      await server.db.query(
        `INSERT INTO jobs (media_id, name, status, lease_until) VALUES ($1, 'transcode', 'processing', now() + interval '1 hour')`,
        [media.id],
      );
    return media.contentId;
  };
  const doc = async (data: Record<string, unknown>) => (await createContent(server.db, cases.id, data, owner.id)).contentId;
  videos.harbour = await video(2);
  videos.glass = await video(3);
  videos.tide = await video(65);
  ids.harbour = await doc({ title: "Harbour at dawn", subtitle: "Harlingen quay", thumbnail: videos.harbour });
  ids.glass = await doc({ title: "Blowing glass", subtitle: "Leerdam workshop", thumbnail: videos.glass });
  ids.tide = await doc({ title: "Tide coming in", subtitle: "Mudflats", thumbnail: videos.tide });
  ids.waiting = await doc({ title: "Restoring a canvas", subtitle: "Still converting", thumbnail: await video(4, false) });
});
afterAll(async () => {
  await browser.close();
  await server.stop();
});

const cards = (page: Page) => fieldBox(page, "cases").locator("ul.clip-cards > li.clip-card:not(.add-card)");
const titles = (page: Page) => cards(page).locator(".clip-card-title").allTextContents();
const sessionIdOf = (page: Page) => /\/(?:dle-)?sessies\/[^/]+\/([0-9a-f-]{36})\/latest/.exec(new URL(page.url()).pathname)![1]!;

describe.each(JS_MODES)("the session editor $label", ({ javaScriptEnabled }) => {
  it("creates a session from picked cases, reorders them, removes one, and saves the order", async () => {
    const ctx = await signedInContext(browser, server, { javaScriptEnabled });
    const page = await ctx.newPage();
    await open(page, `/sessies/${sessions.slug}/new`);
    await control(page, "title").fill("Morning");
    const add = fieldBox(page, "cases").getByRole("button", { name: "Add case" });
    // The order the picker lists them in (the newest first), which is the order 'Add selected' adds them in.
    const picks = ["Tide coming in", "Blowing glass", "Harbour at dawn"];
    if (javaScriptEnabled) {
      await add.click();
      const dialog = page.locator("dialog.cases-picker-modal");
      for (const title of picks) await dialog.getByRole("button", { name: `Choose ${title}` }).click();
      await dialog.getByRole("button", { name: "Add selected (3)" }).click();
      await dialog.waitFor({ state: "hidden" });
    } else {
      await submitWith(page, add);
      for (const title of picks) await page.locator("section.cases-picker").getByLabel(`Choose ${title}`).check();
      await submitWith(page, page.locator("section.cases-picker").getByRole("button", { name: "Add selected" }));
    }
    await expect.poll(() => titles(page)).toEqual(picks);
    expect(await save(page)).toBeLessThan(400);
    expect(new URL(page.url()).pathname).toMatch(/^\/sessies\//);
    const contentId = sessionIdOf(page);
    expect(await titles(page)).toEqual(picks);

    await control(page, "note").fill("Typed before moving");
    const moveLater = (title: string) => cards(page).getByRole("button", { name: `Move later: ${title}` });
    const moveEarlier = (title: string) => cards(page).getByRole("button", { name: `Move earlier: ${title}` });
    if (javaScriptEnabled) {
      // Drag the first card onto the last place; then the Move buttons, in place: no post.
      const posts = countPosts(page);
      await cards(page).nth(0).dragTo(cards(page).nth(2));
      await expect.poll(() => titles(page)).toEqual(["Blowing glass", "Harbour at dawn", "Tide coming in"]);
      await moveLater("Blowing glass").click();
      await expect.poll(() => titles(page)).toEqual(["Harbour at dawn", "Blowing glass", "Tide coming in"]);
      // Focus follows the moved card.
      expect(
        await page.evaluate(() => document.activeElement?.closest("li.clip-card")?.querySelector(".clip-card-title")?.textContent),
      ).toBe("Blowing glass");
      await moveEarlier("Tide coming in").click();
      await expect.poll(() => titles(page)).toEqual(["Harbour at dawn", "Tide coming in", "Blowing glass"]);
      expect(posts.count).toBe(0);
    } else {
      expect(await submitWith(page, moveLater("Tide coming in"))).toBe(200);
      expect(await titles(page)).toEqual(["Blowing glass", "Tide coming in", "Harbour at dawn"]);
      expect(await control(page, "note").inputValue()).toBe("Typed before moving");
      await submitWith(page, moveEarlier("Harbour at dawn"));
      expect(await titles(page)).toEqual(["Blowing glass", "Harbour at dawn", "Tide coming in"]);
      await submitWith(page, moveEarlier("Harbour at dawn"));
      expect(await titles(page)).toEqual(["Harbour at dawn", "Blowing glass", "Tide coming in"]);
      await submitWith(page, moveLater("Blowing glass"));
      expect(await titles(page)).toEqual(["Harbour at dawn", "Tide coming in", "Blowing glass"]);
    }
    expect(await control(page, "note").inputValue()).toBe("Typed before moving");
    // The preview's order follows the cards.
    expect(
      await page
        .locator(".session-preview .session-queue .session-queue-title, .session-preview .session-queue .session-queue-play")
        .allTextContents(),
    ).toEqual(["Harbour at dawn", "Tide coming in", "Blowing glass"]);

    const remove = cards(page).getByRole("button", { name: "Remove Harbour at dawn" });
    if (javaScriptEnabled) await remove.click();
    else await submitWith(page, remove);
    await expect.poll(() => titles(page)).toEqual(["Tide coming in", "Blowing glass"]);
    expect(await save(page)).toBeLessThan(400);
    const stored = await storedDocument(server, ctx.cookie, sessions.slug, contentId);
    expect(stored.data).toMatchObject({ title: "Morning", note: "Typed before moving", cases: [ids.tide, ids.glass] });
    ctx.expectNoErrors();
    await ctx.close();
  });

  it("a second save on the same base gets the conflict message, its input kept", async () => {
    const session = await createContent(server.db, sessions.id, { title: "Shared", cases: [ids.harbour, ids.glass] }, null);
    const ctx = await signedInContext(browser, server, { javaScriptEnabled });
    const [first, second] = [await ctx.newPage(), await ctx.newPage()];
    const path = `/sessies/${sessions.slug}/${session.contentId}/latest`;
    await open(first, path);
    await open(second, path);
    await control(first, "title").fill("First editor");
    expect(await save(first)).toBeLessThan(400);

    await control(second, "title").fill("Second editor");
    const moveLater = cards(second).getByRole("button", { name: "Move later: Harbour at dawn" });
    if (javaScriptEnabled) await moveLater.click();
    else await submitWith(second, moveLater);
    await expect.poll(() => titles(second)).toEqual(["Blowing glass", "Harbour at dawn"]);
    expect(await save(second)).toBe(409);
    // Both changed the title: the merge shows both values and asks which to keep.
    await second.locator(".form-error", { hasText: "saved this document while you were editing it" }).waitFor();
    expect(await control(second, "title").inputValue()).toBe("Second editor");
    expect(await titles(second)).toEqual(["Blowing glass", "Harbour at dawn"]);
    const stored = await storedDocument(server, ctx.cookie, sessions.slug, session.contentId);
    expect(stored.data).toMatchObject({ title: "First editor", cases: [ids.harbour, ids.glass] });
    ctx.expectNoErrors();
    await ctx.close();
  });

  it("previews the cases in order: one after another with JavaScript, as native players without", async () => {
    const session = await createContent(
      server.db,
      sessions.id,
      { title: "Preview", cases: [ids.glass, ids.waiting, ids.harbour, ids.tide] },
      null,
    );
    const ctx = await signedInContext(browser, server, { javaScriptEnabled });
    const page = await ctx.newPage();
    await open(page, `/sessies/${sessions.slug}/${session.contentId}/latest`);
    const aside = page.locator(".session-preview");
    // 3 + 4 + 2 + 65 seconds; the case still converting listed as such.
    expect(await aside.locator(".session-summary").textContent()).toContain("Total 1:14");
    await aside.locator("li", { hasText: "Restoring a canvas" }).getByText("Still processing").waitFor();
    if (javaScriptEnabled) {
      await aside.getByRole("button", { name: "Play in order" }).click();
      const dialog = page.locator("dialog.session-player");
      const player = dialog.locator("video");
      const source = () => player.evaluate((element: HTMLVideoElement) => new URL(element.src).pathname);
      await expect.poll(source).toBe(`/api/v1/media/video/${videos.glass}`);
      expect(await dialog.locator(".session-player-now").textContent()).toBe("Case 1 of 3: Blowing glass");
      // The end of a video starts the next ready case (the one still processing is skipped).
      await player.evaluate((element) => element.dispatchEvent(new Event("ended")));
      await expect.poll(source).toBe(`/api/v1/media/video/${videos.harbour}`);
      expect(await dialog.locator(".session-player-now").textContent()).toBe("Case 2 of 3: Harbour at dawn");
      await dialog.getByRole("button", { name: "1.5×" }).click();
      expect(await player.evaluate((element: HTMLVideoElement) => element.playbackRate)).toBe(1.5);
      await dialog.getByRole("button", { name: "Next →" }).click();
      await expect.poll(source).toBe(`/api/v1/media/video/${videos.tide}`);
      expect(await player.evaluate((element: HTMLVideoElement) => element.playbackRate)).toBe(1.5);
      expect(await dialog.getByRole("button", { name: "Next →" }).isDisabled()).toBe(true);
      await dialog.getByRole("button", { name: "← Previous" }).click();
      await expect.poll(source).toBe(`/api/v1/media/video/${videos.harbour}`);
      expect(await dialog.getByRole("button", { name: "Restoring a canvas" }).count()).toBe(0);
      await dialog.locator(".modal-actions button").click();
      await dialog.waitFor({ state: "detached" });
      // Play from a given case.
      await aside.getByRole("button", { name: "Play from Tide coming in" }).click();
      await expect.poll(source).toBe(`/api/v1/media/video/${videos.tide}`);
    } else {
      const players = aside.locator("details.session-watch video");
      expect(
        await players.evaluateAll((elements) => elements.map((element) => new URL((element as HTMLVideoElement).src).pathname)),
      ).toEqual([videos.glass, videos.harbour, videos.tide].map((id) => `/api/v1/media/video/${id}`));
      expect(await players.first().getAttribute("controls")).not.toBeNull();
    }
    ctx.expectNoErrors();
    await ctx.close();
  });

  it("a learning session shows its availability and refuses an end before its start under the field", async () => {
    const session = await createContent(
      server.db,
      learning.id,
      { title: "Water", cases: [ids.harbour], availableFrom: "2000-01-01", availableUntil: "2999-12-31" },
      null,
    );
    const ctx = await signedInContext(browser, server, { javaScriptEnabled });
    const page = await ctx.newPage();
    await open(page, `/dle-sessies/${learning.slug}/${session.contentId}/latest`);
    const status = page.locator(".session-availability .availability-line");
    expect(await status.textContent()).toContain("Available from January 1, 2000 until December 31, 2999");
    await control(page, "availableFrom").fill("2999-06-01");
    await control(page, "availableUntil").fill("2999-05-01");
    if (javaScriptEnabled) {
      // Told at once, and refused in the browser: nothing posted.
      await expect.poll(() => status.textContent()).toContain("These dates do not fit");
      const posts = countPosts(page);
      await bucketSave(page);
      await waitForFieldError(page, "availableUntil", "The end date cannot be before the start date (2999-06-01).");
      expect(posts.count).toBe(0);
      await control(page, "availableUntil").fill("2999-07-01");
      await expect.poll(() => status.textContent()).toContain("Not yet available");
    } else {
      expect(await save(page)).toBe(400);
      await waitForFieldError(page, "availableUntil", "The end date cannot be before the start date (2999-06-01).");
      expect(await control(page, "availableUntil").inputValue()).toBe("2999-05-01");
      await control(page, "availableUntil").fill("2999-07-01");
    }
    expect(await save(page)).toBeLessThan(400);
    expect(await status.textContent()).toContain("Not yet available");
    const stored = await storedDocument(server, ctx.cookie, learning.slug, session.contentId);
    expect(stored.data).toMatchObject({ availableFrom: "2999-06-01", availableUntil: "2999-07-01" });
    ctx.expectNoErrors();
    await ctx.close();
  });
});

/** Clicks Save where the browser's validation keeps the form from posting. */
const bucketSave = (page: Page) => page.locator("form.bucket-form .form-actions button[type=submit]").click();

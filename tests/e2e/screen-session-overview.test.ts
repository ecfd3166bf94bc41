import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { JS_MODES, launchBrowser, open, textOf } from "@tests/support/browser";
import { settle, signedInContext } from "@tests/support/content-browser";
import { createTestBucket } from "@tests/support/fixtures";
import { startTestServer, type TestServer } from "@tests/support/server";
import { createContent, getLatestVersion } from "@server/content/store";
import type { Bucket } from "@server/content/buckets";

/*
 * The session overviews in the browser (docs/screens.md), with JavaScript and without: cards, search,
 * grid and list, reordering learning sessions by Move up / Move down (a form post, or a fetcher's) and by dragging
 * (JavaScript), deleting through the confirm dialog.
 */

let server: TestServer;
let browser: Browser;
let cases: Bucket;

beforeAll(async () => {
  [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
  cases = await createTestBucket(server.db, {
    jsonSchema: { type: "object", properties: { title: { type: "string" }, thumbnail: { type: "string", _ref: "b-video" } } },
  });
});
afterAll(async () => {
  await browser.close();
  await server.stop();
});

let clock = 0;

async function learningSessions(titles: string[]) {
  const bucket = await createTestBucket(server.db, {
    screen: "dle-sessies",
    name: "Learning sessions",
    jsonSchema: {
      type: "object",
      properties: {
        title: { type: "string", title: "Title" },
        cases: { type: "array", renderer: "video-cases", items: { type: "string", _ref: cases.collectionName } },
        availableFrom: { type: "string", format: "date" },
      },
    },
  });
  const ids: Record<string, string> = {};
  const [first] = titles;
  for (const title of titles) {
    const caseIds = title === first ? [(await createContent(server.db, cases.id, { title: `${title} case` }, null)).contentId] : [];
    ids[title] = (
      await createContent(
        server.db,
        bucket.id,
        { title, cases: caseIds, ...(title === first ? { availableFrom: "2999-01-01" } : {}) },
        null,
      )
    ).contentId;
    // Each saved a second after the one before (PGlite's clock counts milliseconds: quick saves could tie).
    await server.db.query(
      "UPDATE contents SET updated_at = '2026-01-01T00:00:00Z'::timestamptz + make_interval(secs => $2) WHERE content_id = $1",
      [ids[title], ++clock],
    );
  }
  return { bucket, ids };
}

const shownTitles = (page: Page) => page.locator(".session-title").allTextContents();

/** Waits until the page shows the sessions in this order (a fetcher's move shows without a navigation); a timeout names what it showed. */
async function waitForOrder(page: Page, expected: string[]): Promise<void> {
  await expect.poll(() => shownTitles(page), { timeout: 10_000 }).toEqual(expected);
}

/**
 * Clicks a Move button (presses a key on one, or drops a session) and waits until the server has answered the move:
 * a redirect without JavaScript, the fetcher's data with it (a drop shows its new order before the answer). A refused move (409) fails here, with its status.
 */
async function move(page: Page, act: () => Promise<void>): Promise<void> {
  const answered = page.waitForResponse((response) => response.request().method() === "POST", { timeout: 15_000 });
  answered.catch(() => undefined);
  await act();
  expect((await answered).status(), "the move's answer").toBeLessThan(400);
}

async function storedOrder(bucket: Bucket): Promise<string[]> {
  const { rows } = await server.db.query<{ title: string }>(
    `SELECT v.data ->> 'title' AS title FROM contents c JOIN versions v ON v.version_id = c.latest_version_id
     WHERE c.bucket_id = $1 ORDER BY c.position ASC NULLS LAST, c.updated_at DESC`,
    [bucket.id],
  );
  return rows.map((row) => row.title);
}

describe.each(JS_MODES)("the session overviews $label", ({ javaScriptEnabled }) => {
  it("show sessions as rows and as cards, search them, and say when nothing matches", async () => {
    const { bucket } = await learningSessions(["Water", "Glass", "Canvas"]);
    const ctx = await signedInContext(browser, server, { javaScriptEnabled });
    const page = await ctx.newPage();
    await open(page, `/dle-sessies/${bucket.slug}`);
    expect(await shownTitles(page)).toEqual(["Canvas", "Glass", "Water"]);
    const water = page.locator("tr", { hasText: "Water" });
    expect(await textOf(water.locator(".session-meta"))).toBe("1 case · Total duration —");
    expect(await water.locator(".session-availability > span").allTextContents()).toEqual([
      "Available from 1 Jan 2999",
      "Not yet available",
    ]);

    await page.locator('.view-switch button[value="grid"]').click();
    await page.locator('.view-switch button[value="grid"][aria-pressed="true"]').waitFor();
    await settle(page);
    expect(await page.locator("li.session-card").count()).toBe(3);
    expect(await textOf(page.locator("li.session-card", { hasText: "Glass" }).locator(".session-availability"))).toBe("Always available");

    await page.locator("#overview-search").fill("glass");
    await page.locator('form[role="search"] button[type="submit"]').click();
    await page.waitForURL(/q=glass/);
    await settle(page);
    await waitForOrder(page, ["Glass"]);
    expect(await textOf(page.locator(".session-reorder-note"))).toContain("The order can't be changed while searching");
    expect(await page.locator(".session-move").count()).toBe(0);

    await page.locator("#overview-search").fill("Rembrandt");
    await page.locator('form[role="search"] button[type="submit"]').click();
    await page.waitForURL(/q=Rembrandt/);
    expect(await textOf(page.locator("p.empty"))).toBe("No sessions match your search.");
    await page.locator('.view-switch button[value="list"]').click();
    await page.locator('.view-switch button[value="list"][aria-pressed="true"]').waitFor();
    ctx.expectNoErrors();
    await ctx.close();
  });

  it("reorder learning sessions with Move up and Move down", async () => {
    const { bucket } = await learningSessions(["A", "B", "C"]);
    const ctx = await signedInContext(browser, server, { javaScriptEnabled });
    const page = await ctx.newPage();
    await open(page, `/dle-sessies/${bucket.slug}`);
    expect(await shownTitles(page)).toEqual(["C", "B", "A"]);
    await move(page, () => page.getByRole("button", { name: "Move up: A" }).click());
    await waitForOrder(page, ["C", "A", "B"]);
    await settle(page);
    expect(await storedOrder(bucket)).toEqual(["C", "A", "B"]);
    if (javaScriptEnabled) {
      // The moved session's button keeps the focus: Enter moves it again.
      await page.waitForFunction(() => document.activeElement?.getAttribute("data-move") === "up");
      await move(page, () => page.keyboard.press("Enter"));
      await waitForOrder(page, ["A", "C", "B"]);
      await settle(page);
      expect(await storedOrder(bucket)).toEqual(["A", "C", "B"]);
      expect(new URL(page.url()).pathname).toBe(`/dle-sessies/${bucket.slug}`);
    } else {
      await move(page, () => page.getByRole("button", { name: "Move up: A" }).click());
      await waitForOrder(page, ["A", "C", "B"]);
      expect(await storedOrder(bucket)).toEqual(["A", "C", "B"]);
    }
    await move(page, () => page.getByRole("button", { name: "Move down: C" }).click());
    await waitForOrder(page, ["A", "B", "C"]);
    await settle(page);
    expect(await storedOrder(bucket)).toEqual(["A", "B", "C"]);
    expect(await page.getByRole("button", { name: "Move up: A" }).isDisabled()).toBe(true);
    expect(await page.getByRole("button", { name: "Move down: C" }).isDisabled()).toBe(true);
    ctx.expectNoErrors();
    await ctx.close();
  });

  it("delete a session after the confirm dialog", async () => {
    const { bucket, ids } = await learningSessions(["Keeper", "Doomed"]);
    const ctx = await signedInContext(browser, server, { javaScriptEnabled });
    const page = await ctx.newPage();
    await open(page, `/dle-sessies/${bucket.slug}`);
    await page.locator("tr", { hasText: "Doomed" }).getByRole("link", { name: "Delete" }).click();
    const dialog = page.getByRole("alertdialog", { name: "Delete document" });
    await dialog.waitFor({ state: "visible" });
    expect(await textOf(dialog.locator("p").first())).toContain("Delete “Doomed”");
    await dialog.getByRole("button", { name: "Delete" }).click();
    await page.locator("tr", { hasText: "Doomed" }).waitFor({ state: "detached" });
    await settle(page);
    expect(await getLatestVersion(server.db, bucket.id, ids.Doomed!)).toBeNull();
    expect(await shownTitles(page)).toEqual(["Keeper"]);
    ctx.expectNoErrors();
    await ctx.close();
  });
});

describe("dragging learning sessions (JavaScript)", () => {
  it("drops a session before or after another, in list and grid, without a page load", async () => {
    const { bucket } = await learningSessions(["A", "B", "C", "D"]);
    const ctx = await signedInContext(browser, server);
    const page = await ctx.newPage();
    await open(page, `/dle-sessies/${bucket.slug}`);
    expect(await shownTitles(page)).toEqual(["D", "C", "B", "A"]);
    await page.evaluate(() => ((window as unknown as { notReloaded: boolean }).notReloaded = true));
    const row = (title: string) => page.locator("tr", { has: page.locator(".session-title", { hasText: title }) });
    // Onto the top half of D's row: before D.
    await move(page, () => row("A").dragTo(row("D"), { targetPosition: { x: 40, y: 4 } }));
    await waitForOrder(page, ["A", "D", "C", "B"]);
    await settle(page);
    expect(await storedOrder(bucket)).toEqual(["A", "D", "C", "B"]);

    await page.locator('.view-switch button[value="grid"]').click();
    await page.locator('.view-switch button[value="grid"][aria-pressed="true"]').waitFor();
    await settle(page);
    const card = (title: string) => page.locator("li.session-card", { has: page.locator(".session-title", { hasText: title }) });
    const box = await card("B").boundingBox();
    // Onto the right half of B's card: after B.
    await move(page, () => card("D").dragTo(card("B"), { targetPosition: { x: (box?.width ?? 220) - 10, y: 40 } }));
    await waitForOrder(page, ["A", "C", "B", "D"]);
    await settle(page);
    expect(await storedOrder(bucket)).toEqual(["A", "C", "B", "D"]);
    expect(await page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);
    await page.locator('.view-switch button[value="list"]').click();
    await page.locator('.view-switch button[value="list"][aria-pressed="true"]').waitFor();
    ctx.expectNoErrors();
    await ctx.close();
  });
});

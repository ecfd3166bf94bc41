import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { JS_MODES, launchBrowser, newContext, open, textOf, waitForHydration } from "../support/browser";
import { settle, signedInContext } from "../support/content-browser";
import { IE11_UA, IE9_UA } from "../support/fixtures";
import { createTestBucket } from "../support/fixtures";
import { startTestServer, type TestServer } from "../support/server";
import { createContent, getLatestVersion } from "../../server/content/store";

/*
 * Audit of issues 2 and 3: browser-only behaviour the other e2e files leave open.
 * - the loading bar: shown only after 200 ms, 2 px high, red when loading fails (spec §2, §9);
 * - the Internet Explorer notice in a real browser, hidden for good with and without JavaScript (spec §2);
 * - the overview's confirm dialog with JavaScript: cancel closes it, confirm deletes (spec §2 reusable dialogs).
 */

let server: TestServer;
let browser: Browser;

beforeAll(async () => {
  [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** Records every data-state the loading bar takes, with the time (performance.now) it took it. */
async function recordLoadingBar(page: Page) {
  await page.evaluate(() => {
    const bar = document.querySelector(".loading-bar")!;
    const log: Array<[string, number]> = [[bar.getAttribute("data-state") ?? "", performance.now()]];
    (window as unknown as { barLog: typeof log }).barLog = log;
    new MutationObserver(() => log.push([bar.getAttribute("data-state") ?? "", performance.now()])).observe(bar, {
      attributes: true,
      attributeFilter: ["data-state"],
    });
  });
}
const barLog = (page: Page) => page.evaluate(() => (window as unknown as { barLog: Array<[string, number]> }).barLog);

describe("the loading bar (JavaScript)", () => {
  it("appears only after 200 ms of loading, is 2 px high, and goes away when the page has loaded", async () => {
    const bucket = await createTestBucket(server.db, { name: "Slow bucket" });
    const ctx = await signedInContext(browser, server);
    const page = await ctx.newPage();
    await open(page, "/");
    // Hold the next page's data for 1.2 s.
    await page.route(
      (url) => url.pathname.endsWith(".data"),
      async (route) => {
        await new Promise((resolve) => setTimeout(resolve, 1200));
        await route.continue();
      },
    );
    await recordLoadingBar(page);
    const clickedAt = await page.evaluate(() => performance.now());
    await page.locator("a.bucket-card", { hasText: "Slow bucket" }).click();
    await page.waitForFunction(() => document.querySelector(".loading-bar")?.getAttribute("data-state") === "loading");
    const bar = await page.locator(".loading-bar").evaluate((element) => {
      const style = getComputedStyle(element);
      return { height: style.height, position: style.position, top: style.top };
    });
    expect(bar).toEqual({ height: "2px", position: "fixed", top: "0px" });
    await page.waitForURL((url) => url.pathname === `/b/${bucket.slug}`);
    await settle(page);
    await page.waitForFunction(() => document.querySelector(".loading-bar")?.getAttribute("data-state") === "idle");
    const log = await barLog(page);
    const shown = log.find(([state]) => state === "loading")!;
    expect(shown[1] - clickedAt).toBeGreaterThanOrEqual(190); // not before the 200 ms delay (timer slack allowed)
    expect(shown[1] - clickedAt).toBeLessThan(1200); // but while the data was still held
    expect(log.at(-1)![0]).toBe("idle");
    ctx.expectNoErrors();
    await ctx.close();
  });

  it("turns red when loading the next page fails", async () => {
    const bucket = await createTestBucket(server.db, { name: "Vanishing bucket" });
    const ctx = await signedInContext(browser, server);
    const page = await ctx.newPage();
    await open(page, "/");
    const normal = await page.locator(".loading-bar").evaluate((element) => getComputedStyle(element).backgroundColor);
    // The bucket becomes private after home was rendered: its page now answers 404.
    await server.db.query("UPDATE buckets SET private = true WHERE id = $1", [bucket.id]);
    await page.locator("a.bucket-card", { hasText: "Vanishing bucket" }).click();
    await page.waitForFunction(() => document.querySelector(".loading-bar")?.getAttribute("data-state") === "failed");
    expect(await textOf(page.locator(".error-page .error-status"))).toBe("404");
    const failed = await page.locator(".loading-bar").evaluate((element) => {
      const style = getComputedStyle(element);
      const probe = document.createElement("div");
      probe.style.background = "var(--danger)";
      document.body.append(probe);
      const danger = getComputedStyle(probe).backgroundColor;
      probe.remove();
      return { background: style.backgroundColor, danger, opacity: style.opacity };
    });
    expect(failed.background).toBe(failed.danger);
    expect(failed.background).not.toBe(normal);
    expect(failed.opacity).toBe("1");
    await ctx.close();
  });
});

describe.each(JS_MODES)("the Internet Explorer notice in a browser ($label)", ({ javaScriptEnabled }) => {
  it.each([
    ["IE 9", IE9_UA, /onbruikbaar/],
    ["IE 11", IE11_UA, /niet optimaal/],
  ])("is shown to %s in Dutch until it is hidden, then stays hidden on every page", async (_name, userAgent, text) => {
    const ctx = await newContext(browser, server.url, { javaScriptEnabled, userAgent });
    const page = await ctx.newPage();
    await open(page, "/login?from_url=%2Fprofile");
    const notice = page.getByRole("dialog", { name: "Let op!" });
    expect(await textOf(notice.locator("p"))).toMatch(text);
    expect(await notice.getAttribute("lang")).toBe("nl");
    await Promise.all([
      page.waitForResponse((response) => response.url().includes("/internet-explorer/hide")),
      notice.getByRole("button").click(),
    ]);
    await notice.waitFor({ state: "detached" });
    await waitForHydration(page);
    expect(new URL(page.url()).pathname + new URL(page.url()).search).toBe("/login?from_url=%2Fprofile");
    await page.reload();
    await waitForHydration(page);
    expect(await page.getByRole("dialog", { name: "Let op!" }).count()).toBe(0);
    await open(page, "/password-reset");
    expect(await page.getByRole("dialog", { name: "Let op!" }).count()).toBe(0);
    ctx.expectNoErrors();
    await ctx.close();
  });
});

describe("the overview's confirm dialog (JavaScript)", () => {
  it("opens from a row's Delete, closes on Cancel without deleting, and deletes on confirm", async () => {
    const bucket = await createTestBucket(server.db, { jsonSchema: { type: "object", properties: { name: { type: "string" } } } });
    const keep = await createContent(server.db, bucket.id, { name: "Keeper" }, null);
    const doomed = await createContent(server.db, bucket.id, { name: "Doomed" }, null);
    const ctx = await signedInContext(browser, server);
    const page = await ctx.newPage();
    await open(page, `/b/${bucket.slug}`);
    const row = page.locator("tr", { hasText: "Doomed" });
    const dialog = page.getByRole("alertdialog", { name: "Delete document" });

    await row.getByRole("link", { name: "Delete" }).click();
    await dialog.waitFor({ state: "visible" });
    expect(await textOf(dialog.locator("p"))).toContain("Delete “Doomed” and all its versions?");
    await dialog.getByRole("link", { name: "Cancel" }).click();
    await dialog.waitFor({ state: "detached" });
    await settle(page);
    expect(new URL(page.url()).searchParams.has("delete")).toBe(false);
    expect(await getLatestVersion(server.db, bucket.id, doomed.contentId)).not.toBeNull();

    await row.getByRole("link", { name: "Delete" }).click();
    await dialog.waitFor({ state: "visible" });
    await dialog.getByRole("button", { name: "Delete" }).click();
    await page.locator("tr", { hasText: "Doomed" }).waitFor({ state: "detached" });
    await settle(page);
    expect(await getLatestVersion(server.db, bucket.id, doomed.contentId)).toBeNull();
    expect(await getLatestVersion(server.db, bucket.id, keep.contentId)).not.toBeNull();
    expect(await page.locator("tr", { hasText: "Keeper" }).count()).toBe(1);
    ctx.expectNoErrors();
    await ctx.close();
  });
});

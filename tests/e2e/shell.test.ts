import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser, open, waitForHydration } from "../support/browser";
import { fieldBox, settle, signedInContext } from "../support/content-browser";
import { createTestBucket } from "../support/fixtures";
import { startTestServer, type TestServer } from "../support/server";
import { createContent } from "../../server/content/store";

/*
 * Behaviour that only exists with JavaScript (spec §2 routing, §4 texts debounce): scroll to top on navigation and
 * back where it was on return, the out-in page transition that respects prefers-reduced-motion, and translated
 * text edits that reach the form's live validation only after a 300 ms pause in typing.
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

const scrollY = (page: Page) => page.evaluate(() => Math.round(window.scrollY));

describe("navigation with JavaScript", () => {
  it("scrolls a new page to the top and restores the old position on back", async () => {
    const bucket = await createTestBucket(server.db, { jsonSchema: { type: "object", properties: { name: { type: "string", title: "Name" } } } });
    const ctx = await signedInContext(browser, server);
    for (let n = 1; n <= 20; n++) await createContent(server.db, bucket.id, { name: `Object ${n}` }, ctx.user.id);
    const page = await ctx.newPage();
    await page.setViewportSize({ width: 900, height: 360 });
    await open(page, `/b/${bucket.slug}`);
    const last = page.locator("main a", { hasText: "Object 1" }).last();
    await last.scrollIntoViewIfNeeded();
    const before = await scrollY(page);
    expect(before).toBeGreaterThan(200);

    await last.click();
    await page.waitForURL(/\/latest$/);
    await settle(page);
    expect(await scrollY(page)).toBe(0);

    await page.goBack();
    await page.waitForURL((url) => url.pathname === `/b/${bucket.slug}`);
    await settle(page);
    await expect.poll(() => scrollY(page)).toBe(before);
    ctx.expectNoErrors();
    await ctx.close();
  });

  it.each([
    ["no-preference", true],
    ["reduce", false],
  ] as const)("with prefers-reduced-motion: %s the page transition animates: %s", async (reducedMotion, animates) => {
    const ctx = await signedInContext(browser, server);
    await ctx.context.close();
    const context = await browser.newContext({ baseURL: server.url, reducedMotion });
    const [name, ...value] = ctx.cookie.split("=");
    await context.addCookies([{ name: name!, value: value.join("="), url: server.url }]);
    const page = await context.newPage();
    await page.goto("/");
    await waitForHydration(page);
    // Record the animations of each view transition once it is ready.
    await page.evaluate(() => {
      const recorded: string[][] = [];
      (window as unknown as { recorded: string[][] }).recorded = recorded;
      const start = document.startViewTransition.bind(document);
      document.startViewTransition = ((update: ViewTransitionUpdateCallback) => {
        const transition = start(update);
        void transition.ready.then(() => recorded.push(document.getAnimations().map((animation) => (animation as CSSAnimation).animationName)));
        return transition;
      }) as typeof document.startViewTransition;
    });
    await page.locator("a.bucket-card").first().click();
    await page.waitForFunction(() => (window as unknown as { recorded: string[][] }).recorded.length > 0);
    const names = await page.evaluate(() => (window as unknown as { recorded: string[][] }).recorded[0]!);
    if (animates) expect(names).toEqual(expect.arrayContaining(["page-out", "page-in"]));
    else expect(names.filter((animationName) => animationName === "page-out" || animationName === "page-in")).toEqual([]);
    await context.close();
  });
});

describe("translated text arrays", () => {
  it("revalidate an edit only after 300 ms without typing", async () => {
    const bucket = await createTestBucket(server.db, {
      jsonSchema: { type: "object", properties: { labels: { type: "array", title: "Labels", renderer: "texts" } } },
      locales: ["nl", "en"],
    });
    const ctx = await signedInContext(browser, server, { permissions: ["user", "admin"] });
    const page = await ctx.newPage();
    await open(page, `/b/${bucket.slug}/new`);
    const labels = fieldBox(page, "labels");
    await labels.locator("button.add").click();
    await labels.locator('input[name="labels[0].text.en"]').fill("Welcome"); // a row with text needs an id
    await page.locator("form.bucket-form .form-actions button[type=submit]").click();
    const error = labels.locator(".field-error");
    await error.first().waitFor({ state: "visible" });

    await page.clock.install();
    await labels.locator('input[name="labels[0].id"]').pressSequentially("intro");
    await page.clock.runFor(250);
    expect(await error.count()).toBeGreaterThan(0); // still held back
    await page.clock.runFor(100); // the pause is over: the edit reaches the form, which revalidates
    await expect.poll(() => error.count()).toBe(0);
    ctx.expectNoErrors();
    await ctx.close();
  });
});

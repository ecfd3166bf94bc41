import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  JS_MODES,
  clickTo,
  expectTextSoon,
  launchBrowser,
  linksIn,
  newContext,
  open,
  pathOf,
  signInTo,
  textOf,
  topBarBucketNav,
  waitForPath,
} from "@tests/support/browser";
import { createTestBucket } from "@tests/support/fixtures";
import { createTestUser } from "@tests/support/http";
import { startTestServer, type TestServer } from "@tests/support/server";

/* The layout of spec §2: top-bar bucket links and their collapse above 7, 'Back to overview', the user dropdown, the page title. */

const PRODUCT = "Exhibit Desk";

/** Eight buckets in this order; the third is a singleton. */
const BUCKETS = [
  { slug: "exhibitions", name: "Exhibitions" },
  { slug: "artworks", name: "Artworks" },
  { slug: "site-settings", name: "Site settings", singleton: true },
  { slug: "artists", name: "Artists" },
  { slug: "rooms", name: "Rooms" },
  { slug: "tours", name: "Tours" },
  { slug: "events", name: "Events" },
  { slug: "press", name: "Press" },
];
const SEVEN = BUCKETS.slice(0, 7);

let server: TestServer;
let browser: Browser;

beforeAll(async () => {
  [server, browser] = await Promise.all([startTestServer({ env: { PRODUCT_NAME: PRODUCT } }), launchBrowser()]);
  for (const [index, bucket] of BUCKETS.entries()) await createTestBucket(server.db, { ...bucket, position: index + 1 });
});
afterAll(async () => {
  await browser.close();
  await server.stop();
});

const backToOverview = (page: Page) => page.locator("header").getByRole("link", { name: "Back to overview" });

describe.each(JS_MODES)("$label", ({ javaScriptEnabled }) => {
  it("with 7 visible buckets shows one top-bar link per bucket, a singleton linking to its edit page", async () => {
    const user = await createTestUser(server.db, { buckets: SEVEN.map((bucket) => bucket.slug) });
    const ctx = await newContext(browser, server.url, { javaScriptEnabled });
    const page = await ctx.newPage();
    await signInTo(page, user.email, user.password);
    expect(pathOf(page)).toBe("/");
    const expected = SEVEN.map((bucket) => ({
      text: bucket.name,
      href: bucket.singleton ? `/b/${bucket.slug}/edit` : `/b/${bucket.slug}`,
    }));
    expect(await linksIn(topBarBucketNav(page))).toEqual(expected);

    // The links lead there, and stay on other pages.
    const nav = topBarBucketNav(page);
    await clickTo(page, nav.getByRole("link", { name: "Artworks" }), "/b/artworks");
    await expectTextSoon(page.locator("main h1"), "Artworks");
    expect(await linksIn(topBarBucketNav(page))).toEqual(expected);
    await clickTo(page, topBarBucketNav(page).getByRole("link", { name: "Site settings" }), "/b/site-settings/edit");
    const singleton = await open(page, "/b/site-settings/edit");
    expect(singleton?.status()).toBe(200);
    expect(await page.locator(".error-page").count()).toBe(0);
    ctx.expectNoErrors();
    await ctx.close();
  });

  it("with 8 visible buckets hides the links and shows 'Back to overview' on every page but home, leading home", async () => {
    const admin = await createTestUser(server.db, { permissions: ["user", "admin"] });
    const ctx = await newContext(browser, server.url, { javaScriptEnabled });
    const page = await ctx.newPage();
    await signInTo(page, admin.email, admin.password);
    expect(pathOf(page)).toBe("/");
    // Home lists all eight; the top bar has neither bucket links nor the back link.
    expect((await linksIn(page.locator("main ul"))).map((link) => link.href)).toEqual(
      BUCKETS.map((bucket) => (bucket.singleton ? `/b/${bucket.slug}/edit` : `/b/${bucket.slug}`)),
    );
    expect(await topBarBucketNav(page).count()).toBe(0);
    expect(await backToOverview(page).count()).toBe(0);

    for (const path of ["/b/press", "/profile", "/settings", "/support", "/no/such/page"]) {
      await open(page, path);
      expect(pathOf(page), path).toBe(path);
      expect(await textOf(backToOverview(page)), path).toBe("Back to overview");
      expect(await topBarBucketNav(page).count(), path).toBe(0);
    }

    await open(page, "/b/press");
    await clickTo(page, backToOverview(page), "/");
    await expectTextSoon(page.locator("main h1"), "Content");
    expect(await backToOverview(page).count()).toBe(0);
    ctx.expectNoErrors();
    await ctx.close();
  });

  it("opens the user dropdown (name; Profile, Settings, Signout) and signs out through 'Signout'", async () => {
    const admin = await createTestUser(server.db, { name: "Mira Menu", permissions: ["user", "admin"] });
    const ctx = await newContext(browser, server.url, { javaScriptEnabled });
    const page = await ctx.newPage();
    await signInTo(page, admin.email, admin.password);
    await open(page, "/profile");
    const menu = page.locator("header").locator("details", { hasText: "Mira Menu" });
    const signout = menu.getByRole("menuitem", { name: "Signout", exact: true });
    expect(await signout.isVisible()).toBe(false);
    await menu.getByText("Mira Menu", { exact: true }).click();
    await signout.waitFor({ state: "visible" });
    expect((await menu.getByRole("menuitem").allInnerTexts()).map((text) => text.trim())).toEqual(["Profile", "Settings", "Signout"]);

    await clickTo(page, signout, "/login");
    await expectTextSoon(page.locator("main h1"), "Sign in");
    expect(await page.locator("header").getByText("Mira Menu").count()).toBe(0);
    await open(page, "/profile");
    expect(pathOf(page)).toBe(`/login?from_url=${encodeURIComponent("/profile")}`);
    ctx.expectNoErrors();
    await ctx.close();
  });

  it("titles the page with the product name, and the brand reads it too", async () => {
    const user = await createTestUser(server.db);
    const ctx = await newContext(browser, server.url, { javaScriptEnabled });
    const page = await ctx.newPage();
    await signInTo(page, user.email, user.password);
    await expect.poll(() => page.title()).toBe(`Content · ${PRODUCT}`);
    expect(await textOf(page.locator("header").getByRole("link", { name: PRODUCT }))).toBe(PRODUCT);
    expect(await page.locator('meta[name="description"]').getAttribute("content")).toBe("CMS Project for Yipp exhibits");
    await open(page, "/profile");
    expect(await page.title()).toBe(`Profile · ${PRODUCT}`);

    // Away to a bucket (titled by its name) and back home through the brand: the title follows.
    await open(page, "/b/press");
    await waitForPath(page, "/b/press");
    await clickTo(page, page.locator("header").getByRole("link", { name: PRODUCT }), "/");
    await expect.poll(() => page.title()).toBe(`Content · ${PRODUCT}`);
    ctx.expectNoErrors();
    await ctx.close();
  });
});

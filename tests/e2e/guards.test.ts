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
  openUserMenu,
  pathOf,
  signInTo,
  submitLogin,
  textOf,
  topBarBucketNav,
  waitForHydration,
  waitForPath,
} from "@tests/support/browser";
import { createTestBucket } from "@tests/support/fixtures";
import { createTestUser } from "@tests/support/http";
import { startTestServer, type TestServer } from "@tests/support/server";

/* Route guards in the browser (spec §4 auth, isAdmin; §6 roles and bucket visibility). */

let server: TestServer;
let browser: Browser;

beforeAll(async () => {
  [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
  await createTestBucket(server.db, { slug: "artworks", name: "Artworks", position: 1 });
  await createTestBucket(server.db, { slug: "artists", name: "Artists", position: 2 });
  await createTestBucket(server.db, { slug: "site-settings", name: "Site settings", singleton: true, position: 3 });
  await createTestBucket(server.db, { slug: "internal-notes", name: "Internal notes", private: true, position: 4 });
});
afterAll(async () => {
  await browser.close();
  await server.stop();
});

/** The texts of the bucket cards listed on the home page. */
async function homeBucketNames(page: Page): Promise<string[]> {
  return (await linksIn(page.locator("main ul"))).map((link) => link.text);
}

describe.each(JS_MODES)("$label", ({ javaScriptEnabled }) => {
  it("sends an anonymous visitor of a deep page to /login and back to that page (query kept) after sign-in", async () => {
    const admin = await createTestUser(server.db, { permissions: ["user", "admin"] });
    const ctx = await newContext(browser, server.url, { javaScriptEnabled });
    const page = await ctx.newPage();

    // Home itself adds no from_url.
    await open(page, "/");
    expect(pathOf(page)).toBe("/login");
    expect(await textOf(page.locator("h1"))).toBe("Sign in");

    const deep = "/settings/users?q=ada&page=1";
    await open(page, deep);
    expect(pathOf(page)).toBe(`/login?from_url=${encodeURIComponent(deep)}`);
    expect(await textOf(page.locator("h1"))).toBe("Sign in");
    await submitLogin(page, admin.email, admin.password);
    await waitForPath(page, deep);
    await waitForHydration(page);
    await expectTextSoon(page.locator("main h1"), "Users");
    expect(await page.locator('main input[name="q"]').inputValue()).toBe("ada");
    ctx.expectNoErrors();
    await ctx.close();
  });

  it("sends a signed-in user without the 'user' permission to /no-access, from every page", async () => {
    const outsider = await createTestUser(server.db, { name: "Olga Outsider", permissions: [] });
    const adminOnly = await createTestUser(server.db, { name: "Adam Adminonly", permissions: ["admin"] });
    const ctx = await newContext(browser, server.url, { javaScriptEnabled });
    const page = await ctx.newPage();

    await signInTo(page, outsider.email, outsider.password, "No access");
    expect(pathOf(page)).toBe("/no-access");
    expect(await textOf(page.locator("main p").first())).toBe(
      "Your account does not have access to Vitrine yet. Ask an admin to give you the user permission.",
    );
    // Still signed in (name in the top bar), but no bucket links and no way into a bucket.
    expect(await textOf(page.locator("details.user-menu summary"))).toBe("Olga Outsider");
    expect(await linksIn(topBarBucketNav(page))).toEqual([]);
    for (const path of ["/", "/b/artworks", "/profile", `/login?from_url=${encodeURIComponent("/b/artworks")}`]) {
      await open(page, path);
      expect(pathOf(page), path).toBe("/no-access");
    }
    // Its sign-out button works.
    await clickTo(page, page.locator("main").getByRole("link", { name: "Sign out" }), "/login");
    await open(page, "/no-access");
    expect(pathOf(page)).toBe(`/login?from_url=${encodeURIComponent("/no-access")}`);

    // admin without user is no better: /settings sends them on to /no-access too.
    await signInTo(page, adminOnly.email, adminOnly.password, "No access");
    expect(pathOf(page)).toBe("/no-access");
    await open(page, "/settings");
    expect(pathOf(page)).toBe("/no-access");
    expect(await textOf(page.locator("main h1"))).toBe("No access");
    ctx.expectNoErrors();
    await ctx.close();
  });

  it("shows a plain user every non-private bucket and lets them in, but /settings sends them to home", async () => {
    const user = await createTestUser(server.db, { name: "Paula Plain" });
    const ctx = await newContext(browser, server.url, { javaScriptEnabled });
    const page = await ctx.newPage();
    await signInTo(page, user.email, user.password);
    expect(pathOf(page)).toBe("/");
    expect(await homeBucketNames(page)).toEqual(["Artworks", "Artists", "Site settings Single document"]);
    expect((await linksIn(topBarBucketNav(page))).map((link) => link.text)).toEqual(["Artworks", "Artists", "Site settings"]);

    // A bucket page opens.
    await clickTo(page, page.locator("main").getByRole("link", { name: "Artworks" }), "/b/artworks");
    await expectTextSoon(page.locator("main h1"), "Artworks");

    // No Settings in the menu, and typing the address leads home, which says why.
    expect(await openUserMenu(page)).toEqual(["Profile", "Signout"]);
    for (const path of ["/settings", "/settings/users/1"]) {
      await open(page, path);
      expect(pathOf(page), path).toBe("/?notice=admin-only");
      expect(await textOf(page.locator("main h1"))).toBe("Content");
      expect(await textOf(page.locator("main .notice-warning"))).toBe(
        "Settings are for administrators. Ask an administrator if you need access.",
      );
    }
    ctx.expectNoErrors();
    await ctx.close();
  });

  it("lets an admin open /settings through the user menu", async () => {
    const admin = await createTestUser(server.db, { name: "Ada Admin", permissions: ["user", "admin"] });
    const ctx = await newContext(browser, server.url, { javaScriptEnabled });
    const page = await ctx.newPage();
    await signInTo(page, admin.email, admin.password);
    expect(await openUserMenu(page)).toEqual(["Profile", "Settings", "Signout"]);
    await clickTo(page, page.locator("details.user-menu").getByRole("menuitem", { name: "Settings" }), "/settings");
    await expectTextSoon(page.locator("main h1"), "Settings");
    expect(await page.locator(".error-page").count()).toBe(0);
    await open(page, "/settings/invite-user");
    expect(pathOf(page)).toBe("/settings/invite-user");
    expect(await textOf(page.locator("main h1"))).toBe("Invite a user");
    ctx.expectNoErrors();
    await ctx.close();
  });

  it("shows a user with a buckets list only those buckets; others answer 404", async () => {
    const user = await createTestUser(server.db, { buckets: ["artists", "site-settings", "internal-notes"] });
    const ctx = await newContext(browser, server.url, { javaScriptEnabled });
    const page = await ctx.newPage();
    await signInTo(page, user.email, user.password);
    expect(pathOf(page)).toBe("/");
    // The private bucket stays hidden even though it is on the list.
    expect(await homeBucketNames(page)).toEqual(["Artists", "Site settings Single document"]);
    expect(await linksIn(topBarBucketNav(page))).toEqual([
      { text: "Artists", href: "/b/artists" },
      { text: "Site settings", href: "/b/site-settings/edit" },
    ]);
    await clickTo(page, page.locator("main").getByRole("link", { name: "Artists" }), "/b/artists");
    await expectTextSoon(page.locator("main h1"), "Artists");

    for (const path of ["/b/artworks", "/b/internal-notes"]) {
      const response = await open(page, path);
      expect(response?.status(), path).toBe(404);
      expect(await textOf(page.locator(".error-page .error-status"))).toBe("404");
      expect(await textOf(page.locator(".error-page .error-message"))).toBe("This page could not be found");
    }
    ctx.expectNoErrors();
    await ctx.close();
  });
});

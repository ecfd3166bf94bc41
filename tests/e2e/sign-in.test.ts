import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createBucket } from "@server/content/buckets";
import {
  JS_MODES,
  expectTextSoon,
  failLogin,
  launchBrowser,
  newContext,
  open,
  openUserMenu,
  pathOf,
  signInThroughForm,
  signOutThroughMenu,
  submitLogin,
  textOf,
  waitForPath,
} from "@tests/support/browser";
import { createTestUser } from "@tests/support/http";
import { startTestServer, type TestServer } from "@tests/support/server";

/* Sign-in, its errors and rate limit, from_url, sign-out; the loading bar and the 404 page (spec §2, §4, §8). */

let server: TestServer;
let browser: Browser;

beforeAll(async () => {
  [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
  await createBucket(server.db, {
    slug: "artworks",
    name: "Artworks",
    singleton: false,
    private: false,
    collectionName: "artworks",
    jsonSchema: { type: "object", properties: {} },
    locales: ["en"],
  });
});
afterAll(async () => {
  await browser.close();
  await server.stop();
});

describe.each(JS_MODES)("$label", ({ javaScriptEnabled }) => {
  it("signs in through the form and lands on home, with the user's name in the top bar", async () => {
    const user = await createTestUser(server.db, { name: "Ada Lovelace" });
    const ctx = await newContext(browser, server.url, { javaScriptEnabled });
    const page = await ctx.newPage();
    await open(page, "/login");
    expect(await textOf(page.locator("h1"))).toBe("Sign in");
    await submitLogin(page, user.email, user.password);
    await waitForPath(page, "/");
    await expectTextSoon(page.locator("h1"), "Content");
    expect(await textOf(page.locator("details.user-menu summary"))).toBe("Ada Lovelace");
    // The session holds: a fresh load of /login sends a signed-in user on.
    await page.goto("/login");
    expect(pathOf(page)).toBe("/");
    ctx.expectNoErrors();
    await ctx.close();
  });

  it("shows 'incorrect password' for a wrong password and 'unknown user' for an unknown email", async () => {
    const user = await createTestUser(server.db);
    const ctx = await newContext(browser, server.url, { javaScriptEnabled });
    const page = await ctx.newPage();
    await open(page, "/login");
    expect(await failLogin(page, user.email, "not the password", "incorrect password")).toBe("incorrect password");
    expect(new URL(page.url()).pathname).toBe("/login");
    // The email is kept; the server does not send the password back.
    expect(await page.locator('input[name="email"]').inputValue()).toBe(user.email);
    if (!javaScriptEnabled) expect(await page.locator('input[name="password"]').inputValue()).toBe("");

    await open(page, "/login");
    expect(await failLogin(page, `nobody-${javaScriptEnabled}@example.test`, "whatever password", "unknown user")).toBe("unknown user");
    expect(new URL(page.url()).pathname).toBe("/login");

    // Still not signed in.
    await page.goto("/");
    expect(pathOf(page)).toBe("/login");
    ctx.expectNoErrors();
    await ctx.close();
  });

  it("signs out through the user menu's 'Signout' link", async () => {
    const user = await createTestUser(server.db);
    const ctx = await newContext(browser, server.url, { javaScriptEnabled });
    const page = await ctx.newPage();
    await signInThroughForm(page, user.email, user.password);
    expect(pathOf(page)).toBe("/");
    const items = await openUserMenu(page);
    expect(items).toEqual(["Profile", "Signout"]);
    await signOutThroughMenu(page);
    expect(pathOf(page)).toBe("/login");
    expect(await textOf(page.locator("h1"))).toBe("Sign in");
    expect(await page.locator("details.user-menu").count()).toBe(0);
    // The session is over: home sends back to /login.
    await page.goto("/");
    expect(pathOf(page)).toBe("/login");
    ctx.expectNoErrors();
    await ctx.close();
  });

  it("round-trips from_url: a signed-out visit to /b/artworks/new comes back there after sign-in", async () => {
    const user = await createTestUser(server.db);
    const ctx = await newContext(browser, server.url, { javaScriptEnabled });
    const page = await ctx.newPage();
    await open(page, "/b/artworks/new");
    expect(pathOf(page)).toBe(`/login?from_url=${encodeURIComponent("/b/artworks/new")}`);
    await submitLogin(page, user.email, user.password);
    await waitForPath(page, "/b/artworks/new");
    expect(await page.locator(".error-page").count()).toBe(0);
    ctx.expectNoErrors();
    await ctx.close();
  });
});

describe("rate limit", () => {
  it("refuses the 6th attempt for one account, even with the right password, with the 'Too many' message", async () => {
    const user = await createTestUser(server.db);
    const ctx = await newContext(browser, server.url);
    const page = await ctx.newPage();
    await open(page, "/login");
    for (let attempt = 1; attempt <= 5; attempt++) {
      await open(page, "/login");
      expect(await failLogin(page, user.email, `wrong password ${attempt}`, "incorrect password"), `attempt ${attempt}`).toBe(
        "incorrect password",
      );
    }
    await open(page, "/login");
    const message = await failLogin(page, user.email, user.password, "Too many failed sign-in attempts");
    expect(message).toMatch(/^Too many failed sign-in attempts\. Try again in (1[0-5]|[1-9]) minute\(s\)\.$/);
    expect(new URL(page.url()).pathname).toBe("/login");
    ctx.expectNoErrors();
    await ctx.close();
  });
});

describe("page furniture", () => {
  it("has the loading bar element on every page", async () => {
    const user = await createTestUser(server.db);
    const ctx = await newContext(browser, server.url);
    const page = await ctx.newPage();
    await open(page, "/login");
    expect(await page.locator(".loading-bar").count()).toBe(1);
    await signInThroughForm(page, user.email, user.password);
    expect(await page.locator(".loading-bar").count()).toBe(1);
    expect(await page.locator(".loading-bar").getAttribute("data-state")).toBe("idle");
    ctx.expectNoErrors();
    await ctx.close();
  });

  it("shows the big 404 with 'This page could not be found' for an unknown URL", async () => {
    const user = await createTestUser(server.db);
    const ctx = await newContext(browser, server.url);
    const page = await ctx.newPage();
    const response = await open(page, "/no/such/page");
    expect(response?.status()).toBe(404);
    expect(await textOf(page.locator(".error-page .error-status"))).toBe("404");
    expect(await textOf(page.locator(".error-page .error-message"))).toBe("This page could not be found");

    await signInThroughForm(page, user.email, user.password);
    const signedIn = await open(page, "/b/no-such-bucket");
    expect(signedIn?.status()).toBe(404);
    expect(await textOf(page.locator(".error-page .error-status"))).toBe("404");
    expect(await textOf(page.locator(".error-page .error-message"))).toBe("This page could not be found");
    ctx.expectNoErrors();
    await ctx.close();
  });
});

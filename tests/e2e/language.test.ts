import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  JS_MODES,
  clickTo,
  expectTextSoon,
  launchBrowser,
  newContext,
  open,
  openUserMenu,
  pathOf,
  signInTo,
  submitLogin,
  textOf,
  waitForHydration,
  waitForPath,
  submitAndWait,
} from "@tests/support/browser";
import { createTestBucket } from "@tests/support/fixtures";
import { createTestUser } from "@tests/support/http";
import { startTestServer, type TestServer } from "@tests/support/server";

/* English and Dutch (spec §1 message sets en_US and nl_NL): the top-bar switch, kept across pages and reloads; Accept-Language. */

const EN_INTRO = "Choose a bucket to manage its content.";
const NL_INTRO = "Kies een bucket om de content te beheren.";

let server: TestServer;
let browser: Browser;

beforeAll(async () => {
  [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
  await createTestBucket(server.db, { slug: "artworks", name: "Artworks" });
});
afterAll(async () => {
  await browser.close();
  await server.stop();
});

const htmlLang = (page: Page) => page.locator("html").getAttribute("lang");

/** The language switch in the top bar: a button that names the other language. */
const languageButton = (page: Page, label: "Nederlands" | "English") =>
  page.locator("header").getByRole("button", { name: new RegExp(`${label}$`) });

/** Clicks the top bar's switch to `label`; waits for the post (and, without JavaScript, the page it leads to). */
async function switchLanguage(page: Page, label: "Nederlands" | "English") {
  const button = languageButton(page, label);
  expect(await textOf(button)).toBe(label);
  await submitAndWait(page, button);
}

describe.each(JS_MODES)("$label", ({ javaScriptEnabled }) => {
  it("switches to Nederlands in the top bar, keeps it across pages and a reload, and switches back", async () => {
    const user = await createTestUser(server.db);
    const ctx = await newContext(browser, server.url, { javaScriptEnabled });
    const page = await ctx.newPage();
    await signInTo(page, user.email, user.password);
    expect(await textOf(page.locator("main p"))).toBe(EN_INTRO);
    expect(await htmlLang(page)).toBe("en");

    await switchLanguage(page, "Nederlands");
    await expectTextSoon(page.locator("main p"), NL_INTRO);
    expect(pathOf(page)).toBe("/");
    await expect.poll(() => htmlLang(page)).toBe("nl");
    expect(await textOf(languageButton(page, "English"))).toBe("English");
    expect(await openUserMenu(page)).toEqual(["Profiel", "Afmelden"]);

    // Another page, reached through the menu, and a reload: still Dutch.
    await clickTo(page, page.locator("details.user-menu").getByRole("menuitem", { name: "Profiel" }), "/profile");
    await expectTextSoon(page.locator("main h1"), "Profiel");
    await page.reload();
    await waitForHydration(page);
    expect(await textOf(page.locator("main h1"))).toBe("Profiel");
    expect(await htmlLang(page)).toBe("nl");

    // The choice is the user's: signing in from another (English) browser brings it back.
    const other = await newContext(browser, server.url, { javaScriptEnabled });
    const elsewhere = await other.newPage();
    await signInTo(elsewhere, user.email, user.password, "Inhoud");
    expect(await textOf(elsewhere.locator("main p"))).toBe(NL_INTRO);
    other.expectNoErrors();
    await other.close();

    // And back to English, on the same page.
    await switchLanguage(page, "English");
    await expectTextSoon(page.locator("main h1"), "Profile");
    expect(pathOf(page)).toBe("/profile");
    await expect.poll(() => htmlLang(page)).toBe("en");
    await open(page, "/");
    expect(await textOf(page.locator("main p"))).toBe(EN_INTRO);
    expect(await openUserMenu(page)).toEqual(["Profile", "Signout"]);
    ctx.expectNoErrors();
    await ctx.close();
  });

  it("shows a browser that asks for Dutch (Accept-Language: nl) the Dutch texts first; the switch overrides it", async () => {
    const user = await createTestUser(server.db);
    const ctx = await newContext(browser, server.url, { javaScriptEnabled, locale: "nl-NL" });
    const page = await ctx.newPage();
    await open(page, "/login");
    expect(await textOf(page.locator("main h1"))).toBe("Inloggen");
    expect(await htmlLang(page)).toBe("nl");
    await submitLogin(page, user.email, user.password);
    await waitForPath(page, "/");
    await waitForHydration(page);
    await expectTextSoon(page.locator("main p"), NL_INTRO);
    expect(await openUserMenu(page)).toEqual(["Profiel", "Afmelden"]);

    // Choosing English beats the browser's wish, from then on.
    await switchLanguage(page, "English");
    await expectTextSoon(page.locator("main p"), EN_INTRO);
    await page.reload();
    await waitForHydration(page);
    expect(await textOf(page.locator("main p"))).toBe(EN_INTRO);
    expect(await htmlLang(page)).toBe("en");
    ctx.expectNoErrors();
    await ctx.close();
  });
});

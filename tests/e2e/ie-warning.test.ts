import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { JS_MODES, launchBrowser, newContext, open, textOf, waitForHydration } from "@tests/support/browser";
import { IE11_UA, IE9_UA } from "@tests/support/fixtures";
import { startTestServer, type TestServer } from "@tests/support/server";

/* The Internet Explorer notice of spec §2 in a real browser, hidden for good with and without JavaScript. */

let server: TestServer;
let browser: Browser;

beforeAll(async () => {
  [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
});
afterAll(async () => {
  await browser.close();
  await server.stop();
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

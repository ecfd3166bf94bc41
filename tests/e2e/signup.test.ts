import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createInvitation } from "@server/accounts/invitations";
import {
  JS_MODES,
  clickTo,
  expectTextSoon,
  launchBrowser,
  newContext,
  open,
  pathOf,
  textOf,
  waitForHydration,
} from "@tests/support/browser";
import { startTestServer, type TestServer } from "@tests/support/server";

/* Web signup in the browser (spec §4 allowSignup; §3 signup payload), with and without ALLOW_SIGNUP. */

const INVALID_INVITATION = "This invitation code is unknown, already used or expired";
const PASSWORD = "a long enough password";

let allowed: TestServer;
let refused: TestServer;
let browser: Browser;

beforeAll(async () => {
  [allowed, refused, browser] = await Promise.all([startTestServer({ env: { ALLOW_SIGNUP: "true" } }), startTestServer(), launchBrowser()]);
});
afterAll(async () => {
  await browser.close();
  await Promise.all([allowed.stop(), refused.stop()]);
});

let counter = 0;
const newEmail = (label: string) => `${label}-${++counter}-${Date.now()}@signup.example.test`;

/** Fills the signup form by its visible labels and submits it. */
async function submitSignup(page: Page, fields: { name: string; email: string; password: string; invitationCode: string }) {
  const form = page.locator("main form");
  await form.getByLabel("Name", { exact: true }).fill(fields.name);
  await form.getByLabel("Email", { exact: true }).fill(fields.email);
  await form.getByLabel("Password", { exact: true }).fill(fields.password);
  await form.getByLabel("Invitation code", { exact: true }).fill(fields.invitationCode);
  const response = page.waitForResponse((response) => response.request().method() === "POST");
  response.catch(() => undefined);
  await form.getByRole("button", { name: "Create account" }).click();
  await response;
  await page.waitForLoadState();
  await waitForHydration(page);
}

describe.each(JS_MODES)("$label", ({ javaScriptEnabled }) => {
  describe("with signup allowed", () => {
    it("signs a visitor with a valid invitation up from the login page, and they are signed in", async () => {
      const { code } = await createInvitation(allowed.db, {});
      const email = newEmail("new");
      const ctx = await newContext(browser, allowed.url, { javaScriptEnabled });
      const page = await ctx.newPage();
      await open(page, "/login");
      await clickTo(page, page.locator("main").getByRole("link", { name: "Create an account" }), "/signup");
      await expectTextSoon(page.locator("main h1"), "Create an account");

      await submitSignup(page, { name: "Nina Newcomer", email, password: PASSWORD, invitationCode: code });
      await page.waitForURL((url) => url.pathname === "/");
      await expectTextSoon(page.locator("main h1"), "Content");
      expect(await textOf(page.locator("header").getByText("Nina Newcomer", { exact: true }))).toBe("Nina Newcomer");

      // The session holds across a fresh load, and /signup now sends home.
      await open(page, "/signup");
      expect(pathOf(page)).toBe("/");
      ctx.expectNoErrors();
      await ctx.close();
    });

    it("refuses an invitation code that was used already, with the invitation message, and signs nobody in", async () => {
      const { code } = await createInvitation(allowed.db, {});
      const ctx = await newContext(browser, allowed.url, { javaScriptEnabled });
      const page = await ctx.newPage();
      await open(page, "/signup");
      await submitSignup(page, { name: "First Comer", email: newEmail("first"), password: PASSWORD, invitationCode: code });
      await page.waitForURL((url) => url.pathname === "/");
      ctx.expectNoErrors();
      await ctx.close();

      const second = await newContext(browser, allowed.url, { javaScriptEnabled });
      const again = await second.newPage();
      const email = newEmail("second");
      await open(again, "/signup");
      await submitSignup(again, { name: "Second Comer", email, password: PASSWORD, invitationCode: code });
      await expectTextSoon(again.locator("main form").getByRole("alert"), INVALID_INVITATION);
      expect(pathOf(again)).toBe("/signup");
      // What was typed is kept (but the password), so the visitor only has to fix the code.
      expect(await again.locator("main form").getByLabel("Email", { exact: true }).inputValue()).toBe(email);
      expect(await again.locator("main form").getByLabel("Name", { exact: true }).inputValue()).toBe("Second Comer");
      await open(again, "/");
      expect(pathOf(again)).toBe("/login");
      second.expectNoErrors();
      await second.close();
    });
  });

  describe("with signup not allowed", () => {
    it("sends /signup to /login, which offers no signup link", async () => {
      const ctx = await newContext(browser, refused.url, { javaScriptEnabled });
      const page = await ctx.newPage();
      await open(page, "/signup");
      expect(pathOf(page)).toBe("/login");
      expect(await textOf(page.locator("main h1"))).toBe("Sign in");
      expect(await page.getByRole("link", { name: "Create an account" }).count()).toBe(0);
      expect(await page.locator("main").getByText("Have an invitation?").count()).toBe(0);
      ctx.expectNoErrors();
      await ctx.close();
    });
  });
});

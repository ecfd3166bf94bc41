import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  JS_MODES,
  clickTo,
  expectTextSoon,
  launchBrowser,
  newContext,
  open,
  pathOf,
  signInTo,
  submitAndWait,
  textOf,
} from "@tests/support/browser";
import { createTestUser } from "@tests/support/http";
import { startTestServer, type TestServer } from "@tests/support/server";

/*
 * A forgotten password without mail (issue 36), in the browser with JavaScript on and off: the user asks on
 * /password-reset, the admin finds the request under Settings → Users, makes a reset link (copied with JavaScript,
 * selected without), the user chooses a password with it; then the admin sets one in the dialog.
 */

let server: TestServer;
let browser: Browser;

beforeAll(async () => {
  [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
});
afterAll(async () => {
  await browser.close();
  await server.stop();
});

let counter = 0;
const unique = (label: string) => `${label}${++counter}x${Date.now().toString(36)}`;

describe.each(JS_MODES)("$label", ({ javaScriptEnabled }) => {
  // Two journeys in one (a reset link, then a password set in the dialog), each with sign-ins: 25 s on a quiet
  // machine, so it gets twice the suite's 60 s.
  it(
    "the user asks, the admin answers with a reset link and then sets a password; the user signs in with each",
    { timeout: 120_000 },
    async () => {
      const admin = await createTestUser(server.db, { name: "Ada Admin", permissions: ["user", "admin"] });
      const user = await createTestUser(server.db, { name: `Pieter ${unique("Vergeten")}` });

      // The user asks on /password-reset, and is told where the request goes.
      const visitor = await newContext(browser, server.url, { javaScriptEnabled });
      const asking = await visitor.newPage();
      await open(asking, "/password-reset");
      await asking.getByLabel("Email").fill(user.email);
      await submitAndWait(asking, asking.getByRole("button", { name: "Send the link" }));
      await expectTextSoon(
        asking.locator("[data-reset-answer]"),
        "This installation cannot send mail, so no link is on its way. If that address belongs to an account, the admins of Vitrine now see your request under Settings: one of them can set a new password for you or give you a link to choose one.",
      );

      // The admin sees it on the users list and answers it on the user's screen.
      const ctx = await newContext(browser, server.url, { javaScriptEnabled });
      if (javaScriptEnabled) await ctx.context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: server.url });
      const page = await ctx.newPage();
      await signInTo(page, admin.email, admin.password);
      await open(page, "/settings/users");
      const requests = page.getByRole("region", { name: "Password requests" });
      const item = requests.locator(`[data-reset-request="${user.id}"]`);
      expect(await textOf(item)).toContain(`${user.name} ${user.email}, asked on`);
      await clickTo(page, item.getByRole("link", { name: `Answer the request of ${user.name}` }), `/settings/users/${user.id}`);
      await expectTextSoon(page.locator("main h1"), `Edit ${user.name}`);
      const section = page.getByRole("region", { name: "Password" });
      expect(await textOf(section.locator("[data-reset-request]"))).toContain(`${user.name} asked for a new password.`);

      await submitAndWait(page, section.getByRole("button", { name: "Make reset link" }));
      const field = section.getByRole("textbox", { name: "Reset link" });
      await field.waitFor();
      const link = await field.inputValue();
      expect(link).toMatch(new RegExp(`^${server.url}/password-reset/[A-Za-z0-9_-]{43}$`));
      expect(await field.getAttribute("readonly")).not.toBeNull();
      if (javaScriptEnabled) {
        await section.getByRole("button", { name: "Copy link" }).click();
        await expectTextSoon(section.locator(".shareable-copied"), "Copied");
        expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);
      } else {
        // Without JavaScript there is nothing to copy with: the field is there to select.
        expect(await section.getByRole("button", { name: "Copy link" }).count()).toBe(0);
        await field.selectText();
        expect(
          await page.evaluate(() => window.getSelection()?.toString() || (document.activeElement as HTMLInputElement | null)?.value),
        ).toBe(link);
      }
      // The request is answered.
      await expect.poll(() => section.locator("[data-reset-request]").count()).toBe(0);
      await open(page, "/settings/users");
      expect(await page.locator(`[data-reset-request="${user.id}"]`).count()).toBe(0);

      // The user chooses a password with the link, and signs in with it.
      await open(asking, link);
      await asking.getByLabel("New password", { exact: true }).fill("chosen with the link");
      await asking.getByLabel("Repeat the new password").fill("chosen with the link");
      await submitAndWait(asking, asking.getByRole("button", { name: "Set the password" }));
      expect(pathOf(asking)).toBe("/login?password_changed=1");
      await signInTo(asking, user.email, "chosen with the link");

      // The admin sets a password in the dialog: a short one is refused, then the user is signed out everywhere.
      await open(page, `/settings/users/${user.id}`);
      await clickTo(page, section.getByRole("link", { name: "Set password" }), `/settings/users/${user.id}?password`);
      const dialog = page.getByRole("dialog", { name: `A new password for ${user.name}` });
      await dialog.getByLabel("New password", { exact: true }).fill("short");
      await dialog.getByLabel("Repeat the new password").fill("short");
      if (javaScriptEnabled) {
        await dialog.getByRole("button", { name: "Set password" }).click();
      } else {
        await submitAndWait(page, dialog.getByRole("button", { name: "Set password" }));
      }
      await expectTextSoon(dialog.locator(".field-error").first(), "Use at least 8 characters");
      await dialog.getByLabel("New password", { exact: true }).fill("set by ada for you");
      await dialog.getByLabel("Repeat the new password").fill("set by ada for you");
      await submitAndWait(page, dialog.getByRole("button", { name: "Set password" }));
      await expectTextSoon(
        page.locator("main .notice-success"),
        `The password of ${user.name} was set, and ${user.name} was signed out everywhere. Pass the new password on in a safe way.`,
      );
      expect(pathOf(page)).toBe(`/settings/users/${user.id}?done=passwordSet`);
      expect(await page.getByRole("dialog").count()).toBe(0);

      // The user's session ended: the home page sends them to sign in.
      await open(asking, "/");
      expect(new URL(asking.url()).pathname).toBe("/login");
      await signInTo(asking, user.email, "set by ada for you");

      visitor.expectNoErrors();
      ctx.expectNoErrors();
      await visitor.close();
      await ctx.close();
    },
  );

  it("cancelling the dialog changes nothing", async () => {
    const admin = await createTestUser(server.db, { name: "Ada Admin", permissions: ["user", "admin"] });
    const user = await createTestUser(server.db, { name: `Kees ${unique("Blijft")}` });
    const ctx = await newContext(browser, server.url, { javaScriptEnabled });
    const page = await ctx.newPage();
    await signInTo(page, admin.email, admin.password);
    await open(page, `/settings/users/${user.id}?password`);
    const dialog = page.getByRole("dialog", { name: `A new password for ${user.name}` });
    await dialog.getByLabel("New password", { exact: true }).fill("never submitted");
    await clickTo(page, dialog.getByRole("link", { name: "Cancel" }), `/settings/users/${user.id}`);
    expect(await page.getByRole("dialog").count()).toBe(0);
    const other = await newContext(browser, server.url, { javaScriptEnabled });
    await signInTo(await other.newPage(), user.email, user.password);
    await other.close();
    ctx.expectNoErrors();
    await ctx.close();
  });
});

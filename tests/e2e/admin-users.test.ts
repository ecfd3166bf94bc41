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
  textOf,
  waitForHydration,
  submitAndWait,
} from "@tests/support/browser";
import { createTestBucket } from "@tests/support/fixtures";
import { createTestUser } from "@tests/support/http";
import { startTestServer, type TestServer } from "@tests/support/server";

/* /settings/users in the browser (issue 11): find a user, edit them, deactivate and delete them; JavaScript on and off. */

let server: TestServer;
let browser: Browser;
let alpha: string;

beforeAll(async () => {
  [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
  alpha = (await createTestBucket(server.db, { name: "Alpha Bucket" })).slug;
  await createTestBucket(server.db, { name: "Beta Bucket" });
});
afterAll(async () => {
  await browser.close();
  await server.stop();
});

let counter = 0;
const unique = (label: string) => `${label}${++counter}x${Date.now().toString(36)}`;

describe.each(JS_MODES)("$label", ({ javaScriptEnabled }) => {
  it("an admin finds a user, edits name, permissions and buckets, and sees the form refuse an empty name", async () => {
    const admin = await createTestUser(server.db, { name: "Ada Admin", permissions: ["user", "admin"] });
    const surname = unique("Findable");
    const target = await createTestUser(server.db, { name: `Fiona ${surname}` });
    const ctx = await newContext(browser, server.url, { javaScriptEnabled });
    const page = await ctx.newPage();
    await signInTo(page, admin.email, admin.password);

    await open(page, "/settings");
    await clickTo(page, page.getByRole("navigation", { name: "Administration" }).getByRole("link", { name: "Users" }), "/settings/users");
    await page.getByRole("searchbox", { name: "Search by name or email" }).fill(surname.toLowerCase());
    await Promise.all([
      page.waitForURL((url) => url.searchParams.get("q") === surname.toLowerCase()),
      page.getByRole("button", { name: "Search" }).click(),
    ]);
    await waitForHydration(page);
    await expectTextSoon(page.locator("main table tbody tr td").first(), `Fiona ${surname}`);
    expect(await page.locator("main table tbody tr").count()).toBe(1);
    await clickTo(page, page.getByRole("link", { name: `Fiona ${surname}` }), `/settings/users/${target.id}`);
    await expectTextSoon(page.locator("main h1"), `Edit Fiona ${surname}`);

    // An empty name is refused under the field, and nothing is saved.
    const form = page.locator("form.people-form");
    await form.getByLabel("Name", { exact: true }).fill("");
    if (javaScriptEnabled) {
      await form.getByRole("button", { name: "Save changes" }).click();
    } else {
      await submitAndWait(page, form.getByRole("button", { name: "Save changes" }));
    }
    await expectTextSoon(form.locator(".field-error").first(), "Enter a name");

    await form.getByLabel("Name", { exact: true }).fill(`Fiona Renamed ${surname}`);
    await form.getByRole("checkbox", { name: /^Developer/ }).check();
    await form.getByRole("checkbox", { name: new RegExp(`^Alpha Bucket ${alpha}`) }).check();
    await submitAndWait(page, form.getByRole("button", { name: "Save changes" }));
    await expectTextSoon(
      page.locator("main .notice-success"),
      `The changes were saved. They took access away, so Fiona Renamed ${surname} was signed out everywhere.`,
    );
    expect(pathOf(page)).toBe(`/settings/users/${target.id}?done=signedOut`);

    // A fresh load shows what was stored.
    await open(page, `/settings/users/${target.id}`);
    expect(await form.getByLabel("Name", { exact: true }).inputValue()).toBe(`Fiona Renamed ${surname}`);
    expect(await form.getByRole("checkbox", { name: /^Developer/ }).isChecked()).toBe(true);
    expect(await form.getByRole("checkbox", { name: /^Admin/ }).isChecked()).toBe(false);
    expect(await form.getByRole("checkbox", { name: new RegExp(`^Alpha Bucket ${alpha}`) }).isChecked()).toBe(true);
    expect(await form.getByRole("checkbox", { name: /^Beta Bucket/ }).isChecked()).toBe(false);
    ctx.expectNoErrors();
    await ctx.close();
  });

  it("an admin deactivates a user (who can no longer sign in), then deletes them after confirming", async () => {
    const admin = await createTestUser(server.db, { name: "Ada Admin", permissions: ["user", "admin"] });
    const target = await createTestUser(server.db, { name: `Gone ${unique("Soon")}` });
    const ctx = await newContext(browser, server.url, { javaScriptEnabled });
    const page = await ctx.newPage();
    await signInTo(page, admin.email, admin.password);
    await open(page, `/settings/users/${target.id}`);

    await submitAndWait(page, page.getByRole("button", { name: "Deactivate" }));
    await expectTextSoon(page.locator("main .notice-success"), `${target.name} was deactivated and signed out everywhere.`);
    expect(await textOf(page.locator("main h1 .tag-deactivated"))).toBe("Deactivated");

    // The deactivated user is answered as an unknown one on /login.
    const other = await newContext(browser, server.url, { javaScriptEnabled });
    const login = await other.newPage();
    await open(login, "/login");
    await login.locator('input[name="email"]').fill(target.email);
    await login.locator('input[name="password"]').fill(target.password);
    await submitAndWait(login, login.locator('main form[method="post"] button[type="submit"]'));
    await expectTextSoon(login.locator(".form-error"), "unknown user");
    expect(pathOf(login)).toBe("/login");
    await other.close();

    await clickTo(page, page.getByRole("link", { name: "Delete user" }), `/settings/users/${target.id}?delete`);
    const dialog = page.getByRole("alertdialog", { name: "Delete this user?" });
    expect(await textOf(dialog.locator("p"))).toBe(
      `${target.name} (${target.email}) is deleted for good and signed out at once. The documents they saved stay. This cannot be undone.`,
    );
    await Promise.all([
      page.waitForURL((url) => url.pathname === "/settings/users"),
      dialog.getByRole("button", { name: "Delete" }).click(),
    ]);
    await waitForHydration(page);
    await expectTextSoon(page.locator("main .notice-success"), `The user ${target.email} was deleted.`);
    ctx.expectNoErrors();
    await ctx.close();
  });

  it("the last admin is told why they cannot take away their own admin permission", async () => {
    const solo = await startTestServer();
    try {
      const only = await createTestUser(solo.db, { name: "Only Admin", permissions: ["user", "admin"] });
      const ctx = await newContext(browser, solo.url, { javaScriptEnabled });
      const page = await ctx.newPage();
      await signInTo(page, only.email, only.password);
      await open(page, `/settings/users/${only.id}`);
      const form = page.locator("form.people-form");
      await form.getByRole("checkbox", { name: /^Admin/ }).uncheck();
      await submitAndWait(page, form.getByRole("button", { name: "Save changes" }));
      await expectTextSoon(
        form.locator(".form-error"),
        "You are the last admin: you cannot take away your own Admin permission, deactivate or delete your account. Give someone else the Admin permission first.",
      );
      // Still an admin, still signed in.
      await open(page, "/settings/users");
      expect(pathOf(page)).toBe("/settings/users");
      ctx.expectNoErrors();
      await ctx.close();
    } finally {
      await solo.stop();
    }
  });
});

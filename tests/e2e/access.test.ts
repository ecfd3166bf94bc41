import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestBucket } from "@tests/support/fixtures";
import { createTestUser } from "@tests/support/http";
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
  waitForPath,
  submitAndWait,
} from "@tests/support/browser";
import { startTestServer, type TestServer } from "@tests/support/server";
import { startMailServer, type TestMailServer } from "@tests/support/smtp";

/*
 * In the browser, with JavaScript on and off: an admin creates an API client and revokes it (/settings/new-client),
 * a user changes their profile and password (/profile), and a forgotten password is reset through the mailed link
 * all the way to signing in.
 */

const NEW_PASSWORD = "a fresh browser password";

let server: TestServer;
let mail: TestMailServer;
let browser: Browser;
let counter = 0;

beforeAll(async () => {
  mail = await startMailServer();
  [server, browser] = await Promise.all([
    startTestServer({ env: { SMTP_URL: mail.url, MAIL_FROM: "vitrine@example.test" } }),
    launchBrowser(),
  ]);
  await createTestBucket(server.db, { slug: "artworks", name: "Artworks", collectionName: "artworks" });
  await createTestBucket(server.db, { slug: "notes", name: "Notes", collectionName: "notes" });
});
afterAll(async () => {
  await browser.close();
  await server.stop();
  await mail.close();
});

const bearerSchema = (token: string) =>
  fetch(`${server.url}/api/v1/buckets/artworks/schema`, { headers: { Authorization: `Bearer ${token}` } });

describe.each(JS_MODES)("$label", ({ javaScriptEnabled }) => {
  it("an admin creates an API client, sees its token once, the app reads with it, and the admin revokes it", async () => {
    const admin = await createTestUser(server.db, { name: "Ada Admin", permissions: ["user", "admin"] });
    const ctx = await newContext(browser, server.url, { javaScriptEnabled });
    const page = await ctx.newPage();
    await signInTo(page, admin.email, admin.password);
    await open(page, "/settings/new-client");
    expect(await textOf(page.locator("main h1"))).toBe("API clients");

    const name = `Kiosk ${javaScriptEnabled ? "js" : "html"} ${++counter}`;
    const form = page.locator("form#new-client");
    await form.getByLabel("Name", { exact: true }).fill(name);
    await form.getByLabel("Read: Artworks", { exact: true }).check();
    await submitAndWait(page, form.getByRole("button", { name: "Create client" }));
    await expectTextSoon(page.locator(".client-token h2"), `API client '${name}' created`);
    const token = await page.locator("[data-client-token]").inputValue();
    expect(token).toMatch(/^[0-9a-f-]{36}\.[A-Za-z0-9_-]{43}$/);
    expect(page.url()).not.toContain(token.split(".")[1]!);
    expect((await bearerSchema(token)).status).toBe(200);

    // Shown once: opening the page again shows the client, not its token.
    await open(page, "/settings/new-client");
    expect(await page.locator("[data-client-token]").count()).toBe(0);
    const card = page.locator(".client-card", { hasText: name });
    expect(await textOf(card.locator(".client-access"))).toBe("Reads: Artworks");
    expect(await textOf(card.locator(".client-status"))).toBe("Active");

    await card.getByText("Revoke…").click();
    await submitAndWait(page, card.getByRole("button", { name: `Revoke '${name}' now` }));
    await expectTextSoon(page.locator("main p.notice-success"), `API client '${name}' revoked: its token no longer works.`);
    expect(await textOf(page.locator(".client-card", { hasText: name }).locator(".client-status"))).toMatch(/^Revoked on /);
    expect((await bearerSchema(token)).status).toBe(401);
    ctx.expectNoErrors();
    await ctx.close();
  });

  it("the form keeps its input and shows what is missing", async () => {
    const admin = await createTestUser(server.db, { permissions: ["user", "admin"] });
    const ctx = await newContext(browser, server.url, { javaScriptEnabled });
    const page = await ctx.newPage();
    await signInTo(page, admin.email, admin.password);
    await open(page, "/settings/new-client");
    const form = page.locator("form#new-client");
    await form.getByLabel("Name", { exact: true }).fill("No buckets yet");
    await form.getByRole("button", { name: "Create client" }).click();
    await expectTextSoon(form.locator(".field-error"), "Choose at least one bucket to read or write");
    expect(await form.getByLabel("Name", { exact: true }).inputValue()).toBe("No buckets yet");
    expect(await page.locator("[data-client-token]").count()).toBe(0);
    ctx.expectNoErrors();
    await ctx.close();
  });

  it("a user renames themselves, changes their password (ending their other session) and switches the interface to Dutch", async () => {
    const user = await createTestUser(server.db, { name: "Pim Profile" });
    const ctx = await newContext(browser, server.url, { javaScriptEnabled });
    const page = await ctx.newPage();
    await signInTo(page, user.email, user.password);
    const other = await newContext(browser, server.url, { javaScriptEnabled });
    const elsewhere = await other.newPage();
    await signInTo(elsewhere, user.email, user.password);

    await open(page, "/profile");
    expect(await page.locator(".session-card").count()).toBe(2);
    const details = page.locator("form#profile-details");
    await details.getByLabel("Name", { exact: true }).fill("Pim Renamed");
    await submitAndWait(page, details.getByRole("button", { name: "Save" }));
    await expectTextSoon(page.locator("main p.notice-success"), "Your details have been saved.");
    await expectTextSoon(page.locator("header details.user-menu summary"), "Pim Renamed");

    const password = page.locator("form#profile-password");
    await password.getByLabel("Current password", { exact: true }).fill(user.password);
    await password.getByLabel("New password", { exact: true }).fill(NEW_PASSWORD);
    await password.getByLabel("Repeat the new password", { exact: true }).fill(NEW_PASSWORD);
    await submitAndWait(page, password.getByRole("button", { name: "Change password" }));
    await expectTextSoon(
      page.locator("main p.notice-success"),
      "Your password has been changed, and your other sessions have been signed out.",
    );
    expect(await page.locator(".session-card").count()).toBe(1);
    await open(elsewhere, "/");
    expect(pathOf(elsewhere)).toBe("/login");

    await details.getByLabel("Interface language", { exact: true }).selectOption("nl");
    await submitAndWait(page, details.getByRole("button", { name: "Save" }));
    await expectTextSoon(page.locator("main h1"), "Profiel");
    await expectTextSoon(page.locator("main p.notice-success"), "Je gegevens zijn opgeslagen.");

    await submitAndWait(page, page.getByRole("button", { name: "Overal afmelden" }));
    await waitForPath(page, "/login");
    await open(page, "/profile");
    expect(pathOf(page)).toBe(`/login?from_url=${encodeURIComponent("/profile")}`);
    ctx.expectNoErrors();
    other.expectNoErrors();
    await Promise.all([ctx.close(), other.close()]);
  });

  it("a forgotten password is reset through the mailed link, and the new one signs in", async () => {
    const user = await createTestUser(server.db, { name: "Fay Forgetful" });
    const ctx = await newContext(browser, server.url, { javaScriptEnabled });
    const page = await ctx.newPage();
    await open(page, "/login");
    await clickTo(page, page.getByRole("link", { name: "Forgot your password?" }), "/password-reset");
    await expectTextSoon(page.locator("main h1"), "Reset your password");
    await page.getByLabel("Email", { exact: true }).fill(user.email);
    await submitAndWait(page, page.getByRole("button", { name: "Send the link" }));
    await expectTextSoon(
      page.locator("[data-reset-answer]"),
      "If that address belongs to an account, a link to choose a new password is on its way. The link works once, within an hour. No mail? Check your spam folder, or ask an admin.",
    );

    const message = await mail.waitForMail(user.email);
    expect(message.subject).toBe("Choose a new password for Vitrine");
    const link = /http:\/\/\S+\/password-reset\/\S+/.exec(message.text ?? "")?.[0];
    expect(link?.startsWith(server.url)).toBe(true);
    await page.goto(link!);
    await waitForHydration(page);
    await expectTextSoon(page.locator("main h1"), "Choose a new password");
    await page.getByLabel("New password", { exact: true }).fill("short");
    await page.getByLabel("Repeat the new password", { exact: true }).fill("short");
    await page.getByRole("button", { name: "Set the password" }).click();
    await expectTextSoon(page.locator("main .field-error"), "Use at least 8 characters");

    await page.getByLabel("New password", { exact: true }).fill(NEW_PASSWORD);
    await page.getByLabel("Repeat the new password", { exact: true }).fill(NEW_PASSWORD);
    await submitAndWait(page, page.getByRole("button", { name: "Set the password" }));
    await waitForPath(page, "/login?password_changed=1");
    await expectTextSoon(page.locator("main p.notice-success"), "Your password has been changed. Sign in with your new password.");

    await page.locator('input[name="email"]').fill(user.email);
    await page.locator('input[name="password"]').fill(NEW_PASSWORD);
    await Promise.all([
      page.waitForURL((url) => url.pathname === "/"),
      page.locator('main form[method="post"] button[type="submit"]').click(),
    ]);
    await expectTextSoon(page.locator("main h1"), "Content");

    // The link worked once.
    await page.goto(link!);
    await expectTextSoon(page.locator("main h1"), "This link does not work");
    expect(await textOf(page.locator("main [role=alert]"))).toBe("This password reset link has already been used: each link works once.");
    ctx.expectNoErrors();
    await ctx.close();
  });
});

import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  JS_MODES,
  expectTextSoon,
  launchBrowser,
  linksIn,
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
import { startMailServer, type TestMailServer } from "@tests/support/smtp";

/*
 * An invitation in the browser (issue 11): the admin invites with a bucket, the mail arrives at a real SMTP server,
 * the invitee opens the mailed link (open signup is off), signs up and sees only that bucket; JavaScript on and off.
 */

let server: TestServer;
let mail: TestMailServer;
let browser: Browser;
let given: { slug: string; name: string };

beforeAll(async () => {
  mail = await startMailServer();
  [server, browser] = await Promise.all([
    startTestServer({ env: { SMTP_URL: mail.url, MAIL_FROM: "Vitrine <cms@example.test>" } }),
    launchBrowser(),
  ]);
  given = await createTestBucket(server.db, { name: "Given Bucket", position: 1 });
  await createTestBucket(server.db, { name: "Withheld Bucket", position: 2 });
});
afterAll(async () => {
  await browser.close();
  await server.stop();
  await mail.close();
});

let counter = 0;
const newEmail = (label: string) => `${label}-${++counter}-${Date.now().toString(36)}@invite.example.test`;

describe.each(JS_MODES)("$label", ({ javaScriptEnabled }) => {
  it("invites by mail; the invitee signs up from the mailed link and sees only the given bucket", async () => {
    const admin = await createTestUser(server.db, { name: "Ines Inviter", permissions: ["user", "admin"] });
    const ctx = await newContext(browser, server.url, { javaScriptEnabled });
    const page = await ctx.newPage();
    await signInTo(page, admin.email, admin.password);
    await open(page, "/settings/invite-user");
    expect(await textOf(page.locator("main h1"))).toBe("Invite a user");

    const email = newEmail("invitee");
    const form = page.locator("form.people-form");
    await form.getByLabel("Email (optional)").fill(email);
    await form.getByRole("checkbox", { name: new RegExp(`^Given Bucket ${given.slug}`) }).check();
    await form.getByLabel("Valid for (days)").fill("0");
    if (javaScriptEnabled) {
      await form.getByRole("button", { name: "Create invitation" }).click();
    } else {
      await submitAndWait(page, form.getByRole("button", { name: "Create invitation" }));
    }
    await expectTextSoon(form.locator(".field-error"), "Enter a whole number of days from 1 to 90");
    await form.getByLabel("Valid for (days)").fill("5");
    await submitAndWait(page, form.getByRole("button", { name: "Create invitation" }));

    const created = page.locator("section.invitation-created");
    await expectTextSoon(created.locator(".notice-success"), `The invitation was mailed to ${email}.`);
    const code = await created.locator("[data-invitation-code]").inputValue();
    const link = await created.locator("[data-invitation-link]").inputValue();
    expect(link).toBe(`${server.url}/signup?code=${code}`);
    expect(pathOf(page)).toBe("/settings/invite-user");
    // Listed as open, and the form is empty again for the next one.
    const row = page.locator("main table tbody tr", { hasText: email });
    expect((await row.innerText()).replace(/\s+/g, " ").trim()).toMatch(
      new RegExp(`^${email.replace(/[.]/g, "\\.")} User ${given.slug} Ines Inviter \\S`),
    );
    expect(await form.getByLabel("Email (optional)").inputValue()).toBe("");

    const message = await mail.waitForMail(email);
    const mailedLink = /https?:\/\/\S+\/signup\?code=\S+/.exec(message.text ?? "")?.[0];
    expect(mailedLink).toBe(link);
    ctx.expectNoErrors();
    await ctx.close();

    // The invitee, in a browser of their own, follows the link.
    const invitee = await newContext(browser, server.url, { javaScriptEnabled });
    const signup = await invitee.newPage();
    await open(signup, mailedLink!);
    expect(pathOf(signup)).toBe(`/signup?code=${code}`);
    const signupForm = signup.locator("main form");
    expect(await signupForm.getByLabel("Invitation code", { exact: true }).inputValue()).toBe(code);
    await signupForm.getByLabel("Name", { exact: true }).fill("Ivo Invitee");
    await signupForm.getByLabel("Email", { exact: true }).fill(email);
    await signupForm.getByLabel("Password", { exact: true }).fill("a long enough password");
    await Promise.all([
      signup.waitForURL((url) => url.pathname === "/"),
      signupForm.getByRole("button", { name: "Create account" }).click(),
    ]);
    await waitForHydration(signup);
    await expectTextSoon(signup.locator("main h1"), "Content");
    expect((await linksIn(signup.locator("main ul.bucket-grid"))).map((entry) => entry.text)).toEqual(["Given Bucket"]);
    invitee.expectNoErrors();
    await invitee.close();
  });

  it("an admin revokes an open invitation, and its link then leads to sign-in", async () => {
    const admin = await createTestUser(server.db, { name: "Rita Revoker", permissions: ["user", "admin"] });
    const ctx = await newContext(browser, server.url, { javaScriptEnabled });
    const page = await ctx.newPage();
    await signInTo(page, admin.email, admin.password);
    await open(page, "/settings/invite-user");
    const email = newEmail("revoked");
    await page.locator("form.people-form").getByLabel("Email (optional)").fill(email);
    await submitAndWait(page, page.getByRole("button", { name: "Create invitation" }));
    const link = await page.locator("[data-invitation-link]").inputValue();

    await submitAndWait(page, page.getByRole("button", { name: `Revoke the invitation for ${email}` }));
    await expectTextSoon(page.locator("main .notice-success"), "The invitation was revoked: its code no longer works.");
    expect(await page.locator("main table tbody tr", { hasText: email }).count()).toBe(0);

    const visitor = await newContext(browser, server.url, { javaScriptEnabled });
    const other = await visitor.newPage();
    await open(other, link);
    expect(pathOf(other)).toBe("/login");
    await visitor.close();
    ctx.expectNoErrors();
    await ctx.close();
  });
});

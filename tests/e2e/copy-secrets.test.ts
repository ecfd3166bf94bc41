import type { Browser, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { JS_MODES, expectTextSoon, launchBrowser, newContext, open, signInTo, submitAndWait } from "@tests/support/browser";
import { createTestBucket } from "@tests/support/fixtures";
import { createTestUser } from "@tests/support/http";
import { startTestServer, type TestServer } from "@tests/support/server";

/*
 * Secrets shown only once (issue 36, items 14b and 14): the invitation's code and link, a new API client's token and a
 * webhook's signing secret (made, or replaced) each sit
 * in a read-only field, with a Copy button that puts them on the clipboard (JavaScript on) or nothing to press but the
 * field to select (JavaScript off).
 */

let server: TestServer;
let browser: Browser;
let counter = 0;

beforeAll(async () => {
  // A webhook to this machine (nothing is saved, so nothing is sent): private targets allowed.
  [server, browser] = await Promise.all([startTestServer({ env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: "true" } }), launchBrowser()]);
  await createTestBucket(server.db, { name: "Copy Bucket" });
});
afterAll(async () => {
  await browser.close();
  await server.stop();
});

/** The field holds the secret read-only; with JavaScript its button copies it and says so, without it there is none. */
async function expectCopyable(page: Page, scope: Locator, field: string, button: string, javaScriptEnabled: boolean): Promise<string> {
  const input = scope.getByRole("textbox", { name: field, exact: true });
  const value = await input.inputValue();
  expect(value.length).toBeGreaterThan(10);
  expect(await input.getAttribute("readonly")).not.toBeNull();
  const copy = scope.getByRole("button", { name: button, exact: true });
  if (javaScriptEnabled) {
    await copy.click();
    await expectTextSoon(input.locator("xpath=..").locator(".shareable-copied"), "Copied");
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(value);
  } else {
    expect(await copy.count()).toBe(0);
    await input.selectText();
    expect(
      await input.evaluate((element: HTMLInputElement) => element.value.slice(element.selectionStart ?? 0, element.selectionEnd ?? 0)),
    ).toBe(value);
  }
  return value;
}

describe.each(JS_MODES)("$label", ({ javaScriptEnabled }) => {
  async function signedInAdmin(): Promise<{ page: Page; close: () => Promise<void> }> {
    const admin = await createTestUser(server.db, { name: "Cora Copier", permissions: ["user", "admin"] });
    const ctx = await newContext(browser, server.url, { javaScriptEnabled });
    if (javaScriptEnabled) await ctx.context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: server.url });
    const page = await ctx.newPage();
    await signInTo(page, admin.email, admin.password);
    return {
      page,
      close: async () => {
        ctx.expectNoErrors();
        await ctx.close();
      },
    };
  }

  it("the invitation's code and link can be copied", async () => {
    const { page, close } = await signedInAdmin();
    await open(page, "/settings/invite-user");
    await submitAndWait(page, page.locator("form.people-form").getByRole("button", { name: "Create invitation" }));
    const created = page.locator("section.invitation-created");
    const code = await expectCopyable(page, created, "Invitation code", "Copy code", javaScriptEnabled);
    const link = await expectCopyable(page, created, "Signup link", "Copy link", javaScriptEnabled);
    expect(link).toBe(`${server.url}/signup?code=${code}`);
    await close();
  });

  it("a new API client's token can be copied", async () => {
    const { page, close } = await signedInAdmin();
    await open(page, "/settings/new-client");
    const form = page.locator("form#new-client");
    await form.getByLabel("Name", { exact: true }).fill(`Copy kiosk ${++counter} ${javaScriptEnabled ? "js" : "html"}`);
    await form.getByLabel("Read: Copy Bucket", { exact: true }).check();
    await submitAndWait(page, form.getByRole("button", { name: "Create client" }));
    const token = await expectCopyable(page, page.locator(".client-token"), "Token", "Copy token", javaScriptEnabled);
    expect(token).toMatch(/^[0-9a-f-]{36}\.[A-Za-z0-9_-]{43}$/);
    await close();
  });

  it("a webhook's signing secret can be copied, when the webhook is made and when its secret is replaced", async () => {
    const { page, close } = await signedInAdmin();
    await open(page, "/settings/webhooks/new");
    const form = page.locator("form.webhook-form");
    await form.getByLabel("URL", { exact: true }).fill(`http://127.0.0.1:9/copy-${++counter}`);
    await submitAndWait(page, form.getByRole("button", { name: "Create webhook" }));
    const created = page.locator("main .client-token");
    const secret = await expectCopyable(page, created, "Its signing secret", "Copy secret", javaScriptEnabled);
    expect(secret).toMatch(/^whsec_/);

    const link = created.getByRole("link", { name: "Open the webhook and its delivery log" });
    await open(page, (await link.getAttribute("href"))!);
    const edit = page.locator("form.webhook-form");
    await edit.getByRole("radio", { name: "Replace it with a new generated secret" }).check();
    await submitAndWait(page, edit.getByRole("button", { name: "Save changes" }));
    const replaced = await expectCopyable(page, page.locator("main .client-token"), "Its signing secret", "Copy secret", javaScriptEnabled);
    expect(replaced).toMatch(/^whsec_/);
    expect(replaced).not.toBe(secret);
    await close();
  });
});

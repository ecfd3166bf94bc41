import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createContent } from "@server/content/store";
import { verifySignature } from "@server/webhooks/signature";
import type { Bucket } from "@server/content/buckets";
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
import { createTestBucket } from "@tests/support/fixtures";
import { createTestUser } from "@tests/support/http";
import { startTestServer, type TestServer } from "@tests/support/server";
import { startReceiver, type Receiver } from "@tests/support/webhook-receiver";

/*
 * Webhooks in the browser (issue 14): an admin registers a webhook for one bucket, copies the secret shown once,
 * a saved document reaches the receiver signed with it, and the delivery log shows it and sends it again;
 * JavaScript on and off.
 */

let server: TestServer;
let browser: Browser;
let receiver: Receiver;
let bucket: Bucket;

beforeAll(async () => {
  [server, browser, receiver] = await Promise.all([
    startTestServer({ env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: "true" } }),
    launchBrowser(),
    startReceiver(),
  ]);
  bucket = await createTestBucket(server.db, { name: "Exhibits" });
  await createTestBucket(server.db, { name: "Not Watched" });
});
afterAll(async () => {
  await browser.close();
  await receiver.close();
  await server.stop();
});

let counter = 0;

describe.each(JS_MODES)("$label", ({ javaScriptEnabled }) => {
  it("an admin creates a webhook for one bucket, sees its signed delivery in the log and sends it again", async () => {
    const hookPath = `/hook-${javaScriptEnabled ? "js" : "nojs"}-${++counter}`;
    const admin = await createTestUser(server.db, { name: "Wim Webhook", permissions: ["user", "admin"] });
    const ctx = await newContext(browser, server.url, { javaScriptEnabled });
    const page = await ctx.newPage();
    await signInTo(page, admin.email, admin.password);

    await open(page, "/settings");
    await clickTo(
      page,
      page.getByRole("navigation", { name: "Administration" }).getByRole("link", { name: "Webhooks" }),
      "/settings/webhooks",
    );
    await expectTextSoon(page.locator("main h1"), "Webhooks");
    await clickTo(page, page.getByRole("link", { name: "New webhook" }), "/settings/webhooks/new");

    const form = page.locator("form.webhook-form");
    // A URL that is not http(s) is refused under the field (in the browser with JavaScript, by the server without).
    await form.getByLabel("URL", { exact: true }).fill("ftp://example.org/hook");
    await form.getByRole("radio", { name: "Only these buckets:" }).check();
    await form.getByRole("checkbox", { name: new RegExp(`^Exhibits ${bucket.slug}`) }).check();
    if (javaScriptEnabled) await form.getByRole("button", { name: "Create webhook" }).click();
    else await submitAndWait(page, form.getByRole("button", { name: "Create webhook" }));
    await expectTextSoon(form.locator(".field-error").first(), "Enter a complete http:// or https:// URL");

    await form.getByLabel("URL", { exact: true }).fill(receiver.url(hookPath));
    if (!javaScriptEnabled) {
      // The page came back from the server with the input kept.
      expect(await form.getByRole("checkbox", { name: new RegExp(`^Exhibits ${bucket.slug}`) }).isChecked()).toBe(true);
    }
    expect(await form.getByRole("checkbox", { name: /^Document saved/ }).isChecked()).toBe(true);
    await submitAndWait(page, form.getByRole("button", { name: "Create webhook" }));
    await expectTextSoon(page.locator("main .client-token h2"), "Webhook created");
    const secret = await page.locator("[data-webhook-secret]").inputValue();
    expect(secret).toMatch(/^whsec_/);

    const link = page.getByRole("link", { name: "Open the webhook and its delivery log" });
    const href = await link.getAttribute("href");
    await clickTo(page, link, href!);
    await expectTextSoon(page.locator("main h1"), `Webhook to ${new URL(receiver.url("/")).host}`);
    await expectTextSoon(
      page.locator("main .empty"),
      "Nothing has been sent yet. Save a document in a chosen bucket to see a delivery here.",
    );

    // A document saved in the chosen bucket reaches the receiver, signed with the secret the page showed.
    const saved = await createContent(server.db, bucket.id, { title: "Delivered in the browser test" }, admin.id);
    const request = await receiver.waitFor((entry) => entry.path === hookPath);
    expect(verifySignature(secret, request.body, request.headers["vitrine-signature"] as string)).toBe(true);
    expect(request.json).toMatchObject({ event: "document.saved", bucket: bucket.slug, contentId: saved.contentId });

    // The log shows it once it is recorded as delivered.
    await expect
      .poll(
        async () => {
          await open(page, href!);
          return page.locator("table.delivery-log tbody tr[data-status=delivered]").count();
        },
        { timeout: 15_000 },
      )
      .toBe(1);
    const row = page.locator("table.delivery-log tbody tr").first();
    expect(await textOf(row.locator("td").nth(1))).toContain(bucket.slug);
    expect(await textOf(row.locator(".delivery-status"))).toBe("Delivered");

    await submitAndWait(page, row.getByRole("button", { name: /^Send again/ }));
    await expectTextSoon(page.locator("main .notice-success"), "The delivery will be sent again shortly, as a new entry in the log.");
    expect(pathOf(page)).toBe(`${href}?done=resent`);
    const again = await receiver.waitFor((entry) => entry.path === hookPath && entry.json?.deliveryId !== request.json?.deliveryId);
    expect(again.json).toMatchObject({ contentId: saved.contentId, versionId: saved.versionId });
    await expect
      .poll(
        async () => {
          await open(page, href!);
          return page.locator("table.delivery-log tbody tr[data-status=delivered]").count();
        },
        { timeout: 15_000 },
      )
      .toBe(2);
    ctx.expectNoErrors();
    await ctx.close();
  });
});

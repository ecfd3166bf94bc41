import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  JS_MODES,
  expectTextSoon,
  launchBrowser,
  newContext,
  open,
  signInTo,
  topBarBucketNav,
  linksIn,
  waitForHydration,
} from "@tests/support/browser";
import { createTestUser } from "@tests/support/http";
import { createTestBucket } from "@tests/support/fixtures";
import { createContent } from "@server/content/store";
import { startTestServer, type TestServer } from "@tests/support/server";
import { setSchema } from "@tests/support/admin-browser";

/*
 * The bucket admin in the browser (issue 11): the schema editor (CodeMirror with JavaScript, a textarea without),
 * a parse error with its line and column, a refused keyword, the preview (live with JavaScript, the 'Preview' button
 * without), creating a bucket and editing its schema.
 */

let server: TestServer;
let browser: Browser;
let email: string;
let password: string;

beforeAll(async () => {
  [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
  const admin = await createTestUser(server.db, { name: "Admin Ada", permissions: ["user", "admin"] });
  ({ email, password } = admin);
});
afterAll(async () => {
  await browser.close();
  await server.stop();
});

let counter = 0;
const unique = (label: string) => `${label}-${++counter}-${Date.now().toString(36)}`;

/** Submits the form with one of its buttons and waits for the page that answers. */
async function submitWith(page: Page, button: string) {
  const answered = page.waitForResponse((response) => response.request().method() === "POST");
  answered.catch(() => undefined);
  await page.locator("form.bucket-admin-form").getByRole("button", { name: button, exact: true }).click();
  await answered;
  await page.waitForLoadState();
  await waitForHydration(page);
}

async function signedInPage(javaScriptEnabled: boolean) {
  const ctx = await newContext(browser, server.url, { javaScriptEnabled });
  const page = await ctx.newPage();
  await open(page, "/login");
  await signInTo(page, email, password);
  return { ctx, page };
}

const schemaStatus = (page: Page) => page.locator("#json-schema-status");
const preview = (page: Page) => page.locator("section.schema-preview");

describe.each(JS_MODES)("$label", ({ javaScriptEnabled }) => {
  it("creates a bucket from the list, shows it in the navigation, and edits its schema into version 2", async () => {
    const { ctx, page } = await signedInPage(javaScriptEnabled);
    await open(page, "/settings/buckets");
    await page.getByRole("link", { name: "New bucket" }).click();
    await page.waitForURL((url) => url.pathname === "/settings/buckets/new");
    await waitForHydration(page);
    if (javaScriptEnabled) await page.locator(".schema-editor-cm").waitFor();
    else expect(await page.locator(".cm-editor").count()).toBe(0);

    const slug = unique("paintings");
    const form = page.locator("form.bucket-admin-form");
    await form.getByLabel("Name", { exact: true }).fill("Paintings");
    await form.getByLabel("Slug", { exact: true }).fill(slug);
    await form.getByLabel("Collection name", { exact: true }).fill(slug);
    await form.getByLabel("Locales", { exact: true }).fill("en, nl");
    await setSchema(
      page,
      JSON.stringify({ type: "object", properties: { title: { type: "string", title: "Painting title", translate: true } } }, null, 2),
    );
    await submitWith(page, "Create bucket");
    await page.waitForURL((url) => url.pathname === `/settings/buckets/${slug}`);
    await expectTextSoon(page.locator("main .notice-success"), "The bucket was saved.");
    expect((await linksIn(topBarBucketNav(page))).map((link) => link.text)).toContain("Paintings");

    await setSchema(
      page,
      JSON.stringify(
        {
          type: "object",
          properties: { title: { type: "string", title: "Painting title", translate: true }, year: { type: "integer", title: "Year" } },
        },
        null,
        2,
      ),
    );
    await submitWith(page, "Save");
    await expectTextSoon(page.locator("main .notice-success"), "The bucket was saved.");
    await expect.poll(() => page.locator(".schema-history tbody tr").count()).toBe(2);
    const { rows } = await server.db.query<{ number: number }>(
      `SELECT max(s.number) AS number FROM schema_versions s JOIN buckets b ON b.id = s.bucket_id WHERE b.slug = $1`,
      [slug],
    );
    expect(rows[0]!.number).toBe(2);
    ctx.expectNoErrors();
    await ctx.close();
  });

  it("names the line and column of a JSON error", async () => {
    const { ctx, page } = await signedInPage(javaScriptEnabled);
    await open(page, "/settings/buckets/new");
    await setSchema(page, '{\n  "type": "object",\n  "properties": {\n    "a": { "type": "string" },\n  }\n}');
    if (!javaScriptEnabled) await submitWith(page, "Create bucket");
    await expect.poll(() => schemaStatus(page).innerText(), { timeout: 10_000 }).toContain("JSON error at line 5, column 3: unexpected }");
    if (javaScriptEnabled) {
      // The live check happened in the browser: nothing was posted, and the editor can jump to the error.
      await page.getByRole("button", { name: "Go to the error" }).click();
      await expect.poll(() => page.evaluate(() => document.activeElement?.classList.contains("cm-content"))).toBe(true);
    }
    ctx.expectNoErrors();
    await ctx.close();
  });

  it("refuses a keyword the form engine does not render, naming the property path", async () => {
    const { ctx, page } = await signedInPage(javaScriptEnabled);
    await open(page, "/settings/buckets/new");
    const form = page.locator("form.bucket-admin-form");
    const slug = unique("refused");
    await form.getByLabel("Name", { exact: true }).fill("Refused");
    await form.getByLabel("Slug", { exact: true }).fill(slug);
    await form.getByLabel("Collection name", { exact: true }).fill(slug);
    await setSchema(
      page,
      JSON.stringify({
        type: "object",
        properties: { rooms: { type: "array", items: { type: "object", properties: { photo: { anyOf: [{ type: "string" }] } } } } },
      }),
    );
    if (!javaScriptEnabled) await submitWith(page, "Create bucket");
    await expect
      .poll(() => schemaStatus(page).innerText(), { timeout: 10_000 })
      .toContain("properties.rooms.items.properties.photo: the keyword anyOf is not supported: the form can't render it");
    if (javaScriptEnabled) {
      // The server refuses it too.
      await submitWith(page, "Create bucket");
      await expect.poll(() => schemaStatus(page).innerText()).toContain("the keyword anyOf is not supported");
    }
    const { rows } = await server.db.query(`SELECT 1 FROM buckets WHERE slug = $1`, [slug]);
    expect(rows).toHaveLength(0);
    ctx.expectNoErrors();
    await ctx.close();
  });

  it("previews the form the schema produces with the edit page's fields", async () => {
    const { ctx, page } = await signedInPage(javaScriptEnabled);
    await open(page, "/settings/buckets/new");
    await page.locator("form.bucket-admin-form").getByLabel("Locales", { exact: true }).fill("nl, en");
    await setSchema(
      page,
      JSON.stringify(
        {
          type: "object",
          properties: {
            caption: { type: "string", title: "Caption text", translate: true },
            wing: { type: "string", title: "Wing", enum: ["East", "West"] },
          },
        },
        null,
        2,
      ),
    );
    if (javaScriptEnabled) {
      expect(await page.getByRole("button", { name: "Preview", exact: true }).count()).toBe(0);
    } else {
      await submitWith(page, "Preview");
    }
    await expect.poll(() => preview(page).getByText("Caption text").count(), { timeout: 10_000 }).toBeGreaterThan(0);
    await expect.poll(() => preview(page).locator("select").count()).toBe(1);
    // One input per content locale of the translated field (tabs with JavaScript).
    expect(await preview(page).locator('input[name="caption.nl"]').count()).toBe(1);
    expect(await preview(page).locator('input[name="caption.en"]').count()).toBe(1);
    if (!javaScriptEnabled) expect(await page.locator('textarea[name="jsonSchema"]').inputValue()).toContain("Caption text");
    ctx.expectNoErrors();
    await ctx.close();
  });

  it("deletes a bucket that holds documents only once its slug is typed", async () => {
    const bucket = await createTestBucket(server.db, { name: unique("Doomed") });
    await createContent(server.db, bucket.id, { title: "Doc" }, null);
    const { ctx, page } = await signedInPage(javaScriptEnabled);
    await open(page, `/settings/buckets/${bucket.slug}`);
    const zone = page.locator("section.danger-zone");
    await zone.getByRole("button", { name: "Delete bucket" }).click();
    await expectTextSoon(zone.locator(".field-error"), `This bucket holds documents (1): type its slug ${bucket.slug} to confirm.`);
    await waitForHydration(page);
    await zone.getByLabel(`Type the slug ${bucket.slug} to confirm`).fill(bucket.slug);
    await zone.getByRole("button", { name: "Delete bucket" }).click();
    await page.waitForURL((url) => url.pathname === "/settings/buckets");
    await expectTextSoon(page.locator("main .notice-success"), `Bucket ${bucket.slug} was deleted.`);
    const { rows } = await server.db.query(`SELECT 1 FROM buckets WHERE id = $1`, [bucket.id]);
    expect(rows).toHaveLength(0);
    ctx.expectNoErrors();
    await ctx.close();
  });

  it("imports a pasted definition: a new slug creates the bucket", async () => {
    const slug = unique("imported");
    const { ctx, page } = await signedInPage(javaScriptEnabled);
    await open(page, "/settings/buckets");
    const definition = {
      slug,
      name: "Imported bucket",
      singleton: false,
      private: false,
      collectionName: slug,
      locales: ["en"],
      jsonSchema: { type: "object", properties: { title: { type: "string" } } },
    };
    await page.getByLabel("Or paste the JSON").fill(JSON.stringify(definition));
    await page.getByRole("button", { name: "Import", exact: true }).click();
    await page.waitForURL((url) => url.pathname === `/settings/buckets/${slug}`);
    await expectTextSoon(page.locator("main h1"), "Bucket: Imported bucket");
    ctx.expectNoErrors();
    await ctx.close();
  });
});

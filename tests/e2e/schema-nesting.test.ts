import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { JS_MODES, launchBrowser, newContext, open, signInTo, waitForHydration } from "@tests/support/browser";
import { createTestUser } from "@tests/support/http";
import { startTestServer, type TestServer } from "@tests/support/server";
import { setSchema } from "@tests/support/admin-browser";

/*
 * Issue 36, items 4 and 12c in the browser: a schema nested deeper than 64 levels, and an rjsf-style schema with
 * definitions and $ref, each get their one message in the schema editor as the admin types (JavaScript, the
 * browser's own check: nothing is posted) and from the server when the form is posted (no JavaScript); the import
 * page says the same. Before, the editor's check overflowed the stack and the server answered 500.
 */

let server: TestServer;
let browser: Browser;
let email: string;
let password: string;

beforeAll(async () => {
  [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
  ({ email, password } = await createTestUser(server.db, { permissions: ["user", "admin"] }));
});
afterAll(async () => {
  await browser.close();
  await server.stop();
});

let counter = 0;
const unique = (label: string) => `${label}-${++counter}-${Date.now().toString(36)}`;

const TOO_DEEP = "objects and lists nest more than 64 levels deep here, the limit for a schema";
/** Valid JSON: a property whose default nests 100 lists (103 levels in all; the first too deep is at column 123). */
const DEEP_SCHEMA = `{"type":"object","properties":{"a":{"type":"array","default":${"[".repeat(100)}${"]".repeat(100)}}}}`;
const RJSF_SCHEMA = JSON.stringify(
  {
    type: "object",
    definitions: { address: { type: "object", properties: { street: { type: "string" } } } },
    properties: { billing: { $ref: "#/definitions/address" }, shipping: { $ref: "#/definitions/address" } },
  },
  null,
  2,
);

async function signedInPage(javaScriptEnabled: boolean) {
  const ctx = await newContext(browser, server.url, { javaScriptEnabled });
  const page = await ctx.newPage();
  await open(page, "/login");
  await signInTo(page, email, password);
  return { ctx, page };
}

/** Posts the bucket form with its create button (no JavaScript: the server's check). */
async function create(page: Page) {
  const answered = page.waitForResponse((response) => response.request().method() === "POST");
  answered.catch(() => undefined);
  await page.locator("form.bucket-admin-form").getByRole("button", { name: "Create bucket", exact: true }).click();
  await answered;
  await page.waitForLoadState();
  await waitForHydration(page);
}

const schemaStatus = (page: Page) => page.locator("#json-schema-status");

describe.each(JS_MODES)("$label", ({ javaScriptEnabled }) => {
  it.each<[string, string, string]>([
    ["a schema nested too deep", DEEP_SCHEMA, `JSON error at line 1, column 123: ${TOO_DEEP}`],
    ["200,000 open brackets", "[".repeat(200_000), `JSON error at line 1, column 65: ${TOO_DEEP}`],
    [
      "an rjsf schema with definitions and $ref",
      RJSF_SCHEMA,
      'The keyword $ref is not supported: inline the definition "address" where it is used, then remove definitions.',
    ],
  ])("the bucket form refuses %s with one message", async (_name, text, message) => {
    const { ctx, page } = await signedInPage(javaScriptEnabled);
    await open(page, "/settings/buckets/new");
    const slug = unique("deep");
    const form = page.locator("form.bucket-admin-form");
    await form.getByLabel("Name", { exact: true }).fill("Deep");
    await form.getByLabel("Slug", { exact: true }).fill(slug);
    await form.getByLabel("Collection name", { exact: true }).fill(slug);
    const posts: string[] = [];
    page.on("request", (request) => {
      if (request.method() === "POST") posts.push(request.url());
    });
    await setSchema(page, text);
    if (!javaScriptEnabled) await create(page);
    await expect.poll(() => schemaStatus(page).innerText(), { timeout: 15_000 }).toContain(message);
    expect(await schemaStatus(page).locator("li").count()).toBe(1);
    // With JavaScript the browser's own check said it: nothing was posted.
    if (javaScriptEnabled) expect(posts).toEqual([]);
    const { rows } = await server.db.query(`SELECT 1 FROM buckets WHERE slug = $1`, [slug]);
    expect(rows).toHaveLength(0);
    ctx.expectNoErrors();
    await ctx.close();
  });

  it("the import refuses a definition whose schema nests too deep", async () => {
    const { ctx, page } = await signedInPage(javaScriptEnabled);
    await open(page, "/settings/buckets/import");
    const slug = unique("deep-import");
    const definition = `{"slug":"${slug}","name":"Deep","collectionName":"${slug}","locales":["en"],"jsonSchema":${DEEP_SCHEMA}}`;
    await page.getByLabel("Or paste the JSON").fill(definition);
    const answered = page.waitForResponse((response) => response.request().method() === "POST");
    await page.getByRole("button", { name: "Import", exact: true }).click();
    expect((await answered).status()).toBe(422);
    await page.waitForLoadState();
    await expect.poll(() => page.locator("main .form-error").innerText()).toContain(TOO_DEEP);
    ctx.expectNoErrors();
    await ctx.close();
  });
});

import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Bucket } from "@server/content/buckets";
import { createContent } from "@server/content/store";
import {
  JS_MODES,
  clickTo,
  expectTextSoon,
  launchBrowser,
  newContext,
  open,
  pathOf,
  signInThroughForm,
  textOf,
  waitForHydration,
} from "@tests/support/browser";
import { createTestBucket } from "@tests/support/fixtures";
import { createTestUser } from "@tests/support/http";
import { startTestServer, type TestServer } from "@tests/support/server";

/*
 * The impact preview page (/settings/buckets/{slug}/impact) in the browser: with JavaScript the check streams with a
 * progress bar and the page stays; without, the form posts and the page answers with the report. Both show the same
 * report, whose links open the documents.
 */

const CURRENT_SCHEMA = {
  type: "object",
  properties: {
    title: { type: "string", title: "Title" },
    year: { type: "integer", title: "Year" },
    maker: { type: "string", title: "Maker" },
  },
};
const NEW_SCHEMA = {
  type: "object",
  properties: { title: { type: "string", title: "Title" }, year: { type: "integer", title: "Year", maximum: 1960 } },
};

let server: TestServer;
let browser: Browser;
let bucket: Bucket;
let admin: { email: string; password: string };
let delta: string;

beforeAll(async () => {
  [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
  bucket = await createTestBucket(server.db, { name: "Paintings", jsonSchema: CURRENT_SCHEMA });
  await createContent(server.db, bucket.id, { title: "Alpha", year: 1900, maker: "Mesdag" }, null);
  await createContent(server.db, bucket.id, { title: "Beta", year: 1950 }, null);
  delta = (await createContent(server.db, bucket.id, { title: "Delta", year: 2005 }, null)).contentId;
  admin = await createTestUser(server.db, { permissions: ["user", "admin"] });
});
afterAll(async () => {
  await browser.close();
  await server.stop();
});

const impactPath = () => `/settings/buckets/${bucket.slug}/impact`;

/** Replaces the schema text and presses 'Check impact'; without JavaScript waits for the page's answer. */
async function check(page: Page, schemaText: string, javaScriptEnabled: boolean) {
  await page.locator("textarea[name=jsonSchema]").fill(schemaText);
  const button = page.getByRole("button", { name: "Check impact" });
  if (javaScriptEnabled) {
    await button.click();
    return;
  }
  await Promise.all([page.waitForResponse((response) => response.request().method() === "POST"), button.click()]);
  await page.waitForLoadState();
}

describe.each(JS_MODES)("$label", ({ javaScriptEnabled }) => {
  it("checks a proposed schema against the bucket's documents and links to the ones it breaks", async () => {
    const ctx = await newContext(browser, server.url, { javaScriptEnabled });
    const page = await ctx.newPage();
    await signInThroughForm(page, admin.email, admin.password);
    await open(page, impactPath());
    expect(JSON.parse(await page.locator("textarea[name=jsonSchema]").inputValue())).toEqual(CURRENT_SCHEMA);

    const posts: string[] = [];
    page.on("request", (request) => {
      if (request.method() === "POST") posts.push(new URL(request.url()).pathname);
    });
    if (javaScriptEnabled) {
      // The progress bar shows while the check streams: remember whether it appeared at all.
      await page.evaluate(() => {
        const seen = window as unknown as { impactProgressSeen?: boolean };
        new MutationObserver(() => {
          if (document.querySelector(".impact-progress progress")) seen.impactProgressSeen = true;
        }).observe(document.body, { childList: true, subtree: true });
      });
    }
    await check(page, JSON.stringify(NEW_SCHEMA, null, 2), javaScriptEnabled);

    const summary = page.getByTestId("impact-summary");
    await expectTextSoon(summary, "2 of 3 documents would no longer validate.");
    const rows = page.locator(".impact-group");
    expect(await rows.count()).toBe(2);
    expect(await textOf(rows.filter({ hasText: "year" }))).toContain("This value can't be more than 1960");
    expect(await textOf(page.locator(".impact-change"))).toContain("maker Removed · Documents with a value there: 1");
    if (javaScriptEnabled) {
      expect(posts).toEqual([`${impactPath()}/stream`]);
      expect(await page.evaluate(() => (window as unknown as { impactProgressSeen?: boolean }).impactProgressSeen)).toBe(true);
      expect(await page.locator(".impact-progress").count()).toBe(0);
    } else {
      expect(posts).toEqual([impactPath()]);
    }
    expect(pathOf(page)).toBe(impactPath());

    await clickTo(page, rows.filter({ hasText: "year" }).getByRole("link", { name: "Delta" }), `/b/${bucket.slug}/${delta}/latest`);
    await expectTextSoon(page.locator("main h1"), "Edit Delta");
    ctx.expectNoErrors();
    await ctx.close();
  });

  it("says so when the schema is not JSON, and keeps the text", async () => {
    const ctx = await newContext(browser, server.url, { javaScriptEnabled });
    const page = await ctx.newPage();
    await signInThroughForm(page, admin.email, admin.password);
    await open(page, impactPath());
    await check(page, "{ broken", javaScriptEnabled);
    await expectTextSoon(page.locator("#impact-error"), "The schema is not valid JSON");
    expect(await page.locator("textarea[name=jsonSchema]").inputValue()).toBe("{ broken");
    expect(await page.getByTestId("impact-summary").count()).toBe(0);
    await waitForHydration(page);
    ctx.expectNoErrors();
    await ctx.close();
  });
});

describe("a long property name", () => {
  const LONG = {
    type: "object",
    properties: {
      exhibitionOpeningArrangements: {
        type: "object",
        properties: { weekendEveningSurchargeDescription: { type: "string", title: "Surcharge" } },
      },
    },
  };
  const SHORTER = structuredClone(LONG);
  SHORTER.properties.exhibitionOpeningArrangements.properties.weekendEveningSurchargeDescription = {
    type: "string",
    title: "Surcharge",
    maxLength: 3,
  } as never;

  /** How many lines each text of the name's element takes (its words, split at the path's separators). */
  const linesOfWords = (page: Page) =>
    page
      .locator(".impact-group .impact-property")
      .first()
      .evaluate((element) =>
        [...element.childNodes]
          .filter((node) => node.nodeType === Node.TEXT_NODE)
          .map((node) => {
            const range = document.createRange();
            range.selectNodeContents(node);
            return new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size;
          }),
      );

  it("wraps only at its separators at 1280 px, and does not overflow at 390 px", async () => {
    const own = await createTestBucket(server.db, { name: "Opening arrangements", jsonSchema: LONG });
    for (const title of ["A document with a rather long title to widen the column", "Another one"]) {
      await createContent(
        server.db,
        own.id,
        { exhibitionOpeningArrangements: { weekendEveningSurchargeDescription: "Five euros on Saturday evenings" } },
        null,
      );
      await createContent(server.db, own.id, { exhibitionOpeningArrangements: { weekendEveningSurchargeDescription: title } }, null);
    }
    const ctx = await newContext(browser, server.url, { javaScriptEnabled: false });
    const page = await ctx.newPage();
    await signInThroughForm(page, admin.email, admin.password);
    await page.setViewportSize({ width: 1280, height: 900 });
    await open(page, `/settings/buckets/${own.slug}/impact`);
    await check(page, JSON.stringify(SHORTER), false);
    const name = page.locator(".impact-group .impact-property").first();
    expect((await textOf(name)).replace(/\s/g, "")).toBe("exhibitionOpeningArrangements.weekendEveningSurchargeDescription");
    const words = await linesOfWords(page);
    expect(
      words.every((lines) => lines === 1),
      `lines per word: ${words.join(", ")}`,
    ).toBe(true);

    await page.setViewportSize({ width: 390, height: 800 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    const box = (await name.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(390);
    ctx.expectNoErrors();
    await ctx.close();
  });
});

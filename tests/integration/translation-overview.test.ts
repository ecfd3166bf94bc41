import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Bucket } from "@server/content/buckets";
import { createContent } from "@server/content/store";
import { createTestBucket, decode, page, signedInUser } from "@tests/support/fixtures";
import { get } from "@tests/support/http";
import { startTestServer, type TestServer } from "@tests/support/server";

/*
 * The overview's translation counts and its "missing" filter (issue 34): per document and locale, how many of its
 * translated texts are filled (nested ones too), and the documents lacking a locale, kept by the export and the bulk
 * actions' "every matching document".
 */

let server: TestServer;
let cookie: string;
let bucket: Bucket;
let plain: Bucket;

const SCHEMA = {
  type: "object",
  "title-key": "title",
  properties: {
    title: { type: "string", title: "Title", translate: true },
    description: { type: "string", title: "Description", translate: true },
    room: { type: "string", title: "Room" },
    steps: {
      type: "array",
      title: "Steps",
      items: { type: "object", properties: { text: { type: "string", title: "Text", translate: true } } },
    },
  },
};

beforeAll(async () => {
  server = await startTestServer();
  bucket = await createTestBucket(server.db, { name: "Translated works", locales: ["nl", "en"], jsonSchema: SCHEMA });
  plain = await createTestBucket(server.db, { name: "Plain works", locales: ["nl", "en"] });
  ({ cookie } = await signedInUser(server.url, server.db, { buckets: [bucket.slug, plain.slug] }));
  const both = (nl: string, en: string) => ({ nl, en });
  await createContent(server.db, bucket.id, { title: both("Alles", "All"), description: both("Vertaald", "Translated") }, null);
  await createContent(server.db, bucket.id, { title: { nl: "Zonder Engels" }, description: { nl: "Alleen Nederlands" } }, null);
  await createContent(server.db, bucket.id, { title: both("Half", "Half"), description: { nl: "Nog niet", en: "  " } }, null);
  await createContent(
    server.db,
    bucket.id,
    { title: both("Stappen", "Steps"), description: both("Ja", "Yes"), steps: [{ text: both("Een", "One") }, { text: { nl: "Twee" } }] },
    null,
  );
  await createContent(server.db, plain.id, { title: "Untranslated" }, null);
});
afterAll(async () => {
  await server.stop();
});

const listed = (html: string) =>
  [...html.matchAll(/<td><a href="\/b\/[^"]+\/latest">([^<]*)<\/a>/g)].map((match) => decode(match[1]!)).sort();
const text = (html: string) => decode(html.replace(/<[^>]+>/g, " ")).replace(/\s+/g, " ");

describe("the overview's translations (issue 34)", () => {
  it("counts each locale's filled texts per document, nested texts included, in a column", async () => {
    const { status, html } = await page(server.url, `/b/${bucket.slug}`, cookie);
    expect(status).toBe(200);
    expect(html).toContain('<th scope="col" class="translation-cell">Translated</th>');
    const words = text(html);
    expect(words).toContain("EN: 0 of 2 texts translated");
    expect(words).toContain("EN: 1 of 2 texts translated");
    expect(words).toContain("EN: 3 of 4 texts translated");
    expect(words).toContain("NL: 4 of 4 texts translated");
    expect(html).toContain('<span class="locale-count complete" title="EN: 2 of 2 texts translated">');

    const dutch = await page(server.url, `/b/${bucket.slug}`, cookie, { "Accept-Language": "nl" });
    expect(text(dutch.html)).toContain("EN: 0 van 2 teksten vertaald");
    expect(dutch.html).toContain('<option value="en">EN ontbreekt</option>');
  });

  it("lists the documents missing a locale, and the export and bulk selection keep the filter", async () => {
    const missingEnglish = await page(server.url, `/b/${bucket.slug}?missing=en`, cookie);
    expect(listed(missingEnglish.html)).toEqual(["Half", "Stappen", "Zonder Engels"]);
    expect(missingEnglish.html).toContain('<option value="en" selected="">Missing EN</option>');
    expect(missingEnglish.html).toContain('<input type="hidden" name="missing" value="en"/>');
    expect(missingEnglish.html).toContain(`/b/${bucket.slug}/export?format=csv&amp;missing=en`);
    const searchedLink = await page(server.url, `/b/${bucket.slug}?q=zonder`, cookie);
    expect(searchedLink.html).toContain(`href="/b/${bucket.slug}/translations?q=zonder"`);

    const searched = await page(server.url, `/b/${bucket.slug}?missing=en&q=zonder`, cookie);
    expect(listed(searched.html)).toEqual(["Zonder Engels"]);
    const none = await page(server.url, `/b/${bucket.slug}?missing=nl`, cookie);
    expect(listed(none.html)).toEqual([]);
    expect(text(none.html)).toContain("No document lacks a text in NL.");
    // A locale the bucket does not have is no filter.
    expect(listed((await page(server.url, `/b/${bucket.slug}?missing=fr`, cookie)).html)).toHaveLength(4);

    const exported = await get(server.url, `/b/${bucket.slug}/export?format=ndjson&missing=en`, cookie);
    const titles = (await exported.text())
      .trim()
      .split("\n")
      .map((line) => (JSON.parse(line) as { title: { nl: string } }).title.nl)
      .sort();
    expect(titles).toEqual(["Half", "Stappen", "Zonder Engels"]);
    expect((await get(server.url, `/b/${bucket.slug}/export?format=csv&missing=fr`, cookie)).status).toBe(400);

    const bulk = await page(server.url, `/b/${bucket.slug}/bulk?action=set&scope=all&missing=en`, cookie);
    expect(text(bulk.html)).toContain("3 documents selected:");
    expect((await page(server.url, `/b/${bucket.slug}/bulk?action=set&scope=all&missing=fr`, cookie)).status).toBe(400);
  });

  it("shows neither column nor filter for a bucket without translated texts", async () => {
    const { html } = await page(server.url, `/b/${plain.slug}`, cookie);
    expect(html).not.toContain("translation-cell");
    expect(html).not.toContain('name="missing"');
    expect(html).not.toContain("/translations");
  });
});

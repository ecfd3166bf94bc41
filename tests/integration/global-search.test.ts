import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { randomUUID } from "node:crypto";
import type { Bucket } from "@server/content/buckets";
import { createContent } from "@server/content/store";
import { createTestBucket, decode, page, seedDocuments, signedInUser } from "@tests/support/fixtures";
import { get, postJson, sameOrigin } from "@tests/support/http";
import { pngOfSize, upload } from "@tests/support/media-fixtures";
import { startTestServer, type TestServer } from "@tests/support/server";

/*
 * One search over everything (issue 34): /search?q= answers across every bucket the user may see, grouped by
 * bucket, with each document's title, an image it shows and the text that matched; the top bar's box posts there.
 */

let server: TestServer;
let cookie: string;
let artworks: Bucket;
let rooms: Bucket;
let hidden: Bucket;
let secret: Bucket;
/** A word no other test's documents hold. */
const word = `zeeg${randomUUID().slice(0, 8)}`;

const imageField = { type: "string", title: "Image", _ref: "b-image", minWidth: 1, minHeight: 1 };

beforeAll(async () => {
  server = await startTestServer();
  artworks = await createTestBucket(server.db, {
    name: "Search artworks",
    names: { nl: "Zoek kunstwerken" },
    locales: ["en", "nl"],
    jsonSchema: {
      type: "object",
      "title-key": "title",
      properties: { title: { type: "string", translate: true }, story: { type: "string" }, image: imageField },
    },
  });
  rooms = await createTestBucket(server.db, {
    name: "Search rooms",
    jsonSchema: { type: "object", properties: { name: { type: "string" } } },
  });
  hidden = await createTestBucket(server.db, { name: "Search hidden" });
  secret = await createTestBucket(server.db, { name: "Search private", private: true });
  ({ cookie } = await signedInUser(server.url, server.db, { buckets: [artworks.slug, rooms.slug, secret.slug] }));
});
afterAll(() => server.stop());

/** The groups of a results page: each bucket's heading and its hits' titles, links and snippets. */
function groupsOf(html: string) {
  return [...html.matchAll(/<section class="search-group"[^>]*><h2[^>]*>([^<]*)<\/h2>([\s\S]*?)<\/section>/g)].map(([, name, body]) => ({
    name: decode(name!),
    hits: [...body!.matchAll(/<li>([\s\S]*?)<\/li>/g)].map(([, hit]) => ({
      title: decode(/class="search-hit-title"[^>]*>([^<]*)</.exec(hit!)?.[1] ?? ""),
      href: /<a [^>]*href="([^"]+)"/.exec(hit!)?.[1],
      snippet: /<p class="search-hit-snippet">([\s\S]*?)<\/p>/.exec(hit!)?.[1],
      image: /<img src="([^"]+)"/.exec(hit!)?.[1] ?? null,
    })),
    all: /<a href="([^"]+)"[^>]*>(?:All matches in|Alle resultaten in)/.exec(body!)?.[1] ?? null,
  }));
}

const search = (query: string, as = cookie) => page(server.url, `/search?q=${encodeURIComponent(query)}`, as);

describe("the search over everything (issue 34)", () => {
  it("groups the matches by bucket, with titles, links, the matched text and the bucket's name in the interface language", async () => {
    const painting = await createContent(
      server.db,
      artworks.id,
      {
        title: { en: "The beach", nl: "Het strand" },
        story: `Painted on the ${word.toUpperCase()} dunes in the morning light of a long summer.`,
      },
      null,
    );
    const room = await createContent(server.db, rooms.id, { name: `Room of ${word}` }, null);
    await createContent(server.db, hidden.id, { title: `Hidden ${word}` }, null);
    await createContent(server.db, secret.id, { title: `Private ${word}` }, null);

    const { status, html } = await search(word);
    expect(status).toBe(200);
    const groups = groupsOf(html);
    expect(groups.map((group) => group.name)).toEqual(["Search artworks", "Search rooms"]);
    expect(groups[0]!.hits).toEqual([
      {
        title: "The beach",
        href: `/b/${artworks.slug}/${painting.contentId}/latest`,
        snippet: `Painted on the <mark>${word.toUpperCase()}</mark> dunes in the morning light of a long…`,
        image: null,
      },
    ]);
    expect(groups[1]!.hits).toMatchObject([{ title: `Room of ${word}`, href: `/b/${rooms.slug}/${room.contentId}/latest` }]);
    expect(groups.every((group) => group.all === null)).toBe(true);

    const dutch = await page(server.url, `/search?q=${word}`, cookie, { "Accept-Language": "nl" });
    expect(groupsOf(dutch.html).map((group) => group.name)).toEqual(["Zoek kunstwerken", "Search rooms"]);
    expect(dutch.html).toContain("Gevonden in 2 buckets.");
  });

  it("lists ten documents of a bucket and links its overview, searched, for the rest", async () => {
    const many = await createTestBucket(server.db, { name: "Search many" });
    await seedDocuments(server.db, many.id, 12, `jsonb_build_object('title', 'Many ${word}x ' || n)`);
    ({ cookie } = await signedInUser(server.url, server.db, { buckets: [artworks.slug, rooms.slug, many.slug] }));
    const [group] = groupsOf((await search(`${word}x`)).html);
    expect(group!.name).toBe("Search many");
    expect(group!.hits).toHaveLength(10);
    expect(decode(group!.all!)).toBe(`/b/${many.slug}?q=${word}x`);
  });

  it("shows an image the document uses beside its title", async () => {
    const response = await upload(
      server.url,
      "image",
      cookie,
      { bucket: artworks.slug, properties: JSON.stringify(imageField) },
      { data: await pngOfSize(200, 150), name: "dunes.png" },
    );
    const text = await response.text();
    expect(response.status, text).toBe(200);
    const image = (JSON.parse(text) as Array<{ contentId: string }>)[0]!.contentId;
    const saved = await postJson(
      server.url,
      `/api/v1/buckets/${artworks.slug}/save`,
      { content: { title: { en: `Dunes ${word}i`, nl: "Duinen" }, image }, collection: artworks.collectionName },
      cookie,
      sameOrigin(server.url),
    );
    expect(saved.status, await saved.clone().text()).toBeLessThan(300);
    const [group] = groupsOf((await search(`${word}i`)).html);
    expect(group!.hits[0]).toMatchObject({ title: `Dunes ${word}i`, image: `/api/v1/media/image/${image}` });
    expect((await get(server.url, group!.hits[0]!.image!, cookie)).status).toBe(200);
  });

  it("says so when nothing matches, asks for words without a search, and takes its words literally", async () => {
    const none = await search(`${word}-nowhere`);
    expect(none.status).toBe(200);
    expect(decode(none.html)).toContain(`No document matches “${word}-nowhere”.`);
    const empty = await page(server.url, "/search", cookie);
    expect(empty.html).toContain("Type words to find them in every bucket you can see.");
    await createContent(server.db, rooms.id, { name: `Room 100% ${word}` }, null);
    expect(groupsOf((await search(`100% ${word}`)).html).flatMap((group) => group.hits.map((hit) => hit.title))).toEqual([
      `Room 100% ${word}`,
    ]);
    expect(groupsOf((await search(`1_0% ${word}`)).html)).toEqual([]);
  });

  it("is for signed-in users: the top bar's box sends its words here, and a signed-out visit signs in first", async () => {
    const home = await page(server.url, "/", cookie);
    const form = /<form role="search" class="top-search"[^>]*>([\s\S]*?)<\/form>/.exec(home.html);
    expect(form?.[0]).toMatch(/action="\/search" method="get"/);
    expect(form?.[1]).toMatch(/<input type="search" aria-label="Search everything"[^>]*name="q"/);
    const signedOut = await search(word, "");
    expect(signedOut.status).toBe(302);
    expect(signedOut.location).toMatch(/^\/login/);
  });
});

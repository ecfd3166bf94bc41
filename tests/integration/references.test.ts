import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Bucket } from "@server/content/buckets";
import { createContent, deleteContent, getLatestVersion } from "@server/content/store";
import { createTestBucket, decode, page, signedInUser } from "@tests/support/fixtures";
import { cookieFrom, get, postForm } from "@tests/support/http";
import { startTestServer, type TestServer } from "@tests/support/server";
import { publishDocument } from "@server/content/publishing";
import { TEST_PUBLISHER } from "@tests/support/publishing";

/*
 * References (spec §1): the search API of the reference combobox (GET /api/v1/buckets/any/content?collection=…
 * &search=…&limit=…: who may call it, limits, hostile parameters), the edit page's options of a large collection
 * (the first page and the chosen document's title, never the whole collection), the search without JavaScript
 * (a submit that re-renders the options with the input kept), where a document is used (the delete
 * confirmation) and references whose document was deleted.
 */

let server: TestServer;
let cookie: string;
/** A user whose buckets list holds only the referring bucket. */
let limited: string;
let artists: Bucket;
let crowd: Bucket;
let exhibitions: Bucket;
let secret: Bucket;
const crowdIds: string[] = [];
let mesdag: string;
let toorop: string;

const LARGE = 230;

beforeAll(async () => {
  server = await startTestServer();
  const stamp = Date.now().toString(36);
  artists = await createTestBucket(server.db, {
    slug: `ref-artists-${stamp}`,
    collectionName: `ref-artists-${stamp}`,
    jsonSchema: { type: "object", properties: { name: { type: "string", title: "Name" }, portrait: { type: "string", _ref: "b-image" } } },
  });
  crowd = await createTestBucket(server.db, { slug: `ref-crowd-${stamp}`, collectionName: `ref-crowd-${stamp}` });
  exhibitions = await createTestBucket(server.db, {
    slug: `ref-exhibitions-${stamp}`,
    collectionName: `ref-exhibitions-${stamp}`,
    jsonSchema: {
      type: "object",
      properties: {
        title: { type: "string", title: "Title" },
        artist: { type: "string", title: "Artist", _ref: artists.collectionName },
        extra: { type: "string", title: "Extra", _ref: crowd.collectionName },
        artists: { type: "array", title: "Artists", items: { type: "string", _ref: artists.collectionName } },
        note: { type: "string", title: "Note" },
        curator: { type: "string", title: "Curator", _ref: artists.collectionName, renderer: "popup" },
      },
    },
  });
  secret = await createTestBucket(server.db, {
    slug: `ref-secret-${stamp}`,
    collectionName: `ref-secret-${stamp}`,
    private: true,
    jsonSchema: { type: "object", properties: { title: { type: "string" }, artist: { type: "string", _ref: artists.collectionName } } },
  });
  mesdag = (
    await createContent(server.db, artists.id, { name: "Hendrik Willem Mesdag", portrait: "7a1f3e56-9a43-4c1e-8d0b-2f1b4c5d6e7f" }, null)
  ).contentId;
  toorop = (await createContent(server.db, artists.id, { name: "Charley Toorop" }, null)).contentId;
  // Mesdag is published, Toorop a draft: the fields say which (issue 31).
  await publishDocument(server.db, TEST_PUBLISHER, { bucket: artists, contentId: mesdag });
  for (let index = 0; index < LARGE; index += 1) {
    crowdIds.push((await createContent(server.db, crowd.id, { title: `Crowd member ${String(index).padStart(3, "0")}` }, null)).contentId);
  }
  ({ cookie } = await signedInUser(server.url, server.db, { permissions: ["user", "admin"] }));
  ({ cookie: limited } = await signedInUser(server.url, server.db, { buckets: [exhibitions.slug] }));
}, 120_000);
afterAll(() => server.stop());

const search = (params: Record<string, string>, withCookie: string | null = cookie) =>
  get(server.url, `/api/v1/buckets/any/content?${new URLSearchParams(params)}`, withCookie ?? undefined);

describe("the search API of the reference combobox", () => {
  it("answers the matching documents' contentId, title, first image and publication state, newest first", async () => {
    const response = await search({ collection: artists.collectionName, search: "mesd" });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual([
      {
        contentId: mesdag,
        title: "Hendrik Willem Mesdag",
        thumbnail: "/api/v1/media/image/7a1f3e56-9a43-4c1e-8d0b-2f1b4c5d6e7f",
        state: "published",
      },
    ]);
    const both = (await (await search({ collection: artists.collectionName, search: "" })).json()) as Array<{
      contentId: string;
      thumbnail: unknown;
      state: string;
    }>;
    expect(both.map((item) => item.contentId)).toEqual([toorop, mesdag]);
    expect(both[0]!.thumbnail).toBeNull();
    expect(both.map((item) => item.state)).toEqual(["draft", "published"]);
  });

  it("keeps the answer of a call without search: whole documents with contentId and _id", async () => {
    const documents = (await (await search({ collection: artists.collectionName })).json()) as Array<Record<string, unknown>>;
    expect(documents).toHaveLength(2);
    expect(documents[0]).toMatchObject({ contentId: toorop, _id: expect.any(String), name: "Charley Toorop" });
  });

  it("limits a page: 20 by default, at most 50, and reads a bad limit as the default", async () => {
    const page = async (params: Record<string, string>) =>
      ((await (await search({ collection: crowd.collectionName, search: "crowd", ...params })).json()) as unknown[]).length;
    expect(await page({})).toBe(20);
    expect(await page({ limit: "5" })).toBe(5);
    expect(await page({ limit: "100000" })).toBe(50);
    expect(await page({ limit: "0" })).toBe(1);
    expect(await page({ limit: "-3" })).toBe(20);
    expect(await page({ limit: "1e9" })).toBe(20);
    expect(await page({ limit: "ten" })).toBe(20);
  });

  it("takes hostile search text as text: LIKE wildcards match themselves, a very long text is cut, nothing fails", async () => {
    expect((await search({ collection: crowd.collectionName, search: "\u0000member 1\u0000" })).status).toBe(200);
    for (const text of ["%", "_", "\\", "'; DROP TABLE contents; --", "x".repeat(5_000), "Crowd member 1%"]) {
      const response = await search({ collection: crowd.collectionName, search: text });
      expect(response.status, JSON.stringify(text.slice(0, 20))).toBe(200);
      expect(await response.json()).toEqual([]);
    }
    const exact = (await (await search({ collection: crowd.collectionName, search: "member 123" })).json()) as Array<{ title: string }>;
    expect(exact.map((item) => item.title)).toEqual(["Crowd member 123"]);
  });

  it("refuses the signed out (401), hides buckets the user may not see (404) and needs a collection (400)", async () => {
    expect((await search({ collection: artists.collectionName, search: "a" }, null)).status).toBe(401);
    expect((await search({ collection: secret.collectionName, search: "a" })).status).toBe(404);
    expect((await search({ collection: artists.collectionName, search: "a" }, limited)).status).toBe(404);
    expect((await search({ collection: "no-such-collection", search: "a" })).status).toBe(404);
    expect((await search({ search: "a" })).status).toBe(400);
  });
});

const optionsOf = (html: string, name: string) => {
  const select = new RegExp(`<select[^>]*name="${name.replace(/[[\].]/g, "\\$&")}"[^>]*>([\\s\\S]*?)</select>`).exec(html)?.[1] ?? "";
  return [...select.matchAll(/<option[^>]*value="([^"]*)"([^>]*)>([^<]*)<\/option>/g)].map((match) => ({
    value: match[1]!,
    selected: /selected/.test(match[2]!),
    label: decode(match[3]!),
  }));
};

describe("the edit page's reference fields", () => {
  it("lists a small collection whole, and of a large one only the first page and the chosen document", async () => {
    const chosen = crowdIds[3]!;
    const saved = await createContent(
      server.db,
      exhibitions.id,
      { title: "Large", extra: chosen, artist: mesdag, artists: [toorop, mesdag] },
      null,
    );
    const { status, html } = await page(server.url, `/b/${exhibitions.slug}/${saved.contentId}/latest`, cookie);
    expect(status).toBe(200);
    // A document that exhibits do not get as it is says its state (an option holds no badge).
    expect(optionsOf(html, "artist").map((option) => option.label)).toEqual([
      "Pick an option",
      "Charley Toorop (Draft)",
      "Hendrik Willem Mesdag",
    ]);
    const extra = optionsOf(html, "extra");
    expect(extra.length).toBeLessThanOrEqual(22);
    expect(extra.find((option) => option.value === chosen)).toMatchObject({ label: "Crowd member 003 (Draft)", selected: true });
    // Without JavaScript the large collection has a search box and its submit button.
    expect(html).toContain(`name="__reference_query:extra"`);
    const button = /<button[^>]*name="__reference_search"[^>]*>/.exec(html)?.[0] ?? "";
    expect(button).toContain('value="extra"');
    // The reference list: each entry with its title, link and the thumbnail of its first image.
    expect(html).toContain(`href="/b/${artists.slug}/${toorop}/latest"`);
    expect(html).toContain(`src="/api/v1/media/image/7a1f3e56-9a43-4c1e-8d0b-2f1b4c5d6e7f"`);
    expect(html).toMatch(/<input type="hidden" name="artists\[1\]" value="[^"]+"/);
    // Each entry of the reference list with its state's badge.
    const entries = [...html.matchAll(/<div class="reference-entry" data-reference="([^"]+)">([\s\S]*?)<\/div>/g)].map((match) => [
      match[1],
      /publication-badge publication-(\w+)/.exec(match[2]!)?.[1],
    ]);
    expect(entries).toEqual([
      [toorop, "draft"],
      [mesdag, "published"],
    ]);
  });

  it("says the states in Dutch in the options", async () => {
    const saved = await createContent(server.db, exhibitions.id, { title: "Nederlands", artist: toorop }, null);
    const { cookie: dutch } = await signedInUser(server.url, server.db, { permissions: ["user", "admin"] });
    const switched = await postForm(server.url, "/session/locale", { locale: "nl", redirect_to: "/" }, dutch);
    const html = (await page(server.url, `/b/${exhibitions.slug}/${saved.contentId}/latest`, cookieFrom(switched) ?? dutch)).html;
    expect(optionsOf(html, "artist").find((option) => option.value === toorop)).toMatchObject({
      label: "Charley Toorop (Concept)",
      selected: true,
    });
  });

  it("searches a large collection without JavaScript: the results re-render with the input kept, nothing saved", async () => {
    const saved = await createContent(server.db, exhibitions.id, { title: "Searching" }, null);
    const response = await postForm(
      server.url,
      `/b/${exhibitions.slug}/${saved.contentId}/latest`,
      {
        __contentId: saved.contentId,
        __baseVersionId: saved.versionId,
        title: "Typed but not saved",
        extra: "",
        "__reference_query:extra": "member 217",
        __reference_search: "extra",
      },
      cookie,
    );
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(optionsOf(html, "extra")[1]).toMatchObject({ value: crowdIds[217], label: "Crowd member 217 (Draft)" });
    expect(html).toContain('value="Typed but not saved"');
    expect(html).toContain('value="member 217"');
    expect(html).toContain("1 result");
    expect((await getLatestVersion(server.db, exhibitions.id, saved.contentId))?.data).toEqual({ title: "Searching" });
    // Saving the chosen result stores it; the search texts are never part of the document.
    const save = await postForm(
      server.url,
      `/b/${exhibitions.slug}/${saved.contentId}/latest`,
      {
        __contentId: saved.contentId,
        __baseVersionId: saved.versionId,
        title: "Chosen",
        extra: crowdIds[217]!,
        "__reference_query:extra": "member 217",
      },
      cookie,
    );
    expect(save.status).toBe(302);
    expect((await getLatestVersion(server.db, exhibitions.id, saved.contentId))?.data).toEqual({ title: "Chosen", extra: crowdIds[217] });
  });

  it("a search button naming a field that is no reference is ignored and saves nothing", async () => {
    const saved = await createContent(server.db, exhibitions.id, { title: "Odd" }, null);
    const response = await postForm(
      server.url,
      `/b/${exhibitions.slug}/${saved.contentId}/latest`,
      {
        __contentId: saved.contentId,
        __baseVersionId: saved.versionId,
        title: "Odd 2",
        __reference_search: "title",
        "__reference_query:title": "x",
      },
      cookie,
    );
    // Not a reference field: no search, the post is an ordinary save.
    expect(response.status).toBe(302);
    expect((await getLatestVersion(server.db, exhibitions.id, saved.contentId))?.data).toMatchObject({ title: "Odd 2" });
  });
});

describe("where a document is used, and deleted references", () => {
  it("lists the referring documents in the delete confirmation, counts hidden ones, and leaves references dangling visibly", async () => {
    const target = await createContent(server.db, artists.id, { name: "Jozef Israëls" }, null);
    const one = await createContent(
      server.db,
      exhibitions.id,
      { title: "Show with select", artist: target.contentId, curator: target.contentId },
      null,
    );
    const two = await createContent(server.db, exhibitions.id, { title: "Show with list", artists: [toorop, target.contentId] }, null);
    // The id in a text, not in a reference field, is no use.
    await createContent(server.db, exhibitions.id, { title: "Mentions it", note: target.contentId }, null);
    await createContent(server.db, secret.id, { title: "Hidden show", artist: target.contentId }, null);

    const confirm = await page(server.url, `/b/${artists.slug}?delete=${target.contentId}`, cookie);
    expect(confirm.status).toBe(200);
    const text = decode(confirm.html);
    expect(text).toContain("This document is used in 3 other documents:");
    expect(confirm.html).toContain(`href="/b/${exhibitions.slug}/${one.contentId}/latest"`);
    expect(confirm.html).toContain(`href="/b/${exhibitions.slug}/${two.contentId}/latest"`);
    expect(text).toContain("Show with select");
    expect(text).not.toContain("Mentions it");
    expect(text).not.toContain("Hidden show");
    expect(text).toContain("…and 1 document in a bucket you cannot see.");
    const alone = await createContent(server.db, artists.id, { name: "Nobody's" }, null);
    const unused = await page(server.url, `/b/${artists.slug}?delete=${alone.contentId}`, cookie);
    expect(decode(unused.html)).toContain("No other document refers to this one.");

    await deleteContent(server.db, artists.id, target.contentId, target.versionId);
    const edit = await page(server.url, `/b/${exhibitions.slug}/${one.contentId}/latest`, cookie);
    expect(edit.status).toBe(200);
    expect(edit.html).toContain("This document was deleted");
    expect(optionsOf(edit.html, "artist").find((option) => option.value === target.contentId)).toMatchObject({ selected: true });
    // The popup sub-form's field too, its value kept.
    // Without JavaScript it is the reference select, the deleted document chosen and said so.
    expect(optionsOf(edit.html, "curator").find((option) => option.value === target.contentId)).toMatchObject({ selected: true });
    expect(edit.html).toMatch(/data-field="curator"[\s\S]*?<p class="field-note reference-deleted">This document was deleted<\/p>/);
    const list = await page(server.url, `/b/${exhibitions.slug}/${two.contentId}/latest`, cookie);
    expect(list.status).toBe(200);
    expect(list.html).toContain("This document was deleted");
    expect(list.html).toContain(`name="artists[1]" value="${target.contentId}"`);
    // In Dutch too.
    const dutch = await page(server.url, `/b/${exhibitions.slug}/${one.contentId}/latest`, cookie, { "Accept-Language": "nl" });
    expect(dutch.html).toContain("Dit document is verwijderd");
  });
});

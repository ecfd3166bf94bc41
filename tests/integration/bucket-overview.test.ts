import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createContent, getLatestVersion } from "@server/content/store";
import { clientState, createTestBucket, decode, page, signedInUser } from "@tests/support/fixtures";
import { cookieFrom, get, postForm, postJson } from "@tests/support/http";
import { startTestServer, type TestServer } from "@tests/support/server";

/*
 * A bucket's overview (spec §2 /b/{bucket}) without JavaScript: rows newest first and their titles (title-key,
 * else the first plain string property), list and grid view, paging and the page remembered per bucket and in
 * the client state, search over values, and delete through the confirm dialog (cancel, stale 409, bad 400).
 */

let server: TestServer;
let member: string;

beforeAll(async () => {
  server = await startTestServer();
  member = (await signedInUser(server.url, server.db)).cookie;
});
afterAll(() => server.stop());

/** The texts of the title links of the overview (list or grid). */
function overviewTitles(html: string): string[] {
  return [...html.matchAll(/<a[^>]*href="\/b\/[^/"]+\/[0-9a-f-]{36}\/latest"[^>]*>([^<]*)<\/a>/g)].map((match) => decode(match[1]!));
}

describe("the overview (spec §2 /b/{bucket})", () => {
  it("titles rows by the schema's title-key, else by the first plain string property, a translated one in the first locale", async () => {
    const keyed = await createTestBucket(server.db, {
      jsonSchema: { type: "object", "title-key": "name", properties: { code: { type: "string" }, name: { type: "string" } } },
    });
    await createContent(server.db, keyed.id, { code: "X-1", name: "Mesdag" }, null);
    expect(overviewTitles((await page(server.url, `/b/${keyed.slug}`, member)).html)).toEqual(["Mesdag"]);

    const firstString = await createTestBucket(server.db, {
      jsonSchema: {
        type: "object",
        properties: {
          opens: { type: "string", format: "date" },
          count: { type: "integer" },
          role: { type: "string" },
          name: { type: "string" },
        },
      },
    });
    await createContent(server.db, firstString.id, { opens: "2026-01-01", count: 3, role: "Painter", name: "Breitner" }, null);
    expect(overviewTitles((await page(server.url, `/b/${firstString.slug}`, member)).html)).toEqual(["Painter"]);

    const translated = await createTestBucket(server.db, {
      locales: ["nl", "en"],
      jsonSchema: { type: "object", properties: { title: { type: "string", translate: true } } },
    });
    await createContent(server.db, translated.id, { title: { en: "Sea", nl: "Zee" } }, null);
    expect(overviewTitles((await page(server.url, `/b/${translated.slug}`, member)).html)).toEqual(["Zee"]);
  });

  it("shows a grid after the index view is set to grid through /session/index-view, and the list again after list", async () => {
    const bucket = await createTestBucket(server.db, { jsonSchema: { type: "object", properties: { name: { type: "string" } } } });
    await createContent(server.db, bucket.id, { name: "Gridded" }, null);
    let { cookie } = await signedInUser(server.url, server.db);
    const listed = await page(server.url, `/b/${bucket.slug}`, cookie);
    expect(listed.html).toContain('<table class="content-table">');
    expect(listed.html).not.toContain('class="content-grid"');

    const grid = await postForm(server.url, "/session/index-view", { view: "grid", redirect_to: `/b/${bucket.slug}` }, cookie);
    cookie = cookieFrom(grid) ?? cookie;
    const gridded = await page(server.url, `/b/${bucket.slug}`, cookie);
    expect(gridded.html).toContain('<ul class="content-grid">');
    expect(gridded.html).not.toContain('<table class="content-table">');
    expect(gridded.html).toMatch(/<button[^>]*value="grid"[^>]*aria-pressed="true"/);
    expect(overviewTitles(gridded.html)).toEqual(["Gridded"]);

    const list = await postJson(server.url, "/session/index-view", { view: "list" }, cookie);
    cookie = cookieFrom(list) ?? cookie;
    expect((await page(server.url, `/b/${bucket.slug}`, cookie)).html).toContain('<table class="content-table">');
  });

  it("remembers the last visited page per bucket and serves it as lastVisitedPageNumber; a search starts at page 1", async () => {
    const schema = { type: "object", properties: { name: { type: "string" } } };
    const first = await createTestBucket(server.db, { jsonSchema: schema });
    const second = await createTestBucket(server.db, { jsonSchema: schema });
    for (let n = 1; n <= 25; n++) {
      await createContent(server.db, first.id, { name: `First ${n}` }, null);
      await createContent(server.db, second.id, { name: `Second ${n}` }, null);
    }
    let { cookie } = await signedInUser(server.url, server.db);
    expect((await clientState((await page(server.url, "/", cookie)).html)).lastVisitedPageNumber).toBe(1);

    const paged = await page(server.url, `/b/${first.slug}?page=2`, cookie);
    cookie = cookieFrom(paged.response) ?? cookie;
    expect(paged.html).toContain("Page 2 of 2");
    expect((await clientState((await page(server.url, "/", cookie)).html)).lastVisitedPageNumber).toBe(2);
    expect((await page(server.url, `/b/${first.slug}`, cookie)).html).toContain("Page 2 of 2");
    expect((await page(server.url, `/b/${first.slug}?page=nonsense`, cookie)).html).toContain("Page 2 of 2");

    // Another bucket does not open on the first bucket's page.
    const other = await page(server.url, `/b/${second.slug}`, cookie);
    expect(other.html).toContain("Page 1 of 2");
    // The newest is on page 1 (documents saved within the same clock tick may swap places, so not its position).
    expect(overviewTitles(other.html)).toContain("Second 25");

    // A search starts at its first page, whatever was remembered.
    const searched = await page(server.url, `/b/${first.slug}?q=First%201`, cookie);
    expect(searched.html).toContain("Page 1");
    expect(overviewTitles(searched.html)).toContain("First 19");
  });

  it("finds documents by the text of any field, and says so when nothing matches", async () => {
    const bucket = await createTestBucket(server.db, {
      jsonSchema: { type: "object", properties: { name: { type: "string" }, place: { type: "string" } } },
    });
    await createContent(server.db, bucket.id, { name: "Mesdag", place: "Scheveningen" }, null);
    await createContent(server.db, bucket.id, { name: "Breitner", place: "Amsterdam" }, null);
    expect(overviewTitles((await page(server.url, `/b/${bucket.slug}?q=scheveningen`, member)).html)).toEqual(["Mesdag"]);
    expect(overviewTitles((await page(server.url, `/b/${bucket.slug}?q=50%25`, member)).html)).toEqual([]); // % is literal
    const none = await page(server.url, `/b/${bucket.slug}?q=Rembrandt`, member);
    expect(overviewTitles(none.html)).toEqual([]);
    expect(none.html).toContain("No documents match your search.");
  });

  // The search looks in the document's values (document_search_text, migration 008), not its JSON text.
  it("does not match property names or JSON punctuation, only values", async () => {
    const bucket = await createTestBucket(server.db, {
      jsonSchema: { type: "object", properties: { name: { type: "string" }, place: { type: "string" } } },
    });
    await createContent(server.db, bucket.id, { name: "Mesdag", place: "Scheveningen" }, null);
    for (const query of ["place", "name", '":']) {
      expect(overviewTitles((await page(server.url, `/b/${bucket.slug}?q=${encodeURIComponent(query)}`, member)).html), query).toEqual([]);
    }
  });

  it("offers a cancel in the confirm dialog that closes it, refuses a stale delete with 409 and a message, and a bad request with 400", async () => {
    const bucket = await createTestBucket(server.db, { jsonSchema: { type: "object", properties: { name: { type: "string" } } } });
    const doc = await createContent(server.db, bucket.id, { name: "Keep me" }, null);
    const dialog = await page(server.url, `/b/${bucket.slug}?page=1&delete=${doc.contentId}`, member);
    expect(dialog.html).toContain('role="alertdialog"');
    expect(dialog.html).toContain("Delete “Keep me” and all its versions?");
    const cancel = /<div class="modal-actions"><a[^>]*href="([^"]*)"[^>]*>Cancel</.exec(dialog.html)?.[1];
    expect(decode(cancel!)).toBe(`/b/${bucket.slug}?page=1`);
    expect((await page(server.url, decode(cancel!), member)).html).not.toContain('role="alertdialog"');

    // Someone saves the document after the dialog opened: the delete from the older version is refused.
    const shownVersion = /name="versionId" value="([^"]+)"/.exec(dialog.html)![1]!;
    await postJson(
      server.url,
      `/api/v1/buckets/${bucket.slug}/save`,
      { content: { contentId: doc.contentId, _id: doc.versionId, name: "Edited" } },
      member,
    );
    const stale = await postForm(
      server.url,
      `/b/${bucket.slug}?index`,
      { intent: "delete", contentId: doc.contentId, versionId: shownVersion },
      member,
    );
    expect(stale.status).toBe(409);
    expect(await stale.text()).toContain("it was not deleted");
    expect(await getLatestVersion(server.db, bucket.id, doc.contentId)).not.toBeNull();

    const bad = await postForm(
      server.url,
      `/b/${bucket.slug}?index`,
      { intent: "drop", contentId: doc.contentId, versionId: shownVersion },
      member,
    );
    expect(bad.status).toBe(400);
    expect(await getLatestVersion(server.db, bucket.id, doc.contentId)).not.toBeNull();
  });

  it("pages newest first, remembers the last page, searches, and deletes after confirming", async () => {
    const list = await createTestBucket(server.db, { jsonSchema: { type: "object", properties: { name: { type: "string" } } } });
    for (let index = 1; index <= 23; index++) {
      const response = await postForm(
        server.url,
        `/b/${list.slug}/new`,
        { __contentId: "", __baseVersionId: "", name: `Item ${index}` },
        member,
      );
      expect(response.status).toBe(302);
    }
    const first = await (await get(server.url, `/b/${list.slug}`, member)).text();
    expect(first).toContain("Item 23");
    expect(first).not.toContain(">Item 3<");
    expect(first).toContain("Page 1 of 2");
    const second = await get(server.url, `/b/${list.slug}?page=2`, member);
    const secondCookie = second.headers.get("set-cookie")!.split(";")[0]!;
    expect(await second.text()).toContain(">Item 3<");
    const remembered = await (await get(server.url, `/b/${list.slug}`, secondCookie)).text();
    expect(remembered).toContain("Page 2 of 2");
    const search = await (await get(server.url, `/b/${list.slug}?q=Item%2017`, member)).text();
    expect(search).toContain("Item 17");
    expect(search).not.toContain("Item 16");

    const target = /href="\/b\/[^/]+\/([0-9a-f-]{36})\/latest"[^>]*>Item 23</.exec(first)![1]!;
    const dialog = await (await get(server.url, `/b/${list.slug}?delete=${target}`, member)).text();
    expect(dialog).toContain("Delete document");
    const versionId = /name="versionId" value="([^"]+)"/.exec(dialog)![1]!;
    const deleted = await postForm(server.url, `/b/${list.slug}?index`, { intent: "delete", contentId: target, versionId }, member);
    expect(deleted.status).toBe(302);
    expect(await (await get(server.url, `/b/${list.slug}`, member)).text()).not.toContain("Item 23");
  });
});

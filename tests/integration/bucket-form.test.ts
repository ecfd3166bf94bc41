import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Bucket } from "../../server/content/buckets";
import { createTestBucket } from "../support/fixtures";
import { inputValue } from "../support/http";
import { startTestServer, type TestServer } from "../support/server";
import { createTestUser, get, postForm, signIn } from "../support/http";

let server: TestServer;
let cookie: string;
let bucket: Bucket;
let singleton: Bucket;

const schema = {
  type: "object",
  required: ["title", "rooms"],
  properties: {
    title: { type: "string", title: "Title", translate: true, maxLength: 20 },
    year: { type: "integer", title: "Year", minimum: 1000 },
    price: { type: "number", title: "Price" },
    featured: { type: "boolean", title: "Featured" },
    opens: { type: "string", format: "date", title: "Opens" },
    at: { type: "string", format: "time", title: "At" },
    colour: { type: "string", format: "color", title: "Colour" },
    room: { type: "string", enum: ["East", "West"], title: "Room" },
    tags: { type: "array", items: { type: "string" }, renderer: "tags", title: "Tags" },
    rooms: { type: "array", minItems: 2, sortable: true, items: { type: "object", properties: { name: { type: "string" } } }, title: "Rooms" },
    banner: { type: "object", "x-disableable-bool": true, title: "Banner" },
    texts: { type: "array", renderer: "texts", title: "Texts" },
    odd: { type: "string", renderer: "nonsense", title: "Odd" },
  },
};
// "odd" has a renderer nobody knows but a type: it still renders as text. A property with no kind at all:
const unknownKind = { type: "object", properties: { mystery: { title: "Mystery" } } };

const valid = {
  "__contentId": "",
  "__baseVersionId": "",
  "title.nl": "Wad",
  "title.en": "Mudflats",
  year: "1911",
  price: "12,5",
  featured: "on",
  opens: "2026-09-12",
  at: "10:00",
  colour: "#336699",
  room: "East",
  "tags[0]": "sea",
  "rooms[0].name": "A",
  "rooms[1].name": "B",
  "banner.value": "Welcome",
};

beforeAll(async () => {
  server = await startTestServer();
  bucket = await createTestBucket(server.db, { slug: "exhibitions", jsonSchema: schema });
  singleton = await createTestBucket(server.db, { slug: "settings", singleton: true, jsonSchema: { type: "object", properties: { welcome: { type: "string" } } } });
  const user = await createTestUser(server.db, { permissions: ["user", "admin"] });
  cookie = await signIn(server.url, user.email, user.password);
});
afterAll(() => server?.stop());

async function createDocument(fields: Record<string, string> = valid) {
  const response = await postForm(server.url, `/b/${bucket.slug}/new`, fields, cookie);
  expect(response.status).toBe(302);
  const location = response.headers.get("location")!;
  expect(location).toMatch(/^\/b\/exhibitions\/[0-9a-f-]{36}\/latest\?saved$/);
  return location.replace("?saved", "");
}

describe("the generic form without JavaScript", () => {
  it("renders a real form control for every field kind, with the initial rows of each list", async () => {
    const html = await (await get(server.url, `/b/${bucket.slug}/new`, cookie)).text();
    for (const name of ["title.nl", "title.en", "year", "price", "featured", "opens", "at", "colour", "tags[0]", "rooms[0].name", "rooms[1].name", "banner.value", "banner.disabled", "odd"]) {
      expect(html, name).toContain(`name="${name}"`);
    }
    expect(html).toContain('<select');
    expect(html).toContain("Pick an option");
    expect(inputValue(html, "at")).toBe("00:00:00");
    expect(inputValue(html, "colour")).toBe("#000000");
    expect(html).toContain("+ New Tag");
    expect(html).toContain("Inactief");
    expect(html).toMatch(/0(<!-- -->)?\/(<!-- -->)?20/);
  });

  it("re-renders invalid input with messages under the fields and the input kept (400)", async () => {
    const response = await postForm(server.url, `/b/${bucket.slug}/new`, { ...valid, "title.nl": "", year: "12", "rooms[1].name": "kept" }, cookie);
    expect(response.status).toBe(400);
    const html = await response.text();
    expect(html).toContain("This field is required");
    expect(html).toContain("This value should be at least 1000");
    expect(inputValue(html, "title.en")).toBe("Mudflats");
    expect(inputValue(html, "rooms[1].name")).toBe("kept");
  });

  it("applies list intents (add, remove, reorder) in the action and re-renders", async () => {
    const insert = await postForm(server.url, `/b/${bucket.slug}/new`, { ...valid, __intent__: JSON.stringify({ type: "insert", payload: { name: "rooms" } }) }, cookie);
    expect(insert.status).toBe(200);
    expect(await insert.text()).toContain('name="rooms[2].name"');
    const reorder = await postForm(server.url, `/b/${bucket.slug}/new`, { ...valid, __intent__: JSON.stringify({ type: "reorder", payload: { name: "rooms", from: 0, to: 1 } }) }, cookie);
    const reordered = await reorder.text();
    expect(inputValue(reordered, "rooms[0].name")).toBe("B");
    expect(inputValue(reordered, "rooms[1].name")).toBe("A");
    const remove = await postForm(server.url, `/b/${bucket.slug}/new`, { ...valid, __intent__: JSON.stringify({ type: "remove", payload: { name: "tags", index: 0 } }) }, cookie);
    expect(await remove.text()).not.toContain('name="tags[0]"');
  });

  it("saves typed values, then shows them on the latest version", async () => {
    const path = await createDocument();
    const html = await (await get(server.url, `${path}?saved`, cookie)).text();
    expect(html).toContain("Saved");
    expect(inputValue(html, "title.nl")).toBe("Wad");
    expect(inputValue(html, "price")).toBe("12.5");
    const contentId = path.split("/")[3]!;
    const api = await (await get(server.url, `/api/v1/buckets/exhibitions/content/${contentId}/latest`, cookie)).json();
    expect(api).toMatchObject({ year: 1911, price: 12.5, featured: true, at: "10:00:00", tags: ["sea"], banner: { value: "Welcome", disabled: false } });
  });

  it("refuses a save from a stale version with 409, keeping the input, and lets the user save on top", async () => {
    const path = await createDocument();
    const page = await (await get(server.url, path, cookie)).text();
    const base = { ...valid, __contentId: inputValue(page, "__contentId")!, __baseVersionId: inputValue(page, "__baseVersionId")! };
    expect((await postForm(server.url, path, { ...base, "title.nl": "First" }, cookie)).status).toBe(302);
    const conflict = await postForm(server.url, path, { ...base, "title.nl": "Second" }, cookie);
    expect(conflict.status).toBe(409);
    const html = await conflict.text();
    expect(html).toContain("Someone else saved this document");
    expect(inputValue(html, "title.nl")).toBe("Second");
    const retried = await postForm(server.url, path, { ...base, __baseVersionId: inputValue(html, "__baseVersionId")!, "title.nl": "Second" }, cookie);
    expect(retried.status).toBe(302);
  });

  it("opens an older version with a link to the latest", async () => {
    const path = await createDocument();
    const first = await (await get(server.url, path, cookie)).text();
    const contentId = inputValue(first, "__contentId")!;
    const firstVersion = inputValue(first, "__baseVersionId")!;
    await postForm(server.url, path, { ...valid, __contentId: contentId, __baseVersionId: firstVersion, "title.nl": "Newer" }, cookie);
    const old = await (await get(server.url, `/b/exhibitions/${contentId}/${firstVersion}`, cookie)).text();
    expect(inputValue(old, "title.nl")).toBe("Wad");
    expect(old).toContain("older version");
    expect((await get(server.url, `/b/exhibitions/${contentId}/00000000-0000-0000-0000-000000000000`, cookie)).status).toBe(404);
  });

  it("duplicates into a new document", async () => {
    const path = await createDocument();
    const contentId = path.split("/")[3]!;
    const html = await (await get(server.url, `/b/exhibitions/duplicate/${contentId}/latest`, cookie)).text();
    expect(inputValue(html, "title.nl")).toBe("Wad");
    expect(inputValue(html, "__contentId")).toBe("");
    const copy = await postForm(server.url, `/b/exhibitions/duplicate/${contentId}/latest`, valid, cookie);
    expect(copy.status).toBe(302);
    expect(copy.headers.get("location")).not.toContain(contentId);
  });

  it("keeps exactly one document in a singleton bucket", async () => {
    const first = await postForm(server.url, `/b/${singleton.slug}/edit`, { __contentId: "", __baseVersionId: "", welcome: "Hi" }, cookie);
    expect(first.headers.get("location")).toBe(`/b/${singleton.slug}/edit?saved`);
    const again = await postForm(server.url, `/b/${singleton.slug}/edit`, { __contentId: "", __baseVersionId: "", welcome: "Again" }, cookie);
    expect(again.status).toBe(409);
    const html = await (await get(server.url, `/b/${singleton.slug}/edit`, cookie)).text();
    expect(inputValue(html, "welcome")).toBe("Hi");
    expect((await get(server.url, `/b/${singleton.slug}`, cookie)).headers.get("location")).toBe(`/b/${singleton.slug}/edit`);
  });

  it("shows schema errors to the admin instead of crashing, and names unknown field kinds", async () => {
    const broken = await createTestBucket(server.db, { jsonSchema: { type: "object", properties: { n: { type: "integer", step: 0.5 } } } });
    const html = await (await get(server.url, `/b/${broken.slug}/new`, cookie)).text();
    expect(html).toContain("schema error: property with type &#x27;integer&#x27; can&#x27;t have a step value smaller than 1");
    const odd = await createTestBucket(server.db, { jsonSchema: unknownKind });
    expect(await (await get(server.url, `/b/${odd.slug}/new`, cookie)).text()).toContain("No component found to render mystery");
  });

  it("writes messages in the configured default locale", async () => {
    const dutch = await startTestServer({ env: { DEFAULT_LOCALE: "nl" } });
    try {
      const nlBucket = await createTestBucket(dutch.db, { jsonSchema: { type: "object", required: ["t"], properties: { t: { type: "string" } } } });
      const user = await createTestUser(dutch.db);
      const dutchCookie = await signIn(dutch.url, user.email, user.password);
      const response = await postForm(dutch.url, `/b/${nlBucket.slug}/new`, { __contentId: "", __baseVersionId: "" }, dutchCookie);
      expect(await response.text()).toContain("Dit is een verplicht veld");
    } finally {
      await dutch.stop();
    }
  });
});

describe("the overview", () => {
  it("pages newest first, remembers the last page, searches, and deletes after confirming", async () => {
    const list = await createTestBucket(server.db, { jsonSchema: { type: "object", properties: { name: { type: "string" } } } });
    for (let index = 1; index <= 23; index++) {
      const response = await postForm(server.url, `/b/${list.slug}/new`, { __contentId: "", __baseVersionId: "", name: `Item ${index}` }, cookie);
      expect(response.status).toBe(302);
    }
    const first = await (await get(server.url, `/b/${list.slug}`, cookie)).text();
    expect(first).toContain("Item 23");
    expect(first).not.toContain(">Item 3<");
    expect(first).toContain("Page 1 of 2");
    const second = await get(server.url, `/b/${list.slug}?page=2`, cookie);
    const secondCookie = second.headers.get("set-cookie")!.split(";")[0]!;
    expect(await second.text()).toContain(">Item 3<");
    const remembered = await (await get(server.url, `/b/${list.slug}`, secondCookie)).text();
    expect(remembered).toContain("Page 2 of 2");
    const search = await (await get(server.url, `/b/${list.slug}?q=Item%2017`, cookie)).text();
    expect(search).toContain("Item 17");
    expect(search).not.toContain("Item 16");

    const target = /href="\/b\/[^/]+\/([0-9a-f-]{36})\/latest"[^>]*>Item 23</.exec(first)![1]!;
    const dialog = await (await get(server.url, `/b/${list.slug}?delete=${target}`, cookie)).text();
    expect(dialog).toContain("Delete document");
    const versionId = /name="versionId" value="([^"]+)"/.exec(dialog)![1]!;
    const deleted = await postForm(server.url, `/b/${list.slug}?index`, { intent: "delete", contentId: target, versionId }, cookie);
    expect(deleted.status).toBe(302);
    expect(await (await get(server.url, `/b/${list.slug}`, cookie)).text()).not.toContain("Item 23");
  });
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Bucket } from "@server/content/buckets";
import { createContent, getLatestVersion } from "@server/content/store";
import { createTestBucket, decode, page, signedInUser } from "@tests/support/fixtures";
import { createTestUser, get, inputValue, postForm, signIn } from "@tests/support/http";
import { startTestServer, type TestServer } from "@tests/support/server";

/*
 * The generic bucket form without JavaScript (spec §2, §5): every field kind, invalid input kept with messages,
 * list intents, versions, duplicate, singletons; the edit routes' 404s; 100 parallel saves; and who may change
 * the ids of translated text arrays (spec §6).
 */

let server: TestServer;
/** An admin's session. */
let cookie: string;
/** A plain user's session. */
let member: string;
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
    rooms: {
      type: "array",
      minItems: 2,
      sortable: true,
      items: { type: "object", properties: { name: { type: "string" } } },
      title: "Rooms",
    },
    banner: { type: "object", "x-disableable-bool": true, title: "Banner" },
    texts: { type: "array", renderer: "texts", title: "Texts" },
    odd: { type: "string", renderer: "nonsense", title: "Odd" },
  },
};
// "odd" has a renderer nobody knows: its type does not make it a text field, the page says it cannot render it
// (only for that property). A property with no kind at all:
const unknownKind = { type: "object", properties: { mystery: { title: "Mystery" } } };

const valid = {
  __contentId: "",
  __baseVersionId: "",
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
  singleton = await createTestBucket(server.db, {
    slug: "settings",
    singleton: true,
    jsonSchema: { type: "object", properties: { welcome: { type: "string" } } },
  });
  const user = await createTestUser(server.db, { permissions: ["user", "admin"] });
  cookie = await signIn(server.url, user.email, user.password);
  member = (await signedInUser(server.url, server.db)).cookie;
});
afterAll(() => server.stop());

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
    // A tag list starts with no chips: one input for a new tag.
    for (const name of [
      "title.nl",
      "title.en",
      "year",
      "price",
      "featured",
      "opens",
      "at",
      "__tagDraft.tags",
      "rooms[0].name",
      "rooms[1].name",
      "banner.value",
      "banner.disabled",
    ]) {
      expect(html, name).toContain(`name="${name}"`);
    }
    expect(html).not.toContain('name="tags[0]"');
    // The unknown renderer: the message naming the property, no control for it, the rest of the form as usual.
    expect(html).toContain("No component found to render odd");
    expect(html).not.toContain('name="odd"');
    expect(html).toContain("<select");
    expect(html).toContain("Pick an option");
    expect(inputValue(html, "at")).toBe("00:00:00");
    // A colour that is not required has no value (and no picker, which always holds one) until one is chosen.
    expect(html).not.toContain('name="colour"');
    expect(html).toContain("No colour");
    expect(html).toContain("Choose colour");
    expect(html).toContain("+ New Tag");
    expect(html).toContain("Inactive"); // the English interface's words for the spec's Dutch 'Inactief'
    expect(html).toMatch(/0(<!-- -->)?\/(<!-- -->)?20/);
  });

  it("marks each field with its kind, by which the browser fetches the on-demand kinds' code before it hydrates", async () => {
    const html = await (await get(server.url, `/b/${bucket.slug}/new`, cookie)).text();
    const kindOf = (name: string) => new RegExp(`data-field="${name.replace(/[[\].]/g, "\\$&")}" data-kind="([^"]+)"`).exec(html)?.[1];
    expect(kindOf("tags")).toBe("tags");
    expect(kindOf("year")).toBe("integer");
    expect(kindOf("rooms")).toBe("array");
    expect(kindOf("colour")).toBe("color");
  });

  it("re-renders invalid input with messages under the fields and the input kept (400)", async () => {
    const response = await postForm(
      server.url,
      `/b/${bucket.slug}/new`,
      { ...valid, "title.nl": "", year: "12", "rooms[1].name": "kept" },
      cookie,
    );
    expect(response.status).toBe(400);
    const html = await response.text();
    expect(html).toContain("This field is required");
    expect(html).toContain("This value should be at least 1000");
    expect(inputValue(html, "title.en")).toBe("Mudflats");
    expect(inputValue(html, "rooms[1].name")).toBe("kept");
  });

  it("applies list intents (add, remove, reorder) in the action and re-renders", async () => {
    const insert = await postForm(
      server.url,
      `/b/${bucket.slug}/new`,
      { ...valid, __intent__: JSON.stringify({ type: "insert", payload: { name: "rooms" } }) },
      cookie,
    );
    expect(insert.status).toBe(200);
    expect(await insert.text()).toContain('name="rooms[2].name"');
    const reorder = await postForm(
      server.url,
      `/b/${bucket.slug}/new`,
      { ...valid, __intent__: JSON.stringify({ type: "reorder", payload: { name: "rooms", from: 0, to: 1 } }) },
      cookie,
    );
    const reordered = await reorder.text();
    expect(inputValue(reordered, "rooms[0].name")).toBe("B");
    expect(inputValue(reordered, "rooms[1].name")).toBe("A");
    const remove = await postForm(
      server.url,
      `/b/${bucket.slug}/new`,
      { ...valid, __intent__: JSON.stringify({ type: "remove", payload: { name: "tags", index: 0 } }) },
      cookie,
    );
    expect(await remove.text()).not.toContain('name="tags[0]"');
  });

  it("adds a typed tag on '+ New Tag' without saving, and keeps a typed tag on save", async () => {
    const before = (await server.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM contents WHERE bucket_id = $1`, [bucket.id]))
      .rows[0]!.n;
    const added = await postForm(
      server.url,
      `/b/${bucket.slug}/new`,
      { ...valid, "__tagDraft.tags": "wind, rain", __newTag: "tags" },
      cookie,
    );
    expect(added.status).toBe(200);
    const html = await added.text();
    expect(inputValue(html, "tags[0]")).toBe("sea");
    expect(inputValue(html, "tags[1]")).toBe("wind");
    expect(inputValue(html, "tags[2]")).toBe("rain");
    expect(inputValue(html, "__tagDraft.tags")).toBe("");
    expect(inputValue(html, "title.en")).toBe("Mudflats");
    expect(
      (await server.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM contents WHERE bucket_id = $1`, [bucket.id])).rows[0]!.n,
    ).toBe(before);
    const path = await createDocument({ ...valid, "__tagDraft.tags": "wind" });
    const contentId = path.split("/")[3]!;
    const api = (await (await get(server.url, `/api/v1/buckets/exhibitions/content/${contentId}/latest`, cookie)).json()) as {
      tags: string[];
    };
    expect(api.tags).toEqual(["sea", "wind"]);
  });

  it("saves typed values, then shows them on the latest version", async () => {
    const path = await createDocument();
    const html = await (await get(server.url, `${path}?saved`, cookie)).text();
    expect(html).toContain("Saved");
    expect(inputValue(html, "title.nl")).toBe("Wad");
    expect(inputValue(html, "price")).toBe("12.5");
    const contentId = path.split("/")[3]!;
    const api = await (await get(server.url, `/api/v1/buckets/exhibitions/content/${contentId}/latest`, cookie)).json();
    expect(api).toMatchObject({
      year: 1911,
      price: 12.5,
      featured: true,
      at: "10:00:00",
      tags: ["sea"],
      banner: { value: "Welcome", disabled: false },
    });
  });

  it("refuses a stale save that changed a field the newer version changed too with 409, keeping the input, and lets the user save on top", async () => {
    const path = await createDocument();
    const page = await (await get(server.url, path, cookie)).text();
    const base = { ...valid, __contentId: inputValue(page, "__contentId")!, __baseVersionId: inputValue(page, "__baseVersionId")! };
    expect((await postForm(server.url, path, { ...base, "title.nl": "First" }, cookie)).status).toBe(302);
    const conflict = await postForm(server.url, path, { ...base, "title.nl": "Second" }, cookie);
    expect(conflict.status).toBe(409);
    const html = await conflict.text();
    // Both changed the Dutch title: the merge (tests/integration/merge.test.ts) asks which to keep.
    expect(html).toContain("saved this document while you were editing it");
    expect(inputValue(html, "title.nl")).toBe("Second");
    const retried = await postForm(
      server.url,
      path,
      { ...base, __baseVersionId: inputValue(html, "__baseVersionId")!, "title.nl": "Second" },
      cookie,
    );
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
    // The copy's title says it is one, in each locale's word (docs/screens.md).
    expect(inputValue(html, "title.nl")).toBe("Wad (kopie)");
    expect(inputValue(html, "__contentId")).toBe("");
    const copy = await postForm(server.url, `/b/exhibitions/duplicate/${contentId}/latest`, valid, cookie);
    expect(copy.status).toBe(302);
    expect(copy.headers.get("location")).not.toContain(contentId);
  });

  it("keeps exactly one document in a singleton bucket", async () => {
    const first = await postForm(server.url, `/b/${singleton.slug}/edit`, { __contentId: "", __baseVersionId: "", welcome: "Hi" }, cookie);
    expect(first.headers.get("location")).toBe(`/b/${singleton.slug}/edit?saved`);
    const again = await postForm(
      server.url,
      `/b/${singleton.slug}/edit`,
      { __contentId: "", __baseVersionId: "", welcome: "Again" },
      cookie,
    );
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

  it("writes messages in the interface language, which is the configured default locale unless the editor chose another", async () => {
    const dutch = await startTestServer({ env: { DEFAULT_LOCALE: "nl" } });
    try {
      const nlBucket = await createTestBucket(dutch.db, {
        jsonSchema: { type: "object", required: ["t"], properties: { t: { type: "string" } } },
      });
      const user = await createTestUser(dutch.db);
      const dutchCookie = await signIn(dutch.url, user.email, user.password);
      const response = await postForm(dutch.url, `/b/${nlBucket.slug}/new`, { __contentId: "", __baseVersionId: "" }, dutchCookie);
      const html = await response.text();
      expect(html).toContain("Dit is een verplicht veld");
      expect(html).toContain('lang="nl"');
      // A browser that asks for English gets an English page: its labels and its messages (spec §5 holds for
      // whoever did not choose another language).
      const english = await postForm(dutch.url, `/b/${nlBucket.slug}/new`, { __contentId: "", __baseVersionId: "" }, dutchCookie, {
        "Accept-Language": "en-US,en;q=0.9",
      });
      const englishHtml = await english.text();
      expect(englishHtml).toContain("This field is required");
      expect(englishHtml).toContain("Some fields need attention before this can be saved.");
      expect(englishHtml).not.toContain("Dit is een verplicht veld");
      expect(englishHtml).toContain('lang="en"');
      // The JSON save (the bucket-form modal's) answers in the same language.
      const json = await fetch(`${dutch.url}/api/v1/buckets/${nlBucket.slug}/save`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Cookie: dutchCookie, Origin: dutch.url, "Accept-Language": "en" },
        body: JSON.stringify({ content: {} }),
      });
      expect(((await json.json()) as { errors: Record<string, string[]> }).errors).toEqual({ t: ["This field is required"] });
    } finally {
      await dutch.stop();
    }
  });
});

describe("edit routes", () => {
  it("answer 404 to /b/{bucket}/edit for a bucket that is not a singleton", async () => {
    const bucket = await createTestBucket(server.db);
    expect((await page(server.url, `/b/${bucket.slug}/edit`, member)).status).toBe(404);
  });

  it("duplicate answers 404 for a document that does not exist", async () => {
    const bucket = await createTestBucket(server.db);
    expect((await page(server.url, `/b/${bucket.slug}/duplicate/00000000-0000-4000-8000-000000000000/latest`, member)).status).toBe(404);
  });

  it("turn the browser's native validation off on the bucket form", async () => {
    const bucket = await createTestBucket(server.db, {
      jsonSchema: { type: "object", required: ["name"], properties: { name: { type: "string", maxLength: 5 } } },
    });
    const { html } = await page(server.url, `/b/${bucket.slug}/new`, member);
    const form = /<form[^>]*class="bucket-form"[^>]*>/.exec(html)?.[0] ?? "";
    expect(form).toMatch(/novalidate/i);
    expect(/<input[^>]*name="name"[^>]*>/.exec(html)![0]).not.toMatch(/\brequired\b|maxlength/i);
  });

  it("let exactly one of 100 parallel form saves from one base version win; the rest get 409 with the input kept", async () => {
    const bucket = await createTestBucket(server.db, { jsonSchema: { type: "object", properties: { name: { type: "string" } } } });
    const base = await createContent(server.db, bucket.id, { name: "Base" }, null);
    const responses = await Promise.all(
      Array.from({ length: 100 }, (_, n) =>
        postForm(
          server.url,
          `/b/${bucket.slug}/${base.contentId}/latest`,
          { __contentId: base.contentId, __baseVersionId: base.versionId, name: `Save ${n}` },
          member,
        ),
      ),
    );
    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status === 302)).toHaveLength(1);
    expect(statuses.filter((status) => status === 409)).toHaveLength(99);
    const loser = responses.find((response) => response.status === 409)!;
    expect(await loser.text()).toMatch(/name="name"[^>]*value="Save \d+"|value="Save \d+"[^>]*name="name"/);
    await Promise.all(
      responses
        .filter((response) => response !== loser)
        .map(async (response) => {
          await response.body?.cancel();
        }),
    );
    const { rows } = await server.db.query<{ count: number }>("SELECT count(*)::int AS count FROM versions WHERE content_id = $1", [
      base.contentId,
    ]);
    expect(rows[0]!.count).toBe(2);
  });
});

describe("translated text arrays (spec §6: ids, add and remove only for admin or dev)", () => {
  let bucket: Bucket;
  let doc: { contentId: string; versionId: string };
  beforeAll(async () => {
    bucket = await createTestBucket(server.db, {
      locales: ["nl", "en"],
      jsonSchema: { type: "object", properties: { labels: { type: "array", title: "Labels", renderer: "texts" } } },
    });
    doc = await createContent(server.db, bucket.id, { labels: [{ id: "intro", text: { nl: "Welkom", en: "Welcome" } }] }, null);
  });

  /** The HTML of the texts field. */
  const textsField = (html: string) => /data-field="labels"[\s\S]*?<\/fieldset>/.exec(html)![0];

  it("shows a plain user the ids read-only and no add or remove buttons; an admin and a dev may edit, add and remove", async () => {
    const plain = textsField((await page(server.url, `/b/${bucket.slug}/${doc.contentId}/latest`, member)).html);
    expect(/<input[^>]*name="labels\[0\]\.id"[^>]*>/.exec(plain)![0]).toMatch(/readonly|disabled/i);
    expect(plain).not.toContain("<button");
    expect(/<input[^>]*name="labels\[0\]\.text\.en"[^>]*>/.exec(plain)![0]).not.toMatch(/readonly|disabled/i);

    const dev = (await signedInUser(server.url, server.db, { permissions: ["user", "dev"] })).cookie;
    for (const editor of [cookie, dev]) {
      const editable = textsField((await page(server.url, `/b/${bucket.slug}/${doc.contentId}/latest`, editor)).html);
      expect(/<input[^>]*name="labels\[0\]\.id"[^>]*>/.exec(editable)![0]).not.toMatch(/readonly|disabled/i);
      expect(decode(editable)).toContain('"type":"insert"');
      expect(decode(editable)).toContain('"type":"remove"');
    }
  });

  // Spec §6 holds on the server too (app/lib/content/texts-rule.ts), not only in TextsField's UI.
  it("refuses a plain user's changed id or added entry on the server", async () => {
    const latest = (await getLatestVersion(server.db, bucket.id, doc.contentId))!;
    const refused = await postForm(
      server.url,
      `/b/${bucket.slug}/${doc.contentId}/latest`,
      {
        __contentId: doc.contentId,
        __baseVersionId: latest.versionId,
        "labels[0].id": "hijacked",
        "labels[0].text.nl": "Welkom",
        "labels[0].text.en": "Welcome",
        "labels[1].id": "extra",
        "labels[1].text.en": "Extra",
      },
      member,
    );
    expect(refused.status).toBe(403);
    expect(await refused.text()).toContain("Only an admin or a developer may change the ids of these texts");
    const stored = (await getLatestVersion(server.db, bucket.id, doc.contentId))!;
    expect((stored.data.labels as Array<{ id: string }>).map((entry) => entry.id)).toEqual(["intro"]);

    // The texts themselves are theirs to edit.
    const edited = await postForm(
      server.url,
      `/b/${bucket.slug}/${doc.contentId}/latest`,
      {
        __contentId: doc.contentId,
        __baseVersionId: stored.versionId,
        "labels[0].id": "intro",
        "labels[0].text.nl": "Hallo",
        "labels[0].text.en": "Hello",
      },
      member,
    );
    expect(edited.status).toBe(302);
    const after = (await getLatestVersion(server.db, bucket.id, doc.contentId))!;
    expect(after.data.labels).toEqual([{ id: "intro", text: { nl: "Hallo", en: "Hello" } }]);
  });
});

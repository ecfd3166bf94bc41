import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createContent } from "@server/content/store";
import { startTestServer, type TestServer } from "@tests/support/server";
import { get, postForm } from "@tests/support/http";
import { createTestBucket, homeBucketLinks, page, pageTitle, signedInUser, topBarBucketLinks } from "@tests/support/fixtures";

/*
 * A bucket's name per interface locale (issue 36 item 13): the bucket form and the import take a name for en and nl
 * besides the name; every page shows the name for the interface language, else the name (core/content/bucket-name.ts).
 */

let server: TestServer;
let admin: string;
let counter = 0;
const unique = (label: string) => `${label}-${++counter}-${Date.now().toString(36)}`;
const DUTCH = { "Accept-Language": "nl-NL,nl;q=0.9" };
const ENGLISH = { "Accept-Language": "en-US,en;q=0.9" };
const SCHEMA = { type: "object", properties: { title: { type: "string", title: "Title" } } };

beforeAll(async () => {
  server = await startTestServer();
  admin = (await signedInUser(server.url, server.db, { permissions: ["user", "admin"] })).cookie;
});
afterAll(() => server.stop());

/** Text of a page's HTML: tags removed, entities decoded, spaces collapsed. */
function textOf(html: string): string {
  return html
    .replace(/<script[\s\S]*?<\/script>/g, " ")
    .replace(/<[^>]+>/g, " ")
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, "&")
    .replace(/\s+/g, " ");
}
const h1 = (html: string) => textOf(/<h1[^>]*>([\s\S]*?)<\/h1>/.exec(html)?.[1] ?? "").trim();
const inputValue = (html: string, name: string) =>
  new RegExp(`<input[^>]*name="${name.replace(".", "\\.")}"[^>]*value="([^"]*)"`).exec(html)?.[1] ?? null;

function formFields(slug: string, extra: Record<string, string> = {}) {
  return {
    intent: "save",
    slug,
    name: `Default ${slug}`,
    collectionName: slug,
    locales: "nl, en",
    screen: "generic",
    jsonSchema: JSON.stringify(SCHEMA),
    ...extra,
  };
}

describe("the bucket form", () => {
  it("saves a name per interface locale, trimmed, shows them kept, and leaves an empty one out", async () => {
    const slug = unique("named");
    const response = await postForm(
      server.url,
      "/settings/buckets/new",
      formFields(slug, { "names.en": "  Paintings ", "names.nl": "Schilderijen" }),
      admin,
    );
    expect(response.status, await response.clone().text()).toBe(302);
    const { rows } = await server.db.query<{ name: string; names: unknown }>(`SELECT name, names FROM buckets WHERE slug = $1`, [slug]);
    expect(rows).toEqual([{ name: `Default ${slug}`, names: { en: "Paintings", nl: "Schilderijen" } }]);
    const { html } = await page(server.url, `/settings/buckets/${slug}`, admin, ENGLISH);
    expect(inputValue(html, "names.en")).toBe("Paintings");
    expect(inputValue(html, "names.nl")).toBe("Schilderijen");
    expect(inputValue(html, "name")).toBe(`Default ${slug}`);

    // Emptied: the Dutch name goes, the English one stays.
    const edited = await postForm(
      server.url,
      `/settings/buckets/${slug}`,
      formFields(slug, { "names.en": "Paintings", "names.nl": "  " }),
      admin,
    );
    expect(edited.status, await edited.clone().text()).toBe(302);
    const { rows: after } = await server.db.query<{ names: unknown }>(`SELECT names FROM buckets WHERE slug = $1`, [slug]);
    expect(after).toEqual([{ names: { en: "Paintings" } }]);
  });

  it("refuses a name per locale longer than the name may be, in the admin's language, with the input kept (no JavaScript)", async () => {
    const slug = unique("long");
    const long = "x".repeat(201);
    for (const [headers, message] of [
      [ENGLISH, "A name can be at most 200 characters"],
      [DUTCH, "Een naam mag hoogstens 200 tekens lang zijn"],
    ] as const) {
      const response = await postForm(
        server.url,
        "/settings/buckets/new",
        formFields(slug, { "names.nl": long, "names.en": "Kept" }),
        admin,
        headers,
      );
      expect(response.status).toBe(400);
      const html = await response.text();
      expect(textOf(html)).toContain(message);
      expect(inputValue(html, "names.nl")).toBe(long);
      expect(inputValue(html, "names.en")).toBe("Kept");
    }
    const { rows } = await server.db.query(`SELECT 1 FROM buckets WHERE slug = $1`, [slug]);
    expect(rows).toEqual([]);
  });
});

describe("where the bucket's name is shown", () => {
  it("shows the name for the interface language on home, the top bar, the overview, the document and history pages", async () => {
    const bucket = await createTestBucket(server.db, {
      slug: unique("shown"),
      name: "Unshown default",
      names: { en: "Paintings", nl: "Schilderijen" },
      jsonSchema: SCHEMA,
    });
    const document = await createContent(server.db, bucket.id, { title: "Mesdag" }, null);
    const user = await signedInUser(server.url, server.db);
    for (const [headers, name] of [
      [ENGLISH, "Paintings"],
      [DUTCH, "Schilderijen"],
    ] as const) {
      const home = await page(server.url, "/", user.cookie, headers);
      expect(homeBucketLinks(home.html)).toContainEqual({ href: `/b/${bucket.slug}`, text: name });
      expect(topBarBucketLinks(home.html)).toContainEqual({ href: `/b/${bucket.slug}`, text: name });
      const overview = await page(server.url, `/b/${bucket.slug}`, user.cookie, headers);
      expect(h1(overview.html)).toBe(name);
      expect(pageTitle(overview.html)).toContain(name);
      const edit = await page(server.url, `/b/${bucket.slug}/${document.contentId}/latest`, user.cookie, headers);
      expect(edit.status).toBe(200);
      expect(textOf(/<p class="eyebrow">([\s\S]*?)<\/p>/.exec(edit.html)?.[1] ?? "").trim()).toBe(name);
      const history = await page(server.url, `/b/${bucket.slug}/${document.contentId}/history`, user.cookie, headers);
      expect(history.status).toBe(200);
      expect(textOf(history.html)).toContain(name);
      expect(textOf(home.html + overview.html + edit.html + history.html)).not.toContain("Unshown default");
    }
  });

  it("falls back to the default name for a language without its own", async () => {
    const bucket = await createTestBucket(server.db, {
      slug: unique("fallback"),
      name: "Only default",
      names: { nl: "Alleen Nederlands" },
    });
    const user = await signedInUser(server.url, server.db);
    expect(h1((await page(server.url, `/b/${bucket.slug}`, user.cookie, ENGLISH)).html)).toBe("Only default");
    expect(h1((await page(server.url, `/b/${bucket.slug}`, user.cookie, DUTCH)).html)).toBe("Alleen Nederlands");
    const plain = await createTestBucket(server.db, { slug: unique("plain"), name: "No names" });
    expect(h1((await page(server.url, `/b/${plain.slug}`, user.cookie, DUTCH)).html)).toBe("No names");
  });

  it("names the referring bucket in its language in the delete confirmation's where-used list, and in the admin's pickers", async () => {
    const target = await createTestBucket(server.db, { slug: unique("target"), name: "Target", jsonSchema: SCHEMA });
    const referring = await createTestBucket(server.db, {
      slug: unique("referring"),
      name: "Referring default",
      names: { en: "Referring", nl: "Verwijzend" },
      jsonSchema: { type: "object", properties: { title: { type: "string" }, target: { type: "string", _ref: target.collectionName } } },
    });
    const used = await createContent(server.db, target.id, { title: "Used" }, null);
    await createContent(server.db, referring.id, { title: "Refers", target: used.contentId }, null);
    for (const [headers, name] of [
      [ENGLISH, "Referring"],
      [DUTCH, "Verwijzend"],
    ] as const) {
      const { html } = await page(server.url, `/b/${target.slug}?delete=${used.contentId}`, admin, headers);
      expect(textOf(html)).toContain(`Refers · ${name}`);
      const invite = await page(server.url, "/settings/invite-user", admin, headers);
      expect(textOf(invite.html)).toContain(name);
      const list = await page(server.url, "/settings/buckets", admin, headers);
      expect(textOf(list.html)).toContain(name);
    }
  });
});

describe("export and import", () => {
  it("exports the names and imports them back: a new bucket gets them, an update lists them as a change", async () => {
    const slug = unique("trip");
    expect(
      (await postForm(server.url, "/settings/buckets/new", formFields(slug, { "names.en": "Trip", "names.nl": "Reis" }), admin)).status,
    ).toBe(302);
    const exported = (await (await get(server.url, `/settings/buckets/${slug}/export`, admin)).json()) as Record<string, unknown>;
    expect(exported.names).toEqual({ en: "Trip", nl: "Reis" });
    expect(Object.keys(exported).slice(0, 3)).toEqual(["slug", "name", "names"]);

    const copy = unique("copy");
    const created = await postForm(
      server.url,
      "/settings/buckets/import",
      { intent: "check", definition: JSON.stringify({ ...exported, slug: copy, collectionName: copy }) },
      admin,
    );
    expect(created.status).toBe(302);
    const { rows } = await server.db.query<{ names: unknown }>(`SELECT names FROM buckets WHERE slug = $1`, [copy]);
    expect(rows).toEqual([{ names: { en: "Trip", nl: "Reis" } }]);
    const again = (await (await get(server.url, `/settings/buckets/${copy}/export`, admin)).json()) as Record<string, unknown>;
    expect(again).toEqual({ ...exported, slug: copy, collectionName: copy });

    const renamed = { ...exported, names: { nl: "Tocht" } };
    const asked = await postForm(
      server.url,
      "/settings/buckets/import",
      { intent: "check", definition: JSON.stringify(renamed) },
      admin,
      ENGLISH,
    );
    expect(asked.status).toBe(200);
    expect(textOf(await asked.text())).toMatch(/What changes: Name per interface language /);
    const confirmed = await postForm(
      server.url,
      "/settings/buckets/import",
      { intent: "confirm", definition: JSON.stringify(renamed) },
      admin,
    );
    expect(confirmed.status).toBe(302);
    const { rows: updated } = await server.db.query<{ names: unknown }>(`SELECT names FROM buckets WHERE slug = $1`, [slug]);
    expect(updated).toEqual([{ names: { nl: "Tocht" } }]);
  });

  it("an older export without names imports with none; bad names are refused with the field named", async () => {
    const slug = unique("older");
    const older = { slug, name: "Older", singleton: false, private: false, collectionName: slug, locales: ["nl"], jsonSchema: SCHEMA };
    expect(
      (await postForm(server.url, "/settings/buckets/import", { intent: "check", definition: JSON.stringify(older) }, admin)).status,
    ).toBe(302);
    const { rows } = await server.db.query<{ names: unknown }>(`SELECT names FROM buckets WHERE slug = $1`, [slug]);
    expect(rows).toEqual([{ names: {} }]);

    const bad = unique("bad");
    const cases: Array<[unknown, string]> = [
      [{ de: "Eimer" }, "names: Names per interface language are an object with en and nl only"],
      [{ nl: "x".repeat(201) }, "names.nl: A name can be at most 200 characters"],
      [{ en: 12 }, "names.en: A name must be text"],
      ["Emmer", "names: Names per interface language are an object with en and nl only"],
    ];
    for (const [names, message] of cases) {
      const response = await postForm(
        server.url,
        "/settings/buckets/import",
        { intent: "check", definition: JSON.stringify({ ...older, slug: bad, collectionName: bad, names }) },
        admin,
        ENGLISH,
      );
      expect(response.status).toBe(422);
      expect(textOf(await response.text())).toContain(message);
    }
  });
});

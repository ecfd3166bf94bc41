import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Bucket } from "@server/content/buckets";
import { createTestBucket, decode as decodeEntities } from "@tests/support/fixtures";
import { createTestUser, get, inputValue, postForm, postJson, signIn } from "@tests/support/http";
import { startTestServer, type TestServer } from "@tests/support/server";

/*
 * A stale form save merged three ways (docs/architecture.md, "Editing together"): disjoint changes are saved at once
 * as one version on top of the newest, which records the version the editor loaded and says whose changes it took;
 * changes to the same field are not saved but come back with both values and a choice; the JSON API keeps its exact
 * 409 unless asked to merge; many stale saves at once lose nothing.
 */

let server: TestServer;
let bucket: Bucket;
let anna: string;
let ben: string;

const FIELDS = 100;

beforeAll(async () => {
  server = await startTestServer({ env: { MEDIA_WORKERS: "0" } });
  bucket = await createTestBucket(server.db, {
    locales: ["nl", "en"],
    jsonSchema: {
      type: "object",
      properties: {
        title: { type: "string", title: "Title", translate: true },
        year: { type: "integer", title: "Year" },
        place: { type: "string", title: "Place" },
        ...Object.fromEntries(Array.from({ length: FIELDS }, (_, n) => [`f${n}`, { type: "integer", title: `Field ${n}` }])),
      },
    },
  });
  const annaUser = await createTestUser(server.db, { name: "Anna" });
  const benUser = await createTestUser(server.db, { name: "Ben" });
  [anna, ben] = await Promise.all([
    signIn(server.url, annaUser.email, annaUser.password),
    signIn(server.url, benUser.email, benUser.password),
  ]);
});
afterAll(() => server.stop());

const ORIGINAL = { "title.nl": "De zee", "title.en": "The sea", year: "1890", place: "Scheveningen" };

/** A new document, and the form fields an editor who opens it posts back. */
async function openedDocument() {
  const created = await postForm(server.url, `/b/${bucket.slug}/new`, { __contentId: "", __baseVersionId: "", ...ORIGINAL }, anna);
  expect(created.status).toBe(302);
  const path = created.headers.get("location")!.split("?")[0]!;
  const page = await (await get(server.url, path, anna)).text();
  const contentId = inputValue(page, "__contentId")!;
  const loaded = inputValue(page, "__baseVersionId")!;
  return { path, contentId, loaded, form: { __contentId: contentId, __baseVersionId: loaded, ...ORIGINAL } };
}

const versionsOf = async (contentId: string) =>
  (
    await server.db.query<{
      versionId: string;
      data: Record<string, unknown>;
      baseVersionId: string | null;
      mergedVersionId: string | null;
    }>(
      `SELECT version_id AS "versionId", data, base_version_id AS "baseVersionId", merged_version_id AS "mergedVersionId"
       FROM versions WHERE content_id = $1 ORDER BY created_at, version_id`,
      [contentId],
    )
  ).rows;

const latestOf = async (contentId: string) =>
  (
    await server.db.query<{ data: Record<string, unknown>; versionId: string }>(
      `SELECT v.data, v.version_id AS "versionId" FROM contents c JOIN versions v ON v.version_id = c.latest_version_id WHERE c.content_id = $1`,
      [contentId],
    )
  ).rows[0]!;

describe("a stale form save", () => {
  it("with changes to other fields is merged into one new version that keeps both, and its page says whose", async () => {
    const doc = await openedDocument();
    expect((await postForm(server.url, doc.path, { ...doc.form, "title.nl": "De Noordzee" }, anna)).status).toBe(302);
    const merged = await postForm(server.url, doc.path, { ...doc.form, "title.en": "The North Sea", year: "1891" }, ben);
    expect(merged.status).toBe(302);
    expect(merged.headers.get("location")).toMatch(/\?saved&merged$/);

    expect((await latestOf(doc.contentId)).data).toEqual({
      title: { nl: "De Noordzee", en: "The North Sea" },
      year: 1891,
      place: "Scheveningen",
    });
    const versions = await versionsOf(doc.contentId);
    expect(versions).toHaveLength(3);
    expect(versions[2]).toMatchObject({ baseVersionId: versions[1]!.versionId, mergedVersionId: doc.loaded });

    const page = decodeEntities(await (await get(server.url, merged.headers.get("location")!, ben)).text());
    expect(page).toContain("Merged with Anna&#x27;s changes to Title (nl).".replace("&#x27;", "'"));
    // The history panel marks the merged version.
    expect(page).toMatch(
      /Version 3<\/a><span class="history-badge">latest<\/span><span class="history-badge" title="[^"]+">merged<\/span>/,
    );
  });

  it("with changes to the same field saves nothing and shows both values with a choice; the choice is then saved", async () => {
    const doc = await openedDocument();
    expect((await postForm(server.url, doc.path, { ...doc.form, year: "1900", place: "Den Haag" }, anna)).status).toBe(302);
    const before = await versionsOf(doc.contentId);
    const refused = await postForm(server.url, doc.path, { ...doc.form, year: "1901", "title.en": "Sea" }, ben);
    expect(refused.status).toBe(409);
    expect(await versionsOf(doc.contentId)).toEqual(before);
    const html = decodeEntities(await refused.text());
    expect(html).toContain("Anna saved this document while you were editing it.");
    const conflict = /<fieldset class="merge-conflict" data-merge-field="year">[\s\S]*?<\/fieldset>/.exec(html)?.[0] ?? "";
    expect(conflict).toContain("<legend>Year</legend>");
    expect(conflict).toMatch(/<dt>Yours<\/dt><dd>1901<\/dd><dt>Anna's<\/dt><dd>1900<\/dd>/);
    expect(conflict).toContain('name="__mergeChoice.year" value="theirs"');
    // The form: Anna's other change in, Ben's at the conflict and elsewhere; its base is the newest version now.
    expect(inputValue(html, "place")).toBe("Den Haag");
    expect(inputValue(html, "year")).toBe("1901");
    expect(inputValue(html, "title.en")).toBe("Sea");
    const newest = (await latestOf(doc.contentId)).versionId;
    expect(inputValue(html, "__baseVersionId")).toBe(newest);

    const chosen = await postForm(
      server.url,
      doc.path,
      {
        __contentId: doc.contentId,
        __baseVersionId: newest,
        ...ORIGINAL,
        "title.en": "Sea",
        year: "1901",
        place: "Den Haag",
        "__mergeChoice.year": "theirs",
      },
      ben,
    );
    expect(chosen.status).toBe(302);
    expect((await latestOf(doc.contentId)).data).toEqual({ title: { nl: "De zee", en: "Sea" }, year: 1900, place: "Den Haag" });
  });
});

describe("the JSON save API", () => {
  it("answers a stale save with its exact 409 unless asked to merge, and merges with merge=true", async () => {
    const doc = await openedDocument();
    expect((await postForm(server.url, doc.path, { ...doc.form, place: "Katwijk" }, anna)).status).toBe(302);
    const stale = { contentId: doc.contentId, _id: doc.loaded, title: { nl: "De zee", en: "The sea" }, year: 1950, place: "Scheveningen" };
    const plain = await postJson(
      server.url,
      `/api/v1/buckets/${bucket.slug}/save`,
      { content: stale, collection: bucket.collectionName },
      ben,
    );
    expect(plain.status).toBe(409);
    expect(await plain.json()).toMatchObject({ error: "DOCUMENT_VERSION_CONFLICT", latestVersionId: expect.any(String) });

    const merged = await postJson(
      server.url,
      `/api/v1/buckets/${bucket.slug}/save?merge=true`,
      { content: stale, collection: bucket.collectionName },
      ben,
    );
    expect(merged.status).toBe(200);
    const body = (await merged.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ year: 1950, place: "Katwijk", merged: { fromNewest: ["place"] } });

    const clash = await postJson(
      server.url,
      `/api/v1/buckets/${bucket.slug}/save?merge=true`,
      { content: { ...stale, place: "Noordwijk" }, collection: bucket.collectionName },
      ben,
    );
    expect(clash.status).toBe(409);
    expect(await clash.json()).toMatchObject({
      error: "DOCUMENT_MERGE_CONFLICT",
      conflicts: [{ field: "place", mine: "Noordwijk", theirs: "Katwijk" }],
    });
  });
});

describe("many stale saves at once", () => {
  it(`${FIELDS} parallel saves of different fields from one loaded version all land, none lost`, async () => {
    const doc = await openedDocument();
    const answers = await Promise.all(
      Array.from({ length: FIELDS }, (_, n) => postForm(server.url, doc.path, { ...doc.form, [`f${n}`]: String(n) }, n % 2 ? anna : ben)),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array.from({ length: FIELDS }, () => 302));
    const { data } = await latestOf(doc.contentId);
    for (let n = 0; n < FIELDS; n += 1) expect(data[`f${n}`], `f${n}`).toBe(n);
    expect(await versionsOf(doc.contentId)).toHaveLength(FIELDS + 1);
  });
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Bucket } from "@server/content/buckets";
import { createContent, saveVersion, type ContentVersion } from "@server/content/store";
import { missingLocaleCondition } from "@server/content/missing-locale";
import { translationCompleteness } from "@core/content/translation-completeness";
import { normalizeSchema } from "@core/schema/normalize";
import type { User } from "@server/accounts/users";
import { createTestBucket, decode, page, pageTitle, signedInUser } from "@tests/support/fixtures";
import { get, postForm, sameOrigin } from "@tests/support/http";
import { startTestServer, type TestServer } from "@tests/support/server";

/*
 * The translation round trip of issue 34: a bucket's texts exported for one locale as XLIFF 2.0, the translated file
 * uploaded, checked (unknown ids, over-long texts, sources changed since the export) and applied through the front
 * door as new versions by the importing user, on plain forms; and "missing nl" as SQL, counted as the core counts.
 */

let server: TestServer;
let cookie: string;
let user: User;

const SCHEMA = {
  type: "object",
  "title-key": "title",
  required: ["ref"],
  properties: {
    ref: { type: "string", title: "Inventory number" },
    title: { type: "string", title: "Title", translate: true, maxLength: 30, description: "The work's title on its label" },
    intro: { type: "string", title: "Introduction", translate: true, renderer: "textarea" },
    room: { type: "object", title: "Room", properties: { name: { type: "string", title: "Name", translate: true } } },
    steps: {
      type: "array",
      title: "Steps",
      items: { type: "object", properties: { text: { type: "string", title: "Text", translate: true } } },
    },
  },
};

const BEACH = {
  ref: "A-1",
  title: { en: "The beach" },
  intro: { en: "Sand & <sea>\nand sky" },
  room: { name: { en: "North hall" } },
  steps: [{ text: { en: "Look" } }, { text: { en: "Think", nl: "Denk" } }],
};
const DUNES = { ref: "B-1", title: { en: "Dunes", nl: "Duinen" } };

beforeAll(async () => {
  server = await startTestServer();
  ({ cookie, user } = await signedInUser(server.url, server.db, { buckets: null }));
});
afterAll(() => server.stop());

let counter = 0;
async function bucketWith(...documents: Array<Record<string, unknown>>): Promise<{ bucket: Bucket; versions: ContentVersion[] }> {
  counter += 1;
  const bucket = await createTestBucket(server.db, { name: `Translated works ${counter}`, locales: ["en", "nl"], jsonSchema: SCHEMA });
  const versions = [];
  for (const data of documents) versions.push(await createContent(server.db, bucket.id, data, null));
  return { bucket, versions };
}

const exportOf = async (bucket: Bucket, query = "locale=nl") => {
  const response = await get(server.url, `/b/${bucket.slug}/translations/export?${query}`, cookie);
  expect(response.status).toBe(200);
  return response.text();
};

/** A translator's work: each source text's unit given a target (an existing target replaced). */
function translated(xliff: string, targets: Record<string, string>): string {
  let text = xliff.replace(/\n\s*<target>[\s\S]*?<\/target>/g, "");
  for (const [source, target] of Object.entries(targets))
    text = text.replace(`<source>${source}</source>`, `<source>${source}</source><target>${target}</target>`);
  return text;
}

const upload = (bucket: Bucket, xliff: string, locale = "nl", headers: Record<string, string> = {}, as = cookie) => {
  const form = new FormData();
  form.append("locale", locale);
  form.append("file", new Blob([xliff]), "works-en-nl.xlf");
  return fetch(`${server.url}/b/${bucket.slug}/translations`, {
    method: "POST",
    redirect: "manual",
    headers: { Cookie: as, ...sameOrigin(server.url), ...headers },
    body: form,
  });
};

async function checked(bucket: Bucket, xliff: string): Promise<{ path: string; html: string; fileId: string }> {
  const posted = await upload(bucket, xliff);
  expect(posted.status).toBe(302);
  const path = posted.headers.get("location") ?? "";
  expect(path).toMatch(new RegExp(`^/b/${bucket.slug}/translations\\?file=[0-9a-f-]{36}$`));
  const { status, html } = await page(server.url, path, cookie);
  expect(status).toBe(200);
  return { path, html: decode(html), fileId: path.split("file=")[1] ?? "" };
}

const latest = async (contentId: string) =>
  (
    await server.db.query<{ data: Record<string, unknown>; userId: string | null; versions: number }>(
      `SELECT v.data, v.created_by AS "userId", (SELECT count(*)::int FROM versions w WHERE w.content_id = c.content_id) AS versions
       FROM contents c JOIN versions v ON v.version_id = c.latest_version_id WHERE c.content_id = $1`,
      [contentId],
    )
  ).rows[0];

describe("the XLIFF export (issue 34)", () => {
  it("writes XLIFF 2.0 for the target locale: a file per document, a unit per source text, notes, the same ids every time", async () => {
    const { bucket, versions } = await bucketWith(BEACH, DUNES, { ref: "C-1" });
    const [beach, dunes] = versions;
    const response = await get(server.url, `/b/${bucket.slug}/translations/export?locale=nl`, cookie);
    expect(response.headers.get("content-type")).toBe("application/xliff+xml; charset=utf-8");
    expect(response.headers.get("content-disposition")).toMatch(
      new RegExp(`^attachment; filename="${bucket.slug}-en-nl-\\d{4}-\\d\\d-\\d\\d\\.xlf"$`),
    );
    const xliff = await response.text();
    expect(xliff).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<xliff xmlns="urn:oasis:names:tc:xliff:document:2.0" version="2.0"/);
    expect(xliff).toContain(`srcLang="en" trgLang="nl"`);
    expect([...xliff.matchAll(/<file id="([^"]+)"/g)].map((match) => match[1])).toEqual([beach?.contentId, dunes?.contentId]);
    expect([...xliff.matchAll(/<unit id="([^"]+)" name="([^"]+)"/g)].map((match) => `${match[1]} ${match[2]}`)).toEqual([
      "title title",
      "intro intro",
      "room.name room/name",
      "steps.0.text steps/0/text",
      "steps.1.text steps/1/text",
      "title title",
    ]);
    expect(xliff).toContain(`<note category="description">The work's title on its label</note>`);
    expect(xliff).toContain(`<note category="maxLength">At most 30 characters</note>`);
    expect(xliff).toContain(`<note category="label">Steps 2 › Text</note>`);
    expect(xliff).toContain(`<source>Sand &amp; &lt;sea&gt;\nand sky</source>`);
    expect(xliff).toContain(`<source>Think</source>\n        <target>Denk</target>`);
    expect(xliff.trimEnd().endsWith("</xliff>")).toBe(true);
    expect(await exportOf(bucket)).toBe(xliff);
    const one = await exportOf(bucket, `locale=nl&id=${dunes?.contentId}`);
    expect([...one.matchAll(/<file id="([^"]+)"/g)].map((match) => match[1])).toEqual([dunes?.contentId]);
    expect(await exportOf(bucket, "locale=en")).toContain(`srcLang="nl" trgLang="en"`);
    // The overview's "missing" filter passed on: the beach has every English text, the dunes lack their room's.
    const missing = await exportOf(bucket, "locale=nl&missing=en");
    expect([...missing.matchAll(/<file id="([^"]+)"/g)].map((match) => match[1])).toEqual([dunes?.contentId]);
    const { html } = await page(server.url, `/b/${bucket.slug}/translations?missing=nl&q=dunes`, cookie);
    expect(html).toContain(`<input type="hidden" name="missing" value="nl"/>`);
    expect(html).toContain(`<input type="hidden" name="q" value="dunes"/>`);
    expect(html).toContain(`<option value="nl" selected="">NL (from EN)</option>`);
  });

  it("sends the page back saying so when there is nothing to translate, and refuses a locale the bucket lacks", async () => {
    const { bucket } = await bucketWith({ ref: "E-1" });
    const empty = await get(server.url, `/b/${bucket.slug}/translations/export?locale=nl`, cookie);
    expect(empty.status).toBe(303);
    const location = empty.headers.get("location") ?? "";
    expect(decode((await page(server.url, location, cookie)).html)).toContain(
      "Nothing to translate into NL: none of these documents has a text in the source language.",
    );
    expect((await get(server.url, `/b/${bucket.slug}/translations/export?locale=de`, cookie)).status).toBe(400);
  });
});

describe("the XLIFF import (issue 34)", () => {
  it("checks a translated file, then fills the Dutch fields as a new version by the importing user", async () => {
    const { bucket, versions } = await bucketWith(BEACH, DUNES);
    const [beach, dunes] = versions;
    const xliff = translated(await exportOf(bucket), {
      "The beach": "Het strand",
      "Sand &amp; &lt;sea&gt;\nand sky": "Zand &amp; &lt;zee&gt;\nen lucht",
      "North hall": "Noordzaal",
      Look: "Kijk",
      Think: "Denk na",
      Dunes: "Duinen",
    });
    const { html, fileId } = await checked(bucket, xliff);
    expect(html).toContain("Texts to fill: 5 (documents: 1). Already as the file has them: 1. Without a translation, left as they are: 0.");
    expect(html).toContain("Room › Name");
    expect(html).toContain("Noordzaal");
    expect(html).toMatch(/<button type="submit" class="button primary">Fill 5 texts<\/button>/);
    expect((await latest(beach?.contentId ?? ""))?.versions).toBe(1);

    const applied = await postForm(server.url, `/b/${bucket.slug}/translations`, { intent: "apply", file: fileId }, cookie);
    expect(applied.status).toBe(200);
    expect(decode(await applied.text())).toContain("Texts filled: 5. Documents saved as new versions: 1.");
    const saved = await latest(beach?.contentId ?? "");
    expect(saved).toMatchObject({ userId: user.id, versions: 2 });
    expect(saved?.data).toEqual({
      ref: "A-1",
      title: { en: "The beach", nl: "Het strand" },
      intro: { en: "Sand & <sea>\nand sky", nl: "Zand & <zee>\nen lucht" },
      room: { name: { en: "North hall", nl: "Noordzaal" } },
      steps: [{ text: { en: "Look", nl: "Kijk" } }, { text: { en: "Think", nl: "Denk na" } }],
    });
    expect((await latest(dunes?.contentId ?? ""))?.versions).toBe(1);
    // Imported once: the kept file is gone.
    const again = await postForm(server.url, `/b/${bucket.slug}/translations`, { intent: "apply", file: fileId }, cookie);
    expect(again.status).toBe(409);
    expect(decode(await again.text())).toContain("This checked file is no longer kept. Upload it again.");
  });

  it("refuses a file whose source changed since the export, naming the unit, and fills nothing", async () => {
    const { bucket, versions } = await bucketWith(BEACH, DUNES);
    const [beach, dunes] = versions;
    const xliff = translated(await exportOf(bucket), { "The beach": "Het strand", Look: "Kijk", Dunes: "Duinen!" });
    await saveVersion(server.db, {
      bucketId: bucket.id,
      contentId: beach?.contentId ?? "",
      baseVersionId: beach?.versionId ?? "",
      data: { ...BEACH, title: { en: "The wide beach" } },
      userId: null,
    });
    const { html, fileId } = await checked(bucket, xliff);
    expect(html).toContain("This file cannot be imported: the source texts named below changed since the export");
    expect(html).toMatch(
      /<tr data-blocking="true"><td><a href="[^"]+">The wide beach<\/a><\/td><td>Title<\/td><td><strong>The source text changed since the export; it is now “The wide beach”\.<\/strong>/,
    );
    expect(html).not.toContain(">Fill ");
    const forced = await postForm(server.url, `/b/${bucket.slug}/translations`, { intent: "apply", file: fileId }, cookie);
    expect(decode(await forced.text())).toContain("This file cannot be imported");
    expect((await latest(beach?.contentId ?? ""))?.versions).toBe(2);
    expect((await latest(dunes?.contentId ?? ""))?.data).toEqual(DUNES);
  });

  it("reports unknown documents and units and over-long texts, and fills only the rest", async () => {
    const { bucket, versions } = await bucketWith(BEACH);
    const [beach] = versions;
    let xliff = translated(await exportOf(bucket), { "The beach": "Het allerlangste strand van de hele kust", Look: "Kijk" });
    xliff = xliff
      .replace(`<unit id="intro"`, `<unit id="nothing.here"`)
      .replace(
        "</xliff>",
        `<file id="00000000-0000-4000-8000-000000000000"><unit id="title"><segment><source>X</source><target>Y</target></segment></unit></file></xliff>`,
      );
    const { html, fileId } = await checked(bucket, xliff);
    expect(html).toContain("The translation has 40 characters; the field takes at most 30. Left out.");
    expect(html).toContain("The document has no translated text nothing.here (any more); left out.");
    expect(html).toContain("No document of this bucket has the id 00000000-0000-4000-8000-000000000000; left out.");
    expect(html).toContain("Problems (3)");
    expect(html).toContain("Texts to fill: 1 (documents: 1).");
    const applied = decode(
      await (await postForm(server.url, `/b/${bucket.slug}/translations`, { intent: "apply", file: fileId }, cookie)).text(),
    );
    expect(applied).toContain("Texts filled: 1. Documents saved as new versions: 1.");
    expect(applied).toContain("Problems (3)");
    expect((await latest(beach?.contentId ?? ""))?.data).toMatchObject({
      title: { en: "The beach" },
      steps: [{ text: { en: "Look", nl: "Kijk" } }, BEACH.steps[1]],
    });
  });

  it("refuses malformed XML, a DOCTYPE, a file that is not XLIFF 2.0, another language or bucket, with a clear message", async () => {
    const { bucket } = await bucketWith(BEACH);
    const { bucket: other } = await bucketWith(DUNES);
    const good = await exportOf(bucket);
    const refusal = async (xliff: string, locale = "nl", headers: Record<string, string> = {}) => {
      const response = await upload(bucket, xliff, locale, headers);
      expect(response.status).toBe(422);
      return /<p class="form-error" role="alert">([\s\S]*?)<\/p>/.exec(decode(await response.text()))?.[1];
    };
    expect(await refusal(good.replace("</file>", ""))).toMatch(/^The file is not well-formed XML: .+ \(line \d+, column \d+\)\.$/);
    expect(await refusal(good.replace("<xliff ", `<!DOCTYPE xliff [<!ENTITY e SYSTEM "file:///etc/passwd">]>\n<xliff `))).toBe(
      "The file declares a DOCTYPE or entities. An XLIFF file needs neither, and Vitrine does not read them.",
    );
    expect(await refusal(`<?xml version="1.0"?><html/>`)).toMatch(/^The file is not XLIFF 2\.0/);
    expect(await refusal(good.replace('trgLang="nl"', 'trgLang="de"'))).toBe("The file's target language is de, not nl.");
    expect(await refusal(await exportOf(other))).toBe(`The file holds texts of ${other.name}, not of this bucket.`);
    expect(await refusal(good.replace("</file>", ""), "nl", { "Accept-Language": "nl-NL" })).toMatch(
      /^Het bestand is geen goedgevormde XML/,
    );
    expect((await upload(bucket, good, "de")).status).toBe(400);
  });
});

describe("the translations page (issue 34)", () => {
  it("works as plain forms without JavaScript, in English and Dutch", async () => {
    const { bucket, versions } = await bucketWith(BEACH);
    const { status, html } = await page(server.url, `/b/${bucket.slug}/translations?id=${versions[0]?.contentId}`, cookie);
    expect(status).toBe(200);
    expect(pageTitle(html)).toBe(`Translations of ${bucket.name} · Vitrine`);
    expect(html).toMatch(new RegExp(`<form [^>]*action="/b/${bucket.slug}/translations/export" method="get">`));
    expect(html).toContain(`<input type="hidden" name="id" value="${versions[0]?.contentId}"/>`);
    expect(html).toMatch(
      /<select id="translation-export-locale" name="locale"><option value="nl">NL \(from EN\)<\/option><option value="en">EN \(from NL\)<\/option>/,
    );
    expect(html).toMatch(/<form [^>]*enctype="multipart\/form-data" method="post">/i);
    expect(html).toMatch(/<input [^>]*type="file"[^>]*name="file"/);
    const dutch = await page(server.url, `/b/${bucket.slug}/translations`, cookie, { "Accept-Language": "nl-NL" });
    expect(pageTitle(dutch.html)).toBe(`Vertalingen van ${bucket.name} · Vitrine`);
    expect(decode(dutch.html)).toContain("XLIFF downloaden");
  });

  it("refuses a file over 16 MB while it streams, and keeps nothing", async () => {
    const { bucket } = await bucketWith(BEACH);
    const response = await upload(bucket, "<".repeat(16 * 1024 * 1024 + 1));
    expect(response.status).toBe(413);
  });

  it("is linked from the dle-content screen's translation strip, for the document shown", async () => {
    const lessons = await createTestBucket(server.db, {
      name: "Translated lessons",
      screen: "dle-content",
      locales: ["en", "nl"],
      jsonSchema: { type: "object", properties: { title: { type: "string", title: "Title", translate: true } } },
    });
    const lesson = await createContent(server.db, lessons.id, { title: { en: "Tides" } }, null);
    const { status, html } = await page(server.url, `/dle-content/${lessons.slug}/${lesson.contentId}/${lesson.versionId}`, cookie);
    expect(status).toBe(200);
    expect(html).toContain(`<a href="/b/${lessons.slug}/translations?id=${lesson.contentId}">Translations (XLIFF)</a>`);
    expect(decode(html)).toContain("0 of 1 filled");
  });

  it("answers 404 for a bucket the user may not see, and sends a signed-out visitor to sign in", async () => {
    const { bucket } = await bucketWith(BEACH);
    const outsider = await signedInUser(server.url, server.db, { buckets: [] });
    expect((await get(server.url, `/b/${bucket.slug}/translations`, outsider.cookie)).status).toBe(404);
    expect((await get(server.url, `/b/${bucket.slug}/translations/export?locale=nl`, outsider.cookie)).status).toBe(404);
    expect((await upload(bucket, await exportOf(bucket), "nl", {}, outsider.cookie)).status).toBe(404);
    expect([302, 401]).toContain((await get(server.url, `/b/${bucket.slug}/translations/export?locale=nl`)).status);
    expect((await get(server.url, `/b/${bucket.slug}/translations`)).status).toBe(302);
  });
});

describe("documents missing a locale, in SQL (issue 34)", () => {
  it("finds exactly the documents the completeness count says lack the locale, for the stored and the normalised schema", async () => {
    const schema = {
      ...SCHEMA,
      properties: { ...SCHEMA.properties, "it's": { type: "string", translate: true }, labels: { type: "array", renderer: "texts" } },
    };
    const bucket = await createTestBucket(server.db, { name: "Missing locales", locales: ["en", "nl"], jsonSchema: schema });
    const full = {
      ref: "full",
      title: { en: "A", nl: "B" },
      intro: { en: "C", nl: "D" },
      room: { name: { en: "E", nl: "F" } },
      "it's": { en: "G", nl: "H" },
      steps: [{ text: { en: "I", nl: "J" } }],
    };
    const documents = [
      full,
      { ...full, steps: [{ text: { en: "x", nl: "y" } }, { text: { en: "z", nl: " \n\t" } }] },
      { ...full, steps: [{ text: { nl: "y" } }] },
      { ...full, room: {} },
      { ...full, "it's": { en: "G" } },
      { ...full, labels: [{ id: "a", text: { en: "L", nl: "" } }] },
      { ...full, labels: [{ id: "a", text: { en: "L", nl: "M" } }], steps: "not a list" },
      { ref: "bare" },
    ];
    const ids: string[] = [];
    for (const data of documents) ids.push((await createContent(server.db, bucket.id, data, null)).contentId);
    for (const locale of ["nl", "en"]) {
      const expected: string[] = documents.flatMap((data, index) => {
        const count = translationCompleteness(schema, data, [locale])[0];
        return count && count.filled < count.total ? [ids[index] ?? ""] : [];
      });
      for (const shape of [schema, normalizeSchema(schema, ["en", "nl"]).schema]) {
        const { rows } = await server.db.query<{ contentId: string }>(
          `SELECT c.content_id AS "contentId" FROM contents c JOIN versions v ON v.version_id = c.latest_version_id
           WHERE c.bucket_id = $1 AND ${missingLocaleCondition(shape, "$2")}`,
          [bucket.id, locale],
        );
        expect(rows.map((row) => row.contentId).sort()).toEqual(expected.sort());
      }
    }
    expect(missingLocaleCondition({ type: "object", properties: { a: { type: "string" } } }, "$2")).toBe("false");
  });
});

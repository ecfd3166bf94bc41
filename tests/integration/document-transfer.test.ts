import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { SCREEN_TABLE } from "@screens/table";
import type { Bucket } from "@server/content/buckets";
import { createContent } from "@server/content/store";
import { createImportRun, runImport, type ImportRun, type ImportSettings } from "@server/content/import-documents";
import type { ImportFormat } from "@server/content/import-source";
import type { User } from "@server/accounts/users";
import { createTestBucket, decode, page, signedInUser } from "@tests/support/fixtures";
import { get, postForm, sameOrigin } from "@tests/support/http";
import { startTestServer, type TestServer } from "@tests/support/server";

/*
 * Documents out and in (issue 34): the overview's export as CSV (a column per field and locale), JSON and NDJSON over
 * HTTP, and imports through the one front door: checked with the editor's messages, idempotent by `_id` and by an
 * external key, files that cannot be read refused with what and where, and an export imported back as it was.
 */

let server: TestServer;
let cookie: string;
let user: User;
let artworks: Bucket;
const files = mkdtempSync(path.join(tmpdir(), "vitrine-transfer-"));

const SCHEMA = {
  type: "object",
  "title-key": "title",
  required: ["ref"],
  properties: {
    ref: { type: "string", title: "Inventory number" },
    title: { type: "string", title: "Title", translate: true },
    year: { type: "integer", title: "Year", minimum: 1000 },
    onShow: { type: "boolean", title: "On show" },
    tags: { type: "array", items: { type: "string" }, renderer: "tags" },
  },
};

beforeAll(async () => {
  server = await startTestServer();
  artworks = await createTestBucket(server.db, { name: "Transfer artworks", locales: ["nl", "en"], jsonSchema: SCHEMA });
  ({ cookie, user } = await signedInUser(server.url, server.db, { buckets: [artworks.slug] }));
});
afterAll(async () => {
  await server.stop();
  rmSync(files, { recursive: true, force: true });
});

let fileCounter = 0;
function file(text: string | Buffer, extension: string): string {
  fileCounter += 1;
  const name = path.join(files, `import-${fileCounter}.${extension}`);
  writeFileSync(name, text);
  return name;
}

async function newBucket(name: string): Promise<Bucket> {
  return createTestBucket(server.db, { name, locales: ["nl", "en"], jsonSchema: SCHEMA });
}

async function importFile(
  bucket: Bucket,
  filePath: string,
  format: ImportFormat,
  settings: Partial<ImportSettings> = {},
  dryRun = false,
): Promise<ImportRun> {
  const run = await createImportRun(server.db, {
    bucket,
    user,
    dryRun,
    format,
    filePath,
    fileName: path.basename(filePath),
    settings: { mapping: {}, key: null, ...settings },
  });
  const actor = { ...user, name: user.name };
  return runImport({ deps: { db: server.db, media: server.media, screens: SCREEN_TABLE }, actor, bucket, locale: "en" }, run);
}

async function documentsOf(bucket: Bucket): Promise<Array<{ contentId: string; data: Record<string, unknown>; versions: number }>> {
  const { rows } = await server.db.query<{ contentId: string; data: Record<string, unknown>; versions: number }>(
    `SELECT c.content_id AS "contentId", v.data, (SELECT count(*)::int FROM versions w WHERE w.content_id = c.content_id) AS versions
     FROM contents c JOIN versions v ON v.version_id = c.latest_version_id WHERE c.bucket_id = $1 ORDER BY c.created_at, c.content_id`,
    [bucket.id],
  );
  return rows;
}

const byId = (documents: Array<{ contentId: string; data: Record<string, unknown> }>) =>
  documents.map(({ contentId, data }) => ({ contentId, data })).sort((a, b) => a.contentId.localeCompare(b.contentId));

const counts = (run: ImportRun) => ({
  status: run.status,
  rowsDone: run.rowsDone,
  created: run.created,
  updated: run.updated,
  unchanged: run.unchanged,
  refused: run.refused,
});

describe("the export of a bucket's documents (issue 34)", () => {
  it("answers CSV with a column per field and per locale, JSON and NDJSON, oldest first, as downloads", async () => {
    const bucket = await newBucket("Export artworks");
    ({ cookie } = await signedInUser(server.url, server.db, { buckets: [artworks.slug, bucket.slug] }));
    const first = await createContent(
      server.db,
      bucket.id,
      { ref: "A-1", title: { nl: 'Het strand, "Scheveningen"', en: "The beach" }, year: 1881, onShow: true, tags: ["sea", "dunes"] },
      null,
    );
    const second = await createContent(server.db, bucket.id, { ref: "A-2", title: { nl: "Duinen\nbij avond" } }, null);

    const csv = await get(server.url, `/b/${bucket.slug}/export?format=csv`, cookie);
    expect(csv.status).toBe(200);
    expect(csv.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(csv.headers.get("content-disposition")).toMatch(
      new RegExp(`^attachment; filename="${bucket.slug}-\\d{4}-\\d\\d-\\d\\d\\.csv"$`),
    );
    const bytes = Buffer.from(await csv.arrayBuffer());
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]); // a byte-order mark: spreadsheets then read UTF-8
    expect(bytes.subarray(3).toString("utf8")).toBe(
      "_id,ref,title.nl,title.en,year,onShow,tags\n" +
        `${first.contentId},A-1,"Het strand, ""Scheveningen""",The beach,1881,true,"[""sea"",""dunes""]"\n` +
        `${second.contentId},A-2,"Duinen\nbij avond",,,,\n`,
    );

    const json = await get(server.url, `/b/${bucket.slug}/export?format=json`, cookie);
    expect(json.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(await json.json()).toEqual([
      {
        _id: first.contentId,
        ref: "A-1",
        title: { nl: 'Het strand, "Scheveningen"', en: "The beach" },
        year: 1881,
        onShow: true,
        tags: ["sea", "dunes"],
      },
      { _id: second.contentId, ref: "A-2", title: { nl: "Duinen\nbij avond" } },
    ]);
    const ndjson = await (await get(server.url, `/b/${bucket.slug}/export?format=ndjson&q=duinen`, cookie)).text();
    expect(ndjson.split("\n")).toEqual([JSON.stringify({ _id: second.contentId, ref: "A-2", title: { nl: "Duinen\nbij avond" } }), ""]);
    const chosen = await (await get(server.url, `/b/${bucket.slug}/export?format=json&id=${first.contentId}`, cookie)).json();
    expect(chosen).toHaveLength(1);
    expect(await (await get(server.url, `/b/${bucket.slug}/export?format=json&q=nowhere-at-all`, cookie)).text()).toBe("[]\n");
  });

  it("refuses an unknown format or id with 400, and a bucket the user may not see", async () => {
    expect((await get(server.url, `/b/${artworks.slug}/export?format=xlsx`, cookie)).status).toBe(400);
    expect((await get(server.url, `/b/${artworks.slug}/export?format=csv&id=nope`, cookie)).status).toBe(400);
    const other = await newBucket("Export hidden");
    expect((await get(server.url, `/b/${other.slug}/export?format=csv`, cookie)).status).toBe(404);
    const signedOut = await get(server.url, `/b/${artworks.slug}/export?format=csv`);
    expect([302, 401]).toContain(signedOut.status);
  });

  it("is offered on the overview, for the documents it lists", async () => {
    const { html } = await page(server.url, `/b/${artworks.slug}?q=beach&state=draft`, cookie);
    expect(html).toContain(`href="/b/${artworks.slug}/export?format=csv&amp;q=beach&amp;state=draft"`);
  });
});

describe("importing documents (issue 34)", () => {
  it("reads a CSV through the mapping, checks each row with the editor's messages, and saves the rest as versions by the user", async () => {
    const bucket = await newBucket("Import checked");
    const csv = file(
      "Inventaris;Titel NL;Title EN;Jaar;Op zaal\n" +
        "B-1;De haven;The harbour;1890;ja\n" +
        "B-2;Fout jaar;;zeventien;nee\n" +
        "B-3;Te vroeg;;999;\n" +
        ";Zonder nummer;;;\n",
      "csv",
    );
    const mapping = { Inventaris: "ref", "Titel NL": "title.nl", "Title EN": "title.en", Jaar: "year", "Op zaal": "onShow" };
    const dry = await importFile(bucket, csv, "csv", { mapping }, true);
    expect(counts(dry)).toEqual({ status: "done", rowsDone: 4, created: 1, updated: 0, unchanged: 0, refused: 3 });
    expect(dry.problems).toEqual([
      { row: 2, field: "year", message: "“zeventien” is not a whole number" },
      { row: 3, field: "year", message: expect.stringMatching(/1000/) },
      { row: 4, field: "ref", message: expect.any(String) },
    ]);
    expect(await documentsOf(bucket)).toEqual([]);

    const run = await importFile(bucket, csv, "csv", { mapping });
    expect(counts(run)).toEqual({ status: "done", rowsDone: 4, created: 1, updated: 0, unchanged: 0, refused: 3 });
    const [saved] = await documentsOf(bucket);
    expect(saved!.data).toEqual({ ref: "B-1", title: { nl: "De haven", en: "The harbour" }, year: 1890, onShow: true });
    const { rows } = await server.db.query<{ createdBy: string }>(`SELECT created_by AS "createdBy" FROM versions WHERE content_id = $1`, [
      saved!.contentId,
    ]);
    expect(rows).toEqual([{ createdBy: user.id }]);
    const activity = await server.db.query<{ action: string; details: Record<string, unknown> }>(
      `SELECT action, details FROM admin_activity WHERE area = 'document' AND subject = $1`,
      [bucket.slug],
    );
    expect(activity.rows).toEqual([
      { action: "imported", details: expect.objectContaining({ created: 1, refused: 3, rows: 4 }) as unknown },
    ]);
  });

  it("imports the same 10,000-row CSV twice by an external key: the second run creates nothing, a changed file updates", async () => {
    const bucket = await newBucket("Import twice");
    const lines = (title: (n: number) => string) =>
      ["ref,title.nl,year", ...Array.from({ length: 10_000 }, (_, n) => `K-${n},${title(n)},${1800 + (n % 200)}`)].join("\n");
    const csv = file(
      lines((n) => `Werk ${n}`),
      "csv",
    );
    const first = await importFile(bucket, csv, "csv", { key: "ref" });
    expect(counts(first)).toEqual({ status: "done", rowsDone: 10_000, created: 10_000, updated: 0, unchanged: 0, refused: 0 });
    const again = await importFile(bucket, csv, "csv", { key: "ref" });
    expect(counts(again)).toEqual({ status: "done", rowsDone: 10_000, created: 0, updated: 0, unchanged: 10_000, refused: 0 });
    const changed = await importFile(
      bucket,
      file(
        lines((n) => (n < 10 ? `Werk ${n} (herzien)` : `Werk ${n}`)),
        "csv",
      ),
      "csv",
      { key: "ref" },
    );
    expect(counts(changed)).toEqual({ status: "done", rowsDone: 10_000, created: 0, updated: 10, unchanged: 9_990, refused: 0 });
    const { rows } = await server.db.query<{ documents: number; keys: number; versions: number }>(
      `SELECT count(*)::int AS documents, count(DISTINCT v.data->>'ref')::int AS keys,
              (SELECT count(*)::int FROM versions w JOIN contents d ON d.content_id = w.content_id WHERE d.bucket_id = $1) AS versions
       FROM contents c JOIN versions v ON v.version_id = c.latest_version_id WHERE c.bucket_id = $1`,
      [bucket.id],
    );
    expect(rows[0]).toEqual({ documents: 10_000, keys: 10_000, versions: 10_010 });
  }, 240_000);

  it("round-trips an export: CSV, JSON and NDJSON imported back reproduce the documents exactly, by their _id", async () => {
    const bucket = await newBucket("Round trip");
    ({ cookie } = await signedInUser(server.url, server.db, { buckets: [artworks.slug, bucket.slug] }));
    await createContent(
      server.db,
      bucket.id,
      { ref: "R-1", title: { nl: 'Één, "twee"', en: "One" }, year: 1900, onShow: false, tags: ["a,b", "c"] },
      null,
    );
    await createContent(server.db, bucket.id, { ref: "R-2", title: { en: "Only English\r\nwith a break" } }, null);
    const before = await documentsOf(bucket);
    for (const format of ["csv", "json", "ndjson"] as const) {
      const exported = file(
        Buffer.from(await (await get(server.url, `/b/${bucket.slug}/export?format=${format}`, cookie)).arrayBuffer()),
        format,
      );
      const unchanged = await importFile(bucket, exported, format);
      expect(counts(unchanged), format).toEqual({ status: "done", rowsDone: 2, created: 0, updated: 0, unchanged: 2, refused: 0 });
      await server.db.query(`DELETE FROM contents WHERE bucket_id = $1`, [bucket.id]);
      const restored = await importFile(bucket, exported, format);
      expect(counts(restored), format).toEqual({ status: "done", rowsDone: 2, created: 2, updated: 0, unchanged: 0, refused: 0 });
      // One batch's documents share their transaction's time: compared by id, not in order of creation.
      expect(byId(await documentsOf(bucket)), format).toEqual(byId(before));
    }
  });

  it("refuses an _id that is not a UUID or is another bucket's document, row by row", async () => {
    const bucket = await newBucket("Import ids");
    const elsewhere = await createContent(server.db, artworks.id, { ref: "E-1" }, null);
    const run = await importFile(
      bucket,
      file(
        [{ _id: "nope", ref: "I-1" }, { _id: elsewhere.contentId, ref: "I-2" }, { ref: "I-3" }]
          .map((row) => JSON.stringify(row))
          .join("\n"),
        "ndjson",
      ),
      "ndjson",
    );
    expect(counts(run)).toMatchObject({ created: 1, refused: 2 });
    expect(run.problems).toEqual([
      { row: 1, field: "_id", message: "This _id is not a document id (a UUID)." },
      { row: 2, field: "_id", message: "This _id is a document of another bucket." },
    ]);
  });

  it("stops at a file it cannot read, saying what and where, the rows before it kept", async () => {
    const bucket = await newBucket("Import broken files");
    const quotes = await importFile(bucket, file('ref,title.nl\nQ-1,"Goed"\nQ-2,"Open quote\n', "csv"), "csv");
    expect(quotes.status).toBe("failed");
    expect(quotes.failure).toEqual({
      row: 2,
      message: expect.stringMatching(/^The quotes in this row do not pair up/),
    });

    const latin1 = await importFile(bucket, file(Buffer.from("ref,title.nl\nL-1,Caf\xe9\n", "latin1"), "csv"), "csv");
    expect(latin1.status).toBe("failed");
    expect(latin1.failure?.message).toBe("The file is not UTF-8 text. Save it as “CSV UTF-8” (or UTF-8 JSON) and try again.");

    const long = file(Buffer.concat([Buffer.from("ref,title.nl\nX-1,"), Buffer.alloc(50 * 1024 * 1024, "x")]), "csv");
    const tooLong = await importFile(bucket, long, "csv");
    expect(tooLong.status).toBe("failed");
    expect(tooLong.failure).toEqual({ row: 1, message: "This row is longer than 1 MiB: is a quote left open?" });

    const columns = await importFile(bucket, file("ref,title.nl\nC-1,a,b\n", "csv"), "csv");
    expect(columns.failure?.message).toBe("This row has a different number of cells than the header.");

    const json = await importFile(bucket, file('[{"ref": "J-1"}, {"ref": ', "json"), "json");
    expect(json).toMatchObject({ status: "failed", failure: { row: 2, message: "The file is not a valid JSON array of documents." } });
    const line = await importFile(bucket, file('{"ref": "N-1"}\n{"ref": \n', "ndjson"), "ndjson");
    expect(line).toMatchObject({ status: "failed", failure: { row: 2, message: "This line is not valid JSON." } });
    expect((await documentsOf(bucket)).map((document) => document.data.ref)).toEqual(["Q-1", "J-1", "N-1"]);
  }, 60_000);
});

describe("the import pages (issue 34), without JavaScript", () => {
  const postFile = (path: string, name: string, text: string) => {
    const form = new FormData();
    form.append("file", new Blob([text], { type: "text/csv" }), name);
    return fetch(`${server.url}${path}`, {
      method: "POST",
      redirect: "manual",
      headers: { Cookie: cookie, ...sameOrigin(server.url) },
      body: form,
    });
  };

  /** The run's page once its run has ended (it reloads itself meanwhile, as a browser would). */
  async function finishedPage(path: string): Promise<string> {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const { status, html } = await page(server.url, path, cookie);
      expect(status).toBe(200);
      if (!html.includes('http-equiv="refresh"')) return html;
      if (Date.now() > deadline) throw new Error(`${path} still running`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  it("uploads a CSV, reports its check by row and field, imports it with a corrected mapping and a key, and again changes nothing", async () => {
    const bucket = await newBucket("Import pages");
    ({ cookie } = await signedInUser(server.url, server.db, { buckets: [artworks.slug, bucket.slug] }));
    const csv = "Nummer,Titel,Jaar\nP-1,Het strand,1881\nP-2,De duinen,eenentachtig\nP-3,Avond,1890\n";

    const form = await page(server.url, `/b/${bucket.slug}/import`, cookie);
    expect(form.html).toContain('encType="multipart/form-data"');
    const uploaded = await postFile(`/b/${bucket.slug}/import`, "werken.csv", csv);
    expect(uploaded.status).toBe(302);
    const checkPath = uploaded.headers.get("location")!;
    expect(checkPath).toMatch(new RegExp(`^/b/${bucket.slug}/import/[0-9a-f-]{36}$`));
    let html = decode(await finishedPage(checkPath));
    // Nothing maps yet: every row lacks the required number.
    expect(html).toContain("3 rows checked: 0 new, 0 to update, 0 unchanged, 3 with problems.");

    const mapping = { "map.Nummer": "ref", "map.Titel": "title.nl", "map.Jaar": "year", key: "ref" };
    const checked = await postForm(server.url, checkPath, { ...mapping, intent: "check" }, cookie);
    expect(checked.status).toBe(302);
    html = decode(await finishedPage(checked.headers.get("location")!));
    expect(html).toContain("3 rows checked: 2 new, 0 to update, 0 unchanged, 1 with problems.");
    expect(html).toMatch(/<td>2<\/td><td><code>year<\/code><\/td><td>“eenentachtig” is not a whole number<\/td>/);
    expect(html).toMatch(/<option value="ref" selected="">ref<\/option>/);
    expect(await documentsOf(bucket)).toEqual([]);

    const imported = await postForm(server.url, checked.headers.get("location")!, { ...mapping, intent: "import" }, cookie);
    html = decode(await finishedPage(imported.headers.get("location")!));
    expect(html).toContain("3 rows imported: 2 new, 0 updated, 0 unchanged, 1 skipped for their problems.");
    const saved = (await documentsOf(bucket)).map((document) => document.data);
    expect(saved.sort((a, b) => String(a.ref).localeCompare(String(b.ref)))).toEqual([
      { ref: "P-1", title: { nl: "Het strand" }, year: 1881 },
      { ref: "P-3", title: { nl: "Avond" }, year: 1890 },
    ]);

    const again = await postFile(`/b/${bucket.slug}/import`, "werken.csv", csv);
    await finishedPage(again.headers.get("location")!);
    const recheck = await postForm(server.url, again.headers.get("location")!, { ...mapping, intent: "check" }, cookie);
    html = decode(await finishedPage(recheck.headers.get("location")!));
    expect(html).toContain("3 rows checked: 0 new, 0 to update, 2 unchanged, 1 with problems.");
  });

  it("refuses a file of another type, a post without a file, a mapping to no field, and someone else's run", async () => {
    const refused = await postFile(`/b/${artworks.slug}/import`, "werken.xlsx", "PK");
    expect(refused.status).toBe(400);
    expect(decode(await refused.text())).toContain("Import a .csv, .json or .ndjson file.");
    const plain = await postForm(server.url, `/b/${artworks.slug}/import`, { file: "x" }, cookie);
    expect(plain.status).toBe(400);

    const uploaded = await postFile(`/b/${artworks.slug}/import`, "a.csv", "ref\nZ-1\n");
    const runPath = uploaded.headers.get("location")!;
    await finishedPage(runPath);
    expect((await postForm(server.url, runPath, { "map.ref": "nowhere", intent: "check" }, cookie)).status).toBe(400);
    const other = await signedInUser(server.url, server.db, { buckets: [artworks.slug] });
    expect((await page(server.url, runPath, other.cookie)).status).toBe(404);
  });

  it("takes over a run a stopped server left running (no batch for a minute), and leaves a fresh one to its runner", async () => {
    const bucket = await newBucket("Import resumed");
    const csv = file(["ref", ...Array.from({ length: 250 }, (_, n) => `S-${n}`)].join("\n"), "csv");
    const run = await createImportRun(server.db, {
      bucket,
      user,
      dryRun: false,
      format: "csv",
      filePath: csv,
      fileName: "s.csv",
      settings: { mapping: {}, key: "ref" },
    });
    // As a stopped server leaves it: its last batch more than a minute ago.
    await server.db.query(`UPDATE import_runs SET heartbeat_at = now() - interval '2 minutes' WHERE id = $1`, [run.id]);
    await server.imports.resumeUnfinished();
    const deadline = Date.now() + 60_000;
    let status = "running";
    while (status === "running" && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      status = (await server.db.query<{ status: string }>(`SELECT status FROM import_runs WHERE id = $1`, [run.id])).rows[0]!.status;
    }
    expect(status).toBe("done");
    expect(await documentsOf(bucket)).toHaveLength(250);

    // A run whose runner wrote a batch within the minute is that runner's: not started a second time.
    const fresh = await createImportRun(server.db, {
      bucket,
      user,
      dryRun: false,
      format: "csv",
      filePath: csv,
      fileName: "s.csv",
      settings: { mapping: {}, key: "ref" },
    });
    await server.imports.resumeUnfinished();
    const { rows } = await server.db.query<{ runner: string; rowsDone: number }>(
      `SELECT runner, rows_done AS "rowsDone" FROM import_runs WHERE id = $1`,
      [fresh.id],
    );
    expect(rows).toEqual([{ runner: fresh.runner, rowsDone: 0 }]);
    await server.db.query(`UPDATE import_runs SET status = 'failed' WHERE id = $1`, [fresh.id]);
  });
});

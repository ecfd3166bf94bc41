import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import sharp from "sharp";
import yazl from "yazl";
import { SCREEN_TABLE } from "@screens/table";
import type { Bucket } from "@server/content/buckets";
import { createContent } from "@server/content/store";
import { createImportRun, runImport, type ImportRun } from "@server/content/import-documents";
import type { ImportFormat } from "@server/content/import-source";
import type { User } from "@server/accounts/users";
import { createTestBucket, decode, page, signedInUser } from "@tests/support/fixtures";
import { get, sameOrigin } from "@tests/support/http";
import { startTestServer, type TestServer } from "@tests/support/server";

/*
 * The rest of issue 34's import: images and files from a ZIP uploaded beside the data (made into media items through
 * the upload checks, once however often the file is imported), media and references named by id or by title, every
 * problem kept and downloadable, and the upload of data and ZIP as a plain multipart form post.
 */

let server: TestServer;
let cookie: string;
let user: User;
let artists: Bucket;
const files = mkdtempSync(path.join(tmpdir(), "vitrine-import-media-"));

beforeAll(async () => {
  server = await startTestServer();
  artists = await createTestBucket(server.db, {
    name: "Import artists",
    jsonSchema: { type: "object", "title-key": "name", properties: { name: { type: "string", title: "Name" } } },
  });
  ({ cookie, user } = await signedInUser(server.url, server.db, { buckets: null }));
});
afterAll(async () => {
  await server.stop();
  rmSync(files, { recursive: true, force: true });
});

function artworksSchema(collection: string) {
  return {
    type: "object",
    "title-key": "title",
    required: ["ref"],
    properties: {
      ref: { type: "string", title: "Inventory number" },
      title: { type: "string", title: "Title" },
      image: { type: "string", title: "Image", _ref: "b-image", minWidth: 10 },
      gallery: { type: "array", title: "Gallery", items: { type: "string", _ref: "b-image", minWidth: 10 } },
      leaflet: { type: "string", title: "Leaflet", _ref: "b-file" },
      artist: { type: "string", title: "Artist", _ref: collection },
      related: { type: "array", title: "Related", items: { type: "string", _ref: collection } },
    },
  };
}

const newArtworks = (name: string) => createTestBucket(server.db, { name, jsonSchema: artworksSchema(artists.collectionName) });

let counter = 0;
function file(content: string | Buffer, extension: string): string {
  counter += 1;
  const name = path.join(files, `file-${counter}.${extension}`);
  writeFileSync(name, content);
  return name;
}

/** A PNG of noise (over the 1 kB an image upload needs at least); `seed` makes each one's bytes its own. */
const png = (width: number, height: number, seed: number) =>
  sharp(Buffer.from(Array.from({ length: width * height * 3 }, (_, index) => (index * 7919 + seed * 104729) % 251)), {
    raw: { width, height, channels: 3 },
  })
    .png({ compressionLevel: 0 })
    .toBuffer();

async function zipOf(entries: Record<string, Buffer | string>): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const [name, content] of Object.entries(entries)) zip.addBuffer(Buffer.from(content), name);
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks);
}

/** A ZIP whose one entry is named `../escape.png` (yazl refuses to write such a name: patched in after). */
async function zipWithEscapingEntry(): Promise<Buffer> {
  const zip = await zipOf({ "xx/escape.png": await png(20, 20, 1) });
  const from = Buffer.from("xx/escape.png");
  const to = Buffer.from("../escape.png");
  let at = zip.indexOf(from);
  while (at >= 0) {
    to.copy(zip, at);
    at = zip.indexOf(from, at + 1);
  }
  return zip;
}

async function importFile(
  bucket: Bucket,
  filePath: string,
  options: { zip?: string; dryRun?: boolean; format?: ImportFormat; key?: string } = {},
): Promise<ImportRun> {
  const run = await createImportRun(server.db, {
    bucket,
    user,
    dryRun: options.dryRun ?? false,
    format: options.format ?? "csv",
    filePath,
    fileName: path.basename(filePath),
    media: options.zip ? { path: options.zip, name: path.basename(options.zip) } : null,
    settings: { mapping: {}, key: options.key ?? null },
  });
  const deps = { db: server.db, media: server.media, screens: SCREEN_TABLE };
  return runImport({ deps, actor: { ...user, name: user.name }, bucket, locale: "en", ffmpeg: server.media.ffmpeg }, run);
}

async function documentsOf(bucket: Bucket): Promise<Array<Record<string, unknown>>> {
  const { rows } = await server.db.query<{ data: Record<string, unknown> }>(
    `SELECT v.data FROM contents c JOIN versions v ON v.version_id = c.latest_version_id WHERE c.bucket_id = $1 ORDER BY v.data->>'ref'`,
    [bucket.id],
  );
  return rows.map((row) => row.data);
}

async function mediaCount(bucket: Bucket): Promise<number> {
  const { rows } = await server.db.query<{ count: number }>(`SELECT count(*)::int AS count FROM media_items WHERE bucket_id = $1`, [
    bucket.id,
  ]);
  return rows[0]?.count ?? 0;
}

const counts = (run: ImportRun) => ({
  status: run.status,
  created: run.created,
  updated: run.updated,
  unchanged: run.unchanged,
  refused: run.refused,
});

describe("an import's images and files from a ZIP (issue 34)", () => {
  it("makes media items of the entries the cells name, checked as uploads, served, and never twice", async () => {
    const bucket = await newArtworks("Import with images");
    const zip = file(
      await zipOf({
        "images/night-watch.png": await png(64, 48, 2),
        "images/milkmaid.png": await png(40, 30, 3),
        "docs/leaflet.txt": "A leaflet about the collection.\n".repeat(100),
      }),
      "zip",
    );
    const csv = file(
      [
        "ref,title,image,gallery,leaflet",
        "M-1,Night watch,images/night-watch.png,images/milkmaid.png|images/night-watch.png,docs/leaflet.txt",
        "M-2,Milkmaid,./images/milkmaid.png,,",
      ].join("\n"),
      "csv",
    );
    const checked = await importFile(bucket, csv, { zip, dryRun: true, key: "ref" });
    expect(counts(checked), JSON.stringify(checked.problems)).toEqual({ status: "done", created: 2, updated: 0, unchanged: 0, refused: 0 });
    expect(await mediaCount(bucket)).toBe(0);

    const imported = await importFile(bucket, csv, { zip, key: "ref" });
    expect(counts(imported), JSON.stringify(imported.problems)).toEqual({
      status: "done",
      created: 2,
      updated: 0,
      unchanged: 0,
      refused: 0,
    });
    // One item per distinct file: the night watch and the milkmaid twice each, and the leaflet.
    expect(await mediaCount(bucket)).toBe(3);
    const [first, second] = await documentsOf(bucket);
    const image = first?.image as string;
    expect(first?.gallery).toEqual([second?.image, image]);
    const { rows } = await server.db.query<{ kind: string; width: number; name: string; bucket: string }>(
      `SELECT m.kind, m.width, m.original_filename AS name, m.bucket_id::text AS bucket FROM media m WHERE m.content_id = $1`,
      [image],
    );
    expect(rows).toEqual([{ kind: "image", width: 64, name: "night-watch.png", bucket: bucket.id }]);
    const served = await get(server.url, `/api/v1/media/image/${image}`, cookie);
    expect(served.status).toBe(200);
    expect((await sharp(Buffer.from(await served.arrayBuffer())).metadata()).width).toBe(64);
    const { rows: uses } = await server.db.query<{ count: number }>(
      `SELECT count(*)::int AS count FROM media_uses WHERE media_content_id = $1`,
      [image],
    );
    expect(uses[0]?.count).toBe(1);

    const again = await importFile(bucket, csv, { zip, key: "ref" });
    expect(counts(again)).toEqual({ status: "done", created: 0, updated: 0, unchanged: 2, refused: 0 });
    expect(await mediaCount(bucket)).toBe(3);
  }, 60_000);

  it("takes a media item already in Vitrine by its plain id, and says which id names none", async () => {
    const bucket = await newArtworks("Import media ids");
    const zip = file(await zipOf({ "a.png": await png(30, 30, 4) }), "zip");
    await importFile(bucket, file("ref,image\nI-1,a.png", "csv"), { zip });
    const [made] = await documentsOf(bucket);
    const id = made?.image as string;
    const missing = "00000000-0000-4000-8000-000000000001";
    const run = await importFile(bucket, file(`ref,image\nI-2,${id}\nI-3,${missing}\nI-4,b.png`, "csv"));
    expect(counts(run)).toMatchObject({ created: 1, refused: 2 });
    expect(run.problems).toEqual([
      { row: 2, field: "image", message: `No media item has the id ${missing}.` },
      { row: 3, field: "image", message: "“b.png” is not a media id, and no ZIP of images and files came with the data to take it from." },
    ]);
    expect((await documentsOf(bucket)).map((document) => document.image)).toEqual([id, id]);
    expect(await mediaCount(bucket)).toBe(1);
  });

  it("refuses a missing entry, a file that is no image, a path out of the ZIP, and an image too small, row by row", async () => {
    const bucket = await newArtworks("Import bad entries");
    const zip = file(
      await zipOf({ "ok.png": await png(20, 20, 5), "notes.txt": "not an image\n".repeat(200), "tiny.png": await png(5, 300, 6) }),
      "zip",
    );
    const csv = file(["ref,image", "B-1,gone.png", "B-2,notes.txt", "B-3,../ok.png", "B-4,tiny.png", "B-5,ok.png"].join("\n"), "csv");
    for (const dryRun of [true, false]) {
      const run = await importFile(bucket, csv, { zip, dryRun });
      expect(counts(run), String(dryRun)).toMatchObject({ status: "done", created: 1, refused: 4 });
      expect(run.problems.map((problem) => [problem.row, problem.field, problem.message])).toEqual([
        [1, "image", "The ZIP holds no file “gone.png”."],
        [2, "image", expect.stringMatching(/^“notes\.txt” in the ZIP: .*image/i)],
        [3, "image", "“../ok.png” is not a file inside the ZIP: a path may not start with / or contain “..”."],
        [4, "image", expect.stringMatching(/^“tiny\.png” in the ZIP: .*10/)],
      ]);
    }
    expect(await mediaCount(bucket)).toBe(1);
  });

  it("ignores an entry whose own name leaves the ZIP, and fails the run on a ZIP that is no ZIP", async () => {
    const bucket = await newArtworks("Import bad zips");
    const escaping = file(await zipWithEscapingEntry(), "zip");
    const run = await importFile(bucket, file("ref,image\nZ-1,escape.png", "csv"), { zip: escaping });
    expect(run.problems).toEqual([{ row: 1, field: "image", message: "The ZIP holds no file “escape.png”." }]);

    const notZip = await importFile(bucket, file("ref,image\nZ-2,a.png", "csv"), { zip: file("just text", "zip") });
    expect(notZip).toMatchObject({ status: "failed", failure: { row: null, message: "The ZIP file cannot be read as a ZIP archive." } });
    expect(await documentsOf(bucket)).toEqual([]);
  });
});

describe("an import's references by id or title (issue 34)", () => {
  it("matches a title exactly but for case in the referenced bucket, refuses none or several, and takes ids", async () => {
    const bucket = await newArtworks("Import references");
    const rembrandt = await createContent(server.db, artists.id, { name: "Rembrandt van Rijn" }, null);
    const vermeer = await createContent(server.db, artists.id, { name: "Johannes Vermeer" }, null);
    await createContent(server.db, artists.id, { name: "Anonymous" }, null);
    await createContent(server.db, artists.id, { name: "anonymous " }, null);
    const csv = file(
      [
        "ref,artist,related",
        "R-1, rembrandt VAN rijn ,Johannes Vermeer|Rembrandt van Rijn",
        `R-2,${vermeer.contentId},"[""${rembrandt.contentId}"", ""johannes vermeer""]"`,
        "R-3,Nobody,",
        "R-4,Anonymous,Rembrandt van Rijn|Rembrandt",
      ].join("\n"),
      "csv",
    );
    const run = await importFile(bucket, csv);
    expect(counts(run)).toMatchObject({ created: 2, refused: 2 });
    expect(run.problems).toEqual([
      { row: 3, field: "artist", message: "No document titled “Nobody” was found." },
      { row: 4, field: "artist", message: "2 documents are titled “Anonymous”: give the id of the one you mean." },
      { row: 4, field: "related[1]", message: "No document titled “Rembrandt” was found." },
    ]);
    expect((await documentsOf(bucket)).map(({ artist, related }) => ({ artist, related }))).toEqual([
      { artist: rembrandt.contentId, related: [vermeer.contentId, rembrandt.contentId] },
      { artist: vermeer.contentId, related: [rembrandt.contentId, vermeer.contentId] },
    ]);
  });

  it("finds no title in a bucket the importing user may not see", async () => {
    const bucket = await newArtworks("Import references hidden");
    await createContent(server.db, artists.id, { name: "Hidden master" }, null);
    const limited = await signedInUser(server.url, server.db, { buckets: [bucket.slug] });
    const run = await createImportRun(server.db, {
      bucket,
      user: limited.user,
      dryRun: true,
      format: "csv",
      filePath: file("ref,artist\nH-1,Hidden master", "csv"),
      fileName: "hidden.csv",
      settings: { mapping: {}, key: null },
    });
    const deps = { db: server.db, media: server.media, screens: SCREEN_TABLE };
    const checked = await runImport({ deps, actor: limited.user, bucket, locale: "en" }, run);
    expect(checked.problems).toEqual([{ row: 1, field: "artist", message: "No document titled “Hidden master” was found." }]);
  });
});

describe("the import pages with a ZIP and all problems (issue 34), without JavaScript", () => {
  async function finishedPage(pagePath: string): Promise<string> {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const { status, html } = await page(server.url, pagePath, cookie);
      expect(status).toBe(200);
      if (!html.includes('http-equiv="refresh"')) return html;
      if (Date.now() > deadline) throw new Error(`${pagePath} still running`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  const upload = (bucket: Bucket, parts: Array<[string, Buffer | string, string]>) => {
    const form = new FormData();
    for (const [name, content, fileName] of parts)
      form.append(name, new Blob([typeof content === "string" ? content : new Uint8Array(content)]), fileName);
    return fetch(`${server.url}/b/${bucket.slug}/import`, {
      method: "POST",
      redirect: "manual",
      headers: { Cookie: cookie, ...sameOrigin(server.url) },
      body: form,
    });
  };

  it("uploads data and a ZIP in one multipart post, imports the images, and hints the media and reference columns", async () => {
    const bucket = await newArtworks("Import page ZIP");
    const form = await page(server.url, `/b/${bucket.slug}/import`, cookie);
    expect(form.html).toMatch(/<input[^>]*type="file"[^>]*name="media"/);
    const zip = await zipOf({ "pictures/one.png": await png(32, 32, 7) });
    const posted = await upload(bucket, [
      ["file", "ref,image\nW-1,pictures/one.png\n", "works.csv"],
      ["media", zip, "pictures.zip"],
    ]);
    expect(posted.status).toBe(302);
    const runPath = posted.headers.get("location") ?? "";
    const checked = decode(await finishedPage(runPath));
    expect(checked).toContain("1 rows checked: 1 new");
    expect(checked).toContain("Images and files from pictures.zip.");
    expect(checked).toContain("Media columns (a file’s path in the ZIP, or a media id): image, gallery, leaflet.");
    expect(checked).toContain("Reference columns (a document’s id or its exact title; a list separated by |): artist, related.");
    const imported = await fetch(`${server.url}${runPath}`, {
      method: "POST",
      redirect: "manual",
      headers: { Cookie: cookie, ...sameOrigin(server.url), "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ "map.ref": "ref", "map.image": "image", key: "ref", intent: "import" }),
    });
    expect(imported.status).toBe(302);
    expect(decode(await finishedPage(imported.headers.get("location") ?? ""))).toContain("1 rows imported: 1 new");
    const [document] = await documentsOf(bucket);
    expect((await get(server.url, `/api/v1/media/image/${String(document?.image)}`, cookie)).status).toBe(200);

    const wrong = await upload(bucket, [
      ["file", "ref\nW-2\n", "works.csv"],
      ["media", "x", "pictures.tar"],
    ]);
    expect(wrong.status).toBe(400);
    expect(decode(await wrong.text())).toContain("Images and files come as one .zip file.");
  }, 60_000);

  it("shows the first 100 problems and downloads all of them as CSV, to the run's owner only", async () => {
    const bucket = await newArtworks("Import many problems");
    const rows = Array.from({ length: 250 }, (_, index) => `P-${index + 1},"Nobody ${index + 1}, the ""one"""`);
    const posted = await upload(bucket, [["file", ["ref,artist", ...rows].join("\n"), "many.csv"]]);
    const runPath = posted.headers.get("location") ?? "";
    const html = decode(await finishedPage(runPath));
    expect(html).toContain("Problems: 100 shown, in 250 refused rows");
    expect(html.match(/<td>No document titled/g)).toHaveLength(100);
    expect(html).toContain(`href="${runPath}/problems"`);
    expect(html).toContain("Download all 250 problems (CSV)");

    const download = await get(server.url, `${runPath}/problems`, cookie);
    expect(download.status).toBe(200);
    expect(download.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(download.headers.get("content-disposition")).toBe('attachment; filename="many-problems.csv"');
    const bytes = Buffer.from(await download.arrayBuffer());
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = bytes.subarray(3).toString("utf8").split("\n");
    expect(lines[0]).toBe("row,field,message");
    expect(lines[1]).toBe('1,artist,"No document titled “Nobody 1, the ""one""” was found."');
    expect(lines[250]).toBe('250,artist,"No document titled “Nobody 250, the ""one""” was found."');
    expect(lines.slice(251)).toEqual([""]);

    const other = await signedInUser(server.url, server.db, { buckets: [bucket.slug] });
    expect((await get(server.url, `${runPath}/problems`, other.cookie)).status).toBe(404);
    const elsewhere = await newArtworks("Import problems elsewhere");
    expect((await get(server.url, runPath.replace(bucket.slug, elsewhere.slug) + "/problems", cookie)).status).toBe(404);
  }, 60_000);
});

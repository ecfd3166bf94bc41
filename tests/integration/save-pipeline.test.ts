/**
 * The edit form's multipart post through the one save pipeline (server/content/save-form.ts): a hostile post
 * writes nothing, an invalid one commits no media and starts no job but keeps its files as pending uploads
 * for the re-rendered form, the next valid post saves them; pending uploads nobody saves are swept, and a
 * pending upload is only ever taken by its owner's form, in its own field.
 */
import { readdirSync, statSync, utimesSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Bucket } from "@server/content/buckets";
import { PENDING_UPLOAD_MAX_AGE_MS, sweepPendingUploads } from "@server/media/pending";
import { createTestBucket } from "@tests/support/fixtures";
import { signedInUser } from "@tests/support/fixtures";
import { get, postJson, sameOrigin } from "@tests/support/http";
import { jpegOfSize, videoOf } from "@tests/support/media-fixtures";
import { startTestServer, type TestServer } from "@tests/support/server";

const SCHEMA = {
  type: "object",
  required: ["name"],
  properties: {
    name: { type: "string", title: "Name" },
    photo: { type: "string", title: "Photo", _ref: "b-image" },
    clip: { type: "string", title: "Clip", _ref: "b-video", minWidth: 320, minHeight: 240 },
    doc: { type: "string", title: "Document", _ref: "b-file" },
  },
};
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

let server: TestServer;
let bucket: Bucket;
let owner: { cookie: string; user: { id: string } };
let image: Buffer;
let video: Buffer;

beforeAll(async () => {
  // No job runner: a started job stays 'new', so the test sees exactly which jobs a post created.
  server = await startTestServer({ env: { MEDIA_WORKERS: "0" } });
  bucket = await createTestBucket(server.db, { jsonSchema: SCHEMA, locales: ["en"] });
  owner = await signedInUser(server.url, server.db);
  [image, video] = [await jpegOfSize(1920, 1080), videoOf({ width: 320, height: 240, fps: 25, seconds: 2 })];
});
afterAll(() => server.stop());

type Part = [name: string, value: string] | [name: string, data: Buffer, filename: string];

function postMultipart(cookie: string, parts: Part[], baseUrl = server.url) {
  const form = new FormData();
  for (const [name, value, filename] of parts) {
    if (typeof value === "string") form.append(name, value);
    else form.append(name, new Blob([new Uint8Array(value)]), filename);
  }
  return fetch(`${baseUrl}/b/${bucket.slug}/new`, {
    method: "POST",
    redirect: "manual",
    headers: { Cookie: cookie, ...sameOrigin(baseUrl) },
    body: form,
  });
}

const bookkeeping: Part[] = [
  ["__contentId", ""],
  ["__baseVersionId", ""],
];
const withFiles = (): Part[] => [
  ["__media_file.photo", image, "harbour.jpg"],
  ["__media_file.clip", video, "clip.mp4"],
];

/** Every file under MEDIA_DIR (tmp/, pending/, files/), by path. */
function mediaFiles(dir = server.media.storage.root): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? mediaFiles(path.join(dir, entry.name)) : [path.relative(server.media.storage.root, path.join(dir, entry.name))],
  );
}
const inDir = (dir: "tmp" | "pending" | "files") => mediaFiles().filter((file) => file.startsWith(`${dir}${path.sep}`));

async function rows() {
  const {
    rows: [counts],
  } = await server.db.query<{ media: number; jobs: number; pending: number; versions: number }>(
    `SELECT (SELECT count(*) FROM media)::int AS media, (SELECT count(*) FROM jobs)::int AS jobs,
            (SELECT count(*) FROM pending_uploads)::int AS pending, (SELECT count(*) FROM versions)::int AS versions`,
  );
  return counts!;
}

/** The value of the input named `name`, the pending tokens and the pending file names shown under each field. */
function formState(html: string) {
  const value = (name: string) =>
    new RegExp(`<input[^>]*name="${name}"[^>]*value="([^"]*)"|<input[^>]*value="([^"]*)"[^>]*name="${name}"`)
      .exec(html)
      ?.slice(1)
      .find(Boolean) ?? null;
  const tokens = [...html.matchAll(/<input[^>]*name="__pendingUpload"[^>]*value="([^"]*)"/g)].map((match) => match[1]!);
  const pendingName = (field: string) => {
    const box = new RegExp(`data-field="${field}"[\\s\\S]*?class="media-summary media-pending"><span class="media-filename">([^<]*)<`).exec(
      html,
    );
    return box?.[1] ?? null;
  };
  const fieldError = (field: string) =>
    new RegExp(`<p id="[^"]*-${field}-error" class="field-error" role="alert">([^<]*)</p>`).exec(html)?.[1] ?? null;
  return { value, tokens, pendingName, fieldError };
}

/** An invalid post (name empty) with an image and a video: both wait as pending uploads of `cookie`'s user. */
async function leavePending(cookie = owner.cookie) {
  const response = await postMultipart(cookie, [...bookkeeping, ["name", ""], ...withFiles()]);
  const html = await response.text();
  expect(response.status, [...html.matchAll(/class="field-error" role="alert">([^<]*)</g)].map((m) => m[1]).join("|")).toBe(400);
  return formState(html);
}

describe("a hostile multipart post", () => {
  it.each([
    ["a field named with __proto__", ["__proto__.polluted", "1"] as Part],
    ["a malformed Conform intent", ["__intent__", "{not json"] as Part],
  ])("with %s writes no file, no media row and no job", async (_name, hostile) => {
    const [filesBefore, before] = [mediaFiles(), await rows()];
    const response = await postMultipart(owner.cookie, [...bookkeeping, ["name", "Kept"], hostile, ...withFiles()]);
    expect(response.status).toBe(400);
    const html = await response.text();
    expect(html).toMatch(/Forbidden property name &#x27;__proto__&#x27;|The form&#x27;s list action could not be read\./);
    expect(formState(html).value("name")).toBe("Kept");
    expect(mediaFiles()).toEqual(filesBefore);
    expect(await rows()).toEqual(before);
  });
});

describe("an invalid multipart post", () => {
  it("commits no media and starts no job, keeps its files pending for the re-rendered form, and the next valid post saves them", async () => {
    const [storedBefore, before] = [inDir("files"), await rows()];
    const form = await leavePending();
    // Nothing in the media store, no media row, no job: the files wait in pending/.
    expect(inDir("files")).toEqual(storedBefore);
    expect(inDir("tmp")).toEqual([]);
    expect(await rows()).toEqual({ ...before, pending: before.pending + 2 });
    const [photo, clip] = [form.value("photo")!, form.value("clip")!];
    expect(photo).toMatch(UUID);
    expect(clip).toMatch(UUID);
    expect(
      inDir("pending")
        .map((file) => path.basename(file))
        .sort(),
    ).toEqual(expect.arrayContaining([`${photo}.jpg`, `${clip}.mp4`]));
    // The re-rendered form shows the chosen files under their fields and carries their tokens.
    expect(form.pendingName("photo")).toBe("harbour.jpg");
    expect(form.pendingName("clip")).toBe("clip.mp4");
    expect(form.fieldError("name")).toBe("This field is required");
    expect(form.tokens).toHaveLength(2);

    // The next post, without choosing the files again: saved with the media committed and the video's jobs.
    const saved = await postMultipart(owner.cookie, [
      ...bookkeeping,
      ["name", "Harbour"],
      ["photo", photo],
      ["clip", clip],
      ...form.tokens.map((token): Part => ["__pendingUpload", token]),
    ]);
    expect(saved.status, await saved.clone().text()).toBe(302);
    const contentId = /\/b\/[^/]+\/([0-9a-f-]{36})\/latest/.exec(saved.headers.get("location")!)![1]!;
    const document = await (await get(server.url, `/api/v1/buckets/${bucket.slug}/content/${contentId}/latest`, owner.cookie)).json();
    expect(document).toMatchObject({ name: "Harbour", photo, clip });
    const media = await server.db.query<{ contentId: string; kind: string; originalFilename: string; storageKey: string }>(
      `SELECT content_id AS "contentId", kind, original_filename AS "originalFilename", storage_key AS "storageKey" FROM media WHERE content_id = ANY($1::uuid[]) ORDER BY kind`,
      [[photo, clip]],
    );
    expect(media.rows.map(({ contentId: id, kind, originalFilename }) => ({ id, kind, originalFilename }))).toEqual([
      { id: photo, kind: "image", originalFilename: "harbour.jpg" },
      { id: clip, kind: "video", originalFilename: "clip.mp4" },
    ]);
    for (const row of media.rows) expect(statSync(server.media.storage.pathOf(row.storageKey)).isFile()).toBe(true);
    const jobs = await server.db.query<{ name: string; status: string }>(
      `SELECT j.name, j.status FROM jobs j JOIN media m ON m.id = j.media_id WHERE m.content_id = $1 ORDER BY j.seq`,
      [clip],
    );
    expect(jobs.rows).toEqual([
      { name: "transcode", status: "new" },
      { name: "still-creation", status: "new" },
    ]);
    expect(await rows()).toEqual({
      media: before.media + 2,
      jobs: before.jobs + 2,
      pending: before.pending,
      versions: before.versions + 1,
    });
    expect(inDir("pending").filter((file) => file.includes(photo) || file.includes(clip))).toEqual([]);

    // The media field shows the committed media on the saved page.
    const page = await (await get(server.url, `/b/${bucket.slug}/${contentId}/latest`, owner.cookie)).text();
    expect(page).toMatch(/data-field="photo"[\s\S]*?class="media-filename">harbour\.jpg</);
  });

  it("keeps a file posted with the no-JavaScript 'Upload' button as pending too, without validating", async () => {
    const before = await rows();
    const response = await postMultipart(owner.cookie, [
      ...bookkeeping,
      ["name", ""],
      ["__media_upload", "photo"],
      ["__media_file.photo", image, "upload.jpg"],
    ]);
    expect(response.status).toBe(200);
    const form = formState(await response.text());
    expect(form.pendingName("photo")).toBe("upload.jpg");
    expect(form.fieldError("name")).toBeNull();
    expect(await rows()).toEqual({ ...before, pending: before.pending + 1 });
  });
});

describe("pending uploads", () => {
  it("are swept once nobody saved them for PENDING_UPLOAD_MAX_AGE_MS, rows and files, and a swept one is reported under its field", async () => {
    const form = await leavePending();
    const [photo, clip] = [form.value("photo")!, form.value("clip")!];
    const fresh = await leavePending();
    // Age the first post's uploads (and an orphan file without a row) past the limit instead of waiting.
    const orphan = path.join(server.media.storage.pendingDir, "00000000-0000-4000-8000-000000000000.jpg");
    writeFileSync(orphan, "left by a stopped server");
    const past = new Date(Date.now() - PENDING_UPLOAD_MAX_AGE_MS - 60_000);
    for (const file of [
      orphan,
      ...inDir("pending")
        .filter((name) => name.includes(photo) || name.includes(clip))
        .map((name) => path.join(server.media.storage.root, name)),
    ]) {
      utimesSync(file, past, past);
    }
    await server.db.query(`UPDATE pending_uploads SET created_at = $2 WHERE content_id = ANY($1::uuid[])`, [[photo, clip], past]);

    expect(await sweepPendingUploads(server.db, server.media.storage)).toBe(3);
    const left = inDir("pending").map((file) => path.basename(file));
    expect(left.some((file) => file.startsWith(photo) || file.startsWith(clip) || file.startsWith("00000000"))).toBe(false);
    expect(left).toEqual(expect.arrayContaining([`${fresh.value("photo")}.jpg`, `${fresh.value("clip")}.mp4`]));
    const { rows: remaining } = await server.db.query(`SELECT 1 FROM pending_uploads WHERE content_id = ANY($1::uuid[])`, [[photo, clip]]);
    expect(remaining).toEqual([]);

    // The form still holding a swept upload cannot save a reference to a file that does not exist.
    const before = await rows();
    const again = await postMultipart(owner.cookie, [
      ...bookkeeping,
      ["name", "Late"],
      ["photo", photo],
      ...form.tokens.map((token): Part => ["__pendingUpload", token]),
    ]);
    expect(again.status).toBe(400);
    expect(formState(await again.text()).fieldError("photo")).toBe(
      "The file chosen earlier for this field is no longer kept: choose it again.",
    );
    expect(await rows()).toEqual(before);
  });

  it("are refused to another user, in another field, without their token, and through the JSON API", async () => {
    const form = await leavePending();
    const photo = form.value("photo")!;
    const photoToken = form.tokens.find((token) => token.startsWith(photo))!;
    const other = await signedInUser(server.url, server.db);
    const refused = "This file was not chosen in this field of your form: choose it again.";
    const attempts: Array<[string, string, Part[]]> = [
      [
        "another user with the token",
        other.cookie,
        [
          ["photo", photo],
          ["__pendingUpload", photoToken],
        ],
      ],
      [
        "another field",
        owner.cookie,
        [
          ["doc", photo],
          ["__pendingUpload", photoToken],
        ],
      ],
      ["no token", owner.cookie, [["photo", photo]]],
      [
        "a forged secret",
        owner.cookie,
        [
          ["photo", photo],
          ["__pendingUpload", `${photo}.${"x".repeat(32)}`],
        ],
      ],
    ];
    for (const [label, cookie, parts] of attempts) {
      const before = await rows();
      const response = await postMultipart(cookie, [...bookkeeping, ["name", "Taken"], ...parts]);
      expect(response.status, label).toBe(400);
      const state = formState(await response.text());
      expect(state.fieldError(parts[0]![0]), label).toBe(refused);
      expect(await rows(), label).toEqual(before);
    }
    const api = await postJson(server.url, `/api/v1/buckets/${bucket.slug}/save`, { content: { name: "Taken", photo } }, owner.cookie);
    expect(api.status).toBe(422);
    expect((await api.json()).errors).toEqual({ photo: [refused] });
    // Still there for its owner's form.
    const { rows: kept } = await server.db.query(`SELECT 1 FROM pending_uploads WHERE content_id = $1`, [photo]);
    expect(kept).toHaveLength(1);
  });
});

describe("several servers sharing the database and MEDIA_DIR", () => {
  it("a post's files kept pending by one server are saved by a post to another", async () => {
    const second = await startTestServer({ db: server.db, env: { MEDIA_WORKERS: "0", MEDIA_DIR: server.media.storage.root } });
    try {
      const form = await leavePending();
      const [photo, clip] = [form.value("photo")!, form.value("clip")!];
      const tokens = form.tokens.map((token): Part => ["__pendingUpload", token]);
      const saved = await postMultipart(
        owner.cookie,
        [...bookkeeping, ["name", "Elsewhere"], ["photo", photo], ["clip", clip], ...tokens],
        second.url,
      );
      expect(saved.status).toBe(302);
      const { rows: media } = await server.db.query<{ storageKey: string }>(
        `SELECT storage_key AS "storageKey" FROM media WHERE content_id = ANY($1::uuid[])`,
        [[photo, clip]],
      );
      expect(media).toHaveLength(2);
      for (const row of media) expect(statSync(server.media.storage.pathOf(row.storageKey)).isFile()).toBe(true);
      // The same form submitted again (to the first server) references the media saved meanwhile: no file or
      // job is committed twice.
      const before = await rows();
      const again = await postMultipart(owner.cookie, [...bookkeeping, ["name", "Twice"], ["photo", photo], ["clip", clip], ...tokens]);
      expect(again.status).toBe(302);
      expect(await rows()).toEqual({ ...before, versions: before.versions + 1 });
    } finally {
      await second.stop();
    }
  });
});

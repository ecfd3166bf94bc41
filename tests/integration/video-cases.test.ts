import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { randomUUID } from "node:crypto";
import { createApiClient } from "@server/accounts/api-clients";
import type { Bucket } from "@server/content/buckets";
import { createContent } from "@server/content/store";
import { insertMedia } from "@server/media/store";
import { createTestBucket, signedInUser } from "@tests/support/fixtures";
import { get, inputValue, postForm, sameOrigin } from "@tests/support/http";
import { startTestServer, type TestServer } from "@tests/support/server";

/*
 * The video cases (spec §3 Case item, §7): GET /api/v1/buckets/any/content?collection=…&populate=true resolves each
 * case's thumbnail to its media content with the chosen still, and leaks nothing of media the reader may not see;
 * cases are saved and deleted through the JSON API (auth, conflicts); without JavaScript the picker is a section of
 * the edit form whose buttons re-render the page with its input kept.
 */

let server: TestServer;
let admin: { cookie: string; user: { id: string; name: string } };
let cases: Bucket;
let other: Bucket;
let secret: Bucket;
let sessions: Bucket;
type Ids = Record<
  "harbourVideo" | "waitingVideo" | "otherVideo" | "secretVideo" | "harbour" | "waiting" | "fromOther" | "fromSecret" | "gone" | "none",
  string
>;
const ids = {} as Ids;

const caseSchema = {
  type: "object",
  required: ["title"],
  properties: {
    title: { type: "string", title: "Title" },
    subtitle: { type: "string", title: "Subtitle" },
    thumbnail: { type: "string", title: "Video", _ref: "b-video" },
  },
};

async function video(bucket: Bucket, name: string, stills: number, thumb: number | null) {
  const media = await insertMedia(server.db, {
    kind: "video",
    originalFilename: `${name}.mp4`,
    mimetype: "video/mp4",
    size: 4096,
    width: 1280,
    height: 720,
    details: {
      fps: 25,
      codec: "h264",
      duration: 2,
      stillKeys: Array.from({ length: stills }, () => `${randomUUID()}.jpg`),
      ...(thumb === null ? {} : { thumb: { index: thumb } }),
    },
    bucketId: bucket.id,
    storageKey: `${randomUUID()}.mp4`,
    createdBy: admin.user.id,
  });
  return media.contentId;
}

const api = (path: string, init: RequestInit = {}, cookie: string | null = admin.cookie) =>
  fetch(`${server.url}${path}`, {
    ...init,
    headers: {
      "Content-Type": "application/json",
      ...(cookie ? { Cookie: cookie, ...sameOrigin(server.url) } : {}),
      ...(init.headers as Record<string, string> | undefined),
    },
  });
const populated = async (cookie: string | null = admin.cookie, extra = "") =>
  api(`/api/v1/buckets/any/content?collection=vc-cases&populate=true${extra}`, {}, cookie);
const byTitle = (documents: Array<Record<string, unknown>>, title: string) => documents.find((document) => document.title === title)!;

beforeAll(async () => {
  server = await startTestServer();
  admin = await signedInUser(server.url, server.db, { permissions: ["user", "admin"] });
  cases = await createTestBucket(server.db, { slug: "vc-cases", name: "Cases", collectionName: "vc-cases", jsonSchema: caseSchema });
  other = await createTestBucket(server.db, { slug: "vc-other", name: "Other", collectionName: "vc-other", jsonSchema: caseSchema });
  secret = await createTestBucket(server.db, {
    slug: "vc-secret",
    name: "Secret",
    collectionName: "vc-secret",
    private: true,
    jsonSchema: caseSchema,
  });
  sessions = await createTestBucket(server.db, {
    slug: "vc-sessions",
    name: "Sessions",
    collectionName: "vc-sessions",
    jsonSchema: {
      type: "object",
      required: ["title"],
      properties: {
        title: { type: "string", title: "Title" },
        cases: { type: "array", title: "Video cases", renderer: "video-cases", items: { type: "string", _ref: "vc-cases" } },
        count: { type: "integer", title: "Count" },
      },
    },
  });
  ids.harbourVideo = await video(cases, "harbour", 3, 1);
  ids.waitingVideo = await video(cases, "waiting", 0, null);
  ids.otherVideo = await video(other, "other", 2, 0);
  ids.secretVideo = await video(secret, "secret", 2, 0);
  const doc = async (data: Record<string, unknown>) => (await createContent(server.db, cases.id, data, admin.user.id)).contentId;
  ids.harbour = await doc({ title: "Harbour at dawn", subtitle: "Harlingen quay", thumbnail: ids.harbourVideo });
  ids.waiting = await doc({ title: "Blowing glass", subtitle: "Leerdam", thumbnail: ids.waitingVideo });
  ids.fromOther = await doc({ title: "Other bucket", subtitle: "", thumbnail: ids.otherVideo });
  ids.fromSecret = await doc({ title: "Secret video", subtitle: "", thumbnail: ids.secretVideo });
  ids.gone = await doc({ title: "Gone video", subtitle: "", thumbnail: randomUUID() });
  ids.none = await doc({ title: "No video", subtitle: "Text only" });
});
afterAll(() => server.stop());

describe("GET /api/v1/buckets/any/content?populate=true", () => {
  it("resolves each case's thumbnail to its media content with the chosen still's URL", async () => {
    const response = await populated();
    expect(response.status).toBe(200);
    const documents = (await response.json()) as Array<Record<string, unknown>>;
    expect(documents).toHaveLength(6);
    const harbour = byTitle(documents, "Harbour at dawn");
    expect(harbour).toMatchObject({ contentId: ids.harbour, _id: expect.any(String), subtitle: "Harlingen quay" });
    expect(harbour.thumbnail).toMatchObject({
      contentId: ids.harbourVideo,
      kind: "video",
      status: "completed",
      still: `/api/v1/still/${ids.harbourVideo}/1`,
      url: `/api/v1/media/video/${ids.harbourVideo}`,
      dimensions: { width: 1280, height: 720 },
    });
    expect((harbour.thumbnail as { thumbs: unknown[] }).thumbs).toHaveLength(3);
    // No stills yet: the content, without a still.
    expect(byTitle(documents, "Blowing glass").thumbnail).toMatchObject({ contentId: ids.waitingVideo, still: null });
    // Another public bucket the admin sees.
    expect(byTitle(documents, "Other bucket").thumbnail).toMatchObject({
      contentId: ids.otherVideo,
      still: `/api/v1/still/${ids.otherVideo}/0`,
    });
    expect(byTitle(documents, "No video").thumbnail).toBeUndefined();
    expect(byTitle(documents, "Gone video").thumbnail).toEqual({ contentId: expect.any(String), missing: true });
  });

  it("answers the plain documents without populate", async () => {
    const documents = (await (await api("/api/v1/buckets/any/content?collection=vc-cases")).json()) as Array<Record<string, unknown>>;
    expect(byTitle(documents, "Harbour at dawn").thumbnail).toBe(ids.harbourVideo);
    const explicit = (await (await api("/api/v1/buckets/any/content?collection=vc-cases&populate=false")).json()) as Array<
      Record<string, unknown>
    >;
    expect(byTitle(explicit, "Harbour at dawn").thumbnail).toBe(ids.harbourVideo);
  });

  it("leaks nothing of media in a bucket the reader may not see: a private bucket, a bucket outside the user's list", async () => {
    const documents = (await (await populated()).json()) as Array<Record<string, unknown>>;
    // Private buckets are never visible, not even to an admin (spec §6).
    expect(byTitle(documents, "Secret video").thumbnail).toEqual({ contentId: ids.secretVideo, missing: true });
    const limited = await signedInUser(server.url, server.db, { buckets: ["vc-cases"] });
    const seen = (await (await populated(limited.cookie)).json()) as Array<Record<string, unknown>>;
    expect(byTitle(seen, "Harbour at dawn").thumbnail).toMatchObject({ still: `/api/v1/still/${ids.harbourVideo}/1` });
    expect(byTitle(seen, "Other bucket").thumbnail).toEqual({ contentId: ids.otherVideo, missing: true });
    expect(JSON.stringify(seen)).not.toContain("other.mp4");
    expect(JSON.stringify(seen)).not.toContain("secret.mp4");
  });

  it("answers an API client by its read scope", async () => {
    const { token } = await createApiClient(server.db, admin.user, {
      name: `vc-${randomUUID()}`,
      readBuckets: ["vc-cases"],
      writeBuckets: [],
      expiresAt: null,
    });
    const response = await fetch(`${server.url}/api/v1/buckets/any/content?collection=vc-cases&populate=true`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(response.status).toBe(200);
    const documents = (await response.json()) as Array<Record<string, unknown>>;
    expect(byTitle(documents, "Harbour at dawn").thumbnail).toMatchObject({ kind: "video", still: `/api/v1/still/${ids.harbourVideo}/1` });
    expect(byTitle(documents, "Other bucket").thumbnail).toEqual({ contentId: ids.otherVideo, missing: true });
  });

  it("refuses hostile and malformed parameters", async () => {
    expect((await populated(null)).status).toBe(401);
    expect((await populated(admin.cookie, "&populate=1")).status).toBe(200); // the first value counts: true
    for (const value of ["1", "yes", "TRUE", "", "true%00"]) {
      const response = await api(`/api/v1/buckets/any/content?collection=vc-cases&populate=${value}`);
      expect(response.status, value).toBe(400);
      expect(await response.json()).toEqual({ error: "populate must be true or false" });
    }
    for (const collection of ["__proto__", "constructor", "vc-secret", "' OR 1=1 --", "%00", "x".repeat(5000)]) {
      const response = await api(`/api/v1/buckets/any/content?collection=${encodeURIComponent(collection)}&populate=true`);
      expect(response.status, collection.slice(0, 20)).toBe(404);
    }
    expect((await api("/api/v1/buckets/any/content?populate=true")).status).toBe(400);
  });
});

describe("cases through the JSON API (POST …/save, DELETE …/content/{contentId}/{_id})", () => {
  const save = (content: unknown, cookie: string | null = admin.cookie) =>
    api("/api/v1/buckets/vc-cases/save", { method: "POST", body: JSON.stringify({ content }) }, cookie);

  it("creates a case with its video, refuses a stale version, and deletes it only at its latest version", async () => {
    const created = await save({ title: "New case", subtitle: "Made in the picker", thumbnail: ids.harbourVideo });
    expect(created.status).toBe(201);
    const first = (await created.json()) as Record<string, string>;
    const second = (await (await save({ ...first, subtitle: "Edited" })).json()) as Record<string, string>;
    expect((await save({ ...first, subtitle: "Stale" })).status).toBe(409);

    const stale = await api(`/api/v1/buckets/vc-cases/content/${first.contentId}/${first._id}`, { method: "DELETE" });
    expect(stale.status).toBe(409);
    expect(await stale.json()).toMatchObject({ error: "DOCUMENT_VERSION_CONFLICT" });
    const deleted = await api(`/api/v1/buckets/vc-cases/content/${first.contentId}/${second._id}`, { method: "DELETE" });
    expect(deleted.status).toBe(204);
    expect((await api(`/api/v1/buckets/vc-cases/content/${first.contentId}/latest`)).status).toBe(404);
    const again = await api(`/api/v1/buckets/vc-cases/content/${first.contentId}/${second._id}`, { method: "DELETE" });
    expect(again.status).toBe(404);
    const listed = (await (await populated()).json()) as Array<Record<string, unknown>>;
    expect(listed.some((document) => document.contentId === first.contentId)).toBe(false);
  });

  it("refuses the signed out (401) and a user who may not see the bucket (404)", async () => {
    expect((await save({ title: "Anonymous" }, null)).status).toBe(401);
    const outsider = await signedInUser(server.url, server.db, { buckets: ["vc-other"] });
    expect((await save({ title: "Outsider" }, outsider.cookie)).status).toBe(404);
    const target = (await (await save({ title: "Kept" })).json()) as Record<string, string>;
    expect(
      (await api(`/api/v1/buckets/vc-cases/content/${target.contentId}/${target._id}`, { method: "DELETE" }, outsider.cookie)).status,
    ).toBe(404);
    expect((await api(`/api/v1/buckets/vc-cases/content/${target.contentId}/${target._id}`, { method: "DELETE" }, null)).status).toBe(401);
    expect((await api(`/api/v1/buckets/vc-cases/content/${target.contentId}/latest`)).status).toBe(200);
  });
});

describe("the picker without JavaScript", () => {
  const form = (fields: Record<string, string>) =>
    postForm(server.url, "/b/vc-sessions/new", { title: "Morning", count: "3", ...fields }, admin.cookie);

  it("the edit page shows the chosen cases as clip cards with their stills, and the add card as a submit button", async () => {
    const saved = await createContent(server.db, sessions.id, { title: "Chosen", cases: [ids.harbour, ids.none] }, admin.user.id);
    const html = await (await get(server.url, `/b/vc-sessions/${saved.contentId}/latest`, admin.cookie)).text();
    expect(html).toContain(`data-case="${ids.harbour}"`);
    expect(html).toContain(`src="/api/v1/still/${ids.harbourVideo}/1"`);
    expect(html).toContain("Harlingen quay");
    // Each card says what exhibits get of its case (docs/publishing.md): these were never published.
    const harbourCard = new RegExp(`<li[^>]*data-case="${ids.harbour}"[\\s\\S]*?</li>`).exec(html)?.[0] ?? "";
    expect(harbourCard).toMatch(/<span class="publication-badge publication-draft"[^>]*>Draft<\/span>/);
    expect(inputValue(html, "cases[0]")).toBe(ids.harbour);
    expect(inputValue(html, "cases[1]")).toBe(ids.none);
    expect(html).toMatch(/<button type="submit" value="cases"[^>]*formNoValidate=""[^>]*name="__cases_open"/);
  });

  it("opens the picker with the input kept, searches, adds the checked cases, then saves them", async () => {
    const open = await form({ __cases_open: "cases", "cases[0]": ids.waiting });
    expect(open.status).toBe(200);
    const opened = await open.text();
    expect(opened).toContain('class="cases-picker"');
    expect(inputValue(opened, "title")).toBe("Morning");
    expect(inputValue(opened, "count")).toBe("3");
    // The chosen case is not offered again; the others are, as checkable cards.
    expect(opened).not.toContain(`name="__cases_pick" value="${ids.waiting}"`);
    expect(opened).toContain(`name="__cases_pick" value="${ids.harbour}"`);
    expect(opened).toContain(`name="__cases_pick" value="${ids.none}"`);

    const searched = await (await form({ __cases_open: "cases", __cases_search: "HARLINGEN", "cases[0]": ids.waiting })).text();
    expect(searched).toContain(`name="__cases_pick" value="${ids.harbour}"`);
    expect(searched).not.toContain(`name="__cases_pick" value="${ids.none}"`);
    expect(inputValue(searched, "__cases_search")).toBe("HARLINGEN");
    const nothing = await (await form({ __cases_open: "cases", __cases_search: "zeppelin", "cases[0]": ids.waiting })).text();
    expect(nothing).toContain("No case matches");

    const added = await form({ __cases_add: "cases", __cases_pick: ids.harbour, "cases[0]": ids.waiting });
    expect(added.status).toBe(200);
    const addedHtml = await added.text();
    expect(addedHtml).not.toContain('class="cases-picker"');
    expect(inputValue(addedHtml, "cases[0]")).toBe(ids.waiting);
    expect(inputValue(addedHtml, "cases[1]")).toBe(ids.harbour);
    expect(inputValue(addedHtml, "title")).toBe("Morning");

    const closed = await (await form({ __cases_close: "cases", __cases_pick: ids.none, "cases[0]": ids.waiting })).text();
    expect(closed).not.toContain('class="cases-picker"');
    expect(inputValue(closed, "cases[1]")).toBeUndefined();

    const save = await form({ "cases[0]": ids.waiting, "cases[1]": ids.harbour });
    expect(save.status).toBe(302);
    const location = save.headers.get("Location")!;
    const contentId = /\/b\/vc-sessions\/([0-9a-f-]{36})\/latest/.exec(location)![1];
    const document = (await (await api(`/api/v1/buckets/vc-sessions/content/${contentId}/latest`)).json()) as Record<string, unknown>;
    expect(document).toMatchObject({ title: "Morning", count: 3, cases: [ids.waiting, ids.harbour] });
  });

  it("drops picker buttons that name anything but a video-cases field, and ids that are not ids", async () => {
    const html = await (await form({ __cases_add: "cases", __cases_pick: "<script>", "cases[0]": ids.waiting })).text();
    expect(inputValue(html, "cases[1]")).toBeUndefined();
    expect(html).not.toContain("<script>");
    const wrongField = await form({ __cases_open: "title" });
    expect(wrongField.status).toBe(302); // not a picker: the post saves as usual
  });
});

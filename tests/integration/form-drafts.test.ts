/**
 * Popup sub-forms without JavaScript (server/content/drafts.ts): the popup's button keeps the form's unsaved input as
 * a draft bound to the user, opens the referenced document's own page with a return token, and that page's save
 * comes back to the form with the input restored and the saved document selected. A draft is another user's to
 * nobody, expires, returns only to the form's own local path, and hostile input is refused.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Bucket } from "@server/content/buckets";
import { isLocalPath, pickForDraft } from "@server/content/drafts";
import { createTestBucket, decode, signedInUser } from "@tests/support/fixtures";
import { get, postForm } from "@tests/support/http";
import { startTestServer, type TestServer } from "@tests/support/server";

let server: TestServer;
let artists: Bucket;
let works: Bucket;
let editor: { cookie: string; user: { id: string } };
let stranger: { cookie: string; user: { id: string } };

beforeAll(async () => {
  server = await startTestServer();
  artists = await createTestBucket(server.db, {
    locales: ["en"],
    jsonSchema: { type: "object", required: ["name"], properties: { name: { type: "string", title: "Name", isNotEmpty: true } } },
  });
  works = await createTestBucket(server.db, {
    locales: ["en"],
    jsonSchema: {
      type: "object",
      properties: {
        title: { type: "string", title: "Title" },
        year: { type: "integer", title: "Year" },
        artist: { type: "string", title: "Artist", _ref: artists.collectionName, renderer: "popup" },
      },
    },
  });
  editor = await signedInUser(server.url, server.db);
  stranger = await signedInUser(server.url, server.db);
});
afterAll(() => server.stop());

const inputValue = (html: string, name: string) =>
  new RegExp(
    `<input[^>]*name="${name.replace(/[.[\]]/g, "\\$&")}"[^>]*value="([^"]*)"|<input[^>]*value="([^"]*)"[^>]*name="${name.replace(/[.[\]]/g, "\\$&")}"`,
  )
    .exec(html)
    ?.slice(1)
    .find((value): value is string => typeof value === "string") ?? null;
/** The value of the chosen option of the <select name="…"> (a popup field without JavaScript is the reference select). */
const selectedValue = (html: string, name: string) => {
  const options = new RegExp(`<select[^>]*name="${name.replace(/[.[\]]/g, "\\$&")}"[^>]*>([\\s\\S]*?)</select>`).exec(html)?.[1] ?? "";
  const chosen = /<option[^>]*selected=""[^>]*>/.exec(options)?.[0] ?? "";
  return /value="([^"]*)"/.exec(chosen)?.[1] ?? null;
};
const tokenOf = (location: string | null, parameter: string) => new URL(location ?? "/", server.url).searchParams.get(parameter);

/** The popup's no-JavaScript button on a new work with some unsaved input: the draft's token and where it leads. */
async function leave(cookie = editor.cookie, fields: Record<string, string> = {}) {
  const response = await postForm(
    server.url,
    `/b/${works.slug}/new`,
    { __contentId: "", __baseVersionId: "", title: "Unsaved title", year: "1889", artist: "", __openSubForm: "artist", ...fields },
    cookie,
  );
  return { response, location: response.headers.get("location"), token: tokenOf(response.headers.get("location"), "return") };
}

async function draftRows() {
  const { rows } = await server.db.query<{ count: number }>("SELECT count(*)::int AS count FROM form_drafts");
  return rows[0]!.count;
}

describe("popup sub-form without JavaScript: the round trip", () => {
  it("keeps the input, creates the artist on its own page and comes back with it selected", async () => {
    const { response, location, token } = await leave();
    expect(response.status).toBe(302);
    expect(location).toMatch(new RegExp(`^/b/${artists.slug}/new\\?return=[A-Za-z0-9_-]+$`));

    const artistPage = decode(await (await get(server.url, location!, editor.cookie)).text());
    expect(inputValue(artistPage, "__return")).toBe(token);
    expect(artistPage).toContain("After saving you return to the form you came from.");

    // A refused save keeps the return token in the re-rendered form.
    const refused = await postForm(
      server.url,
      `/b/${artists.slug}/new`,
      { __contentId: "", __baseVersionId: "", __return: token!, name: "" },
      editor.cookie,
    );
    expect(refused.status).toBe(400);
    expect(inputValue(decode(await refused.text()), "__return")).toBe(token);

    const saved = await postForm(
      server.url,
      `/b/${artists.slug}/new`,
      { __contentId: "", __baseVersionId: "", __return: token!, name: "Vincent" },
      editor.cookie,
    );
    expect(saved.status).toBe(302);
    expect(saved.headers.get("location")).toBe(`/b/${works.slug}/new?draft=${token}`);
    const { rows } = await server.db.query<{ contentId: string }>(`SELECT content_id AS "contentId" FROM contents WHERE bucket_id = $1`, [
      artists.id,
    ]);
    const artistId = rows.at(-1)!.contentId;

    const back = decode(await (await get(server.url, saved.headers.get("location")!, editor.cookie)).text());
    expect(back).toContain("Your unsaved input was restored.");
    expect(inputValue(back, "title")).toBe("Unsaved title");
    expect(inputValue(back, "year")).toBe("1889");
    expect(selectedValue(back, "artist")).toBe(artistId);
    expect(back).toContain("Vincent");
  });

  it("opens the referenced document's latest version when the field names one", async () => {
    const created = await postForm(
      server.url,
      `/b/${artists.slug}/new`,
      { __contentId: "", __baseVersionId: "", name: "Gauguin" },
      editor.cookie,
    );
    const artistId = /\/([0-9a-f-]{36})\/latest/.exec(created.headers.get("location") ?? "")![1]!;
    const { location } = await leave(editor.cookie, { artist: artistId });
    expect(location).toMatch(new RegExp(`^/b/${artists.slug}/${artistId}/latest\\?return=`));
  });

  it("returns to an edit page with the version it started from, so someone else's save in between is a conflict", async () => {
    const created = await postForm(
      server.url,
      `/b/${works.slug}/new`,
      { __contentId: "", __baseVersionId: "", title: "Sunflowers" },
      editor.cookie,
    );
    const workId = /\/([0-9a-f-]{36})\/latest/.exec(created.headers.get("location") ?? "")![1]!;
    const {
      rows: [first],
    } = await server.db.query<{ versionId: string }>(`SELECT latest_version_id AS "versionId" FROM contents WHERE content_id = $1`, [
      workId,
    ]);
    const left = await postForm(
      server.url,
      `/b/${works.slug}/${workId}/latest`,
      { __contentId: workId, __baseVersionId: first!.versionId, title: "Sunflowers (mine)", artist: "", __openSubForm: "artist" },
      editor.cookie,
    );
    const token = tokenOf(left.headers.get("location"), "return")!;
    const other = await postForm(
      server.url,
      `/b/${works.slug}/${workId}/latest`,
      { __contentId: workId, __baseVersionId: first!.versionId, title: "Sunflowers (theirs)" },
      stranger.cookie,
    );
    expect(other.status).toBe(302);
    const saved = await postForm(
      server.url,
      `/b/${artists.slug}/new`,
      { __contentId: "", __baseVersionId: "", __return: token, name: "Theo" },
      editor.cookie,
    );
    expect(saved.headers.get("location")).toBe(`/b/${works.slug}/${workId}/latest?draft=${token}`);
    const back = decode(await (await get(server.url, saved.headers.get("location")!, editor.cookie)).text());
    expect(inputValue(back, "title")).toBe("Sunflowers (mine)");
    expect(inputValue(back, "__baseVersionId")).toBe(first!.versionId);
    const again = await postForm(
      server.url,
      `/b/${works.slug}/${workId}/latest`,
      { __contentId: workId, __baseVersionId: first!.versionId, title: "Sunflowers (mine)", artist: selectedValue(back, "artist")! },
      editor.cookie,
    );
    expect(again.status).toBe(409);
  });

  it("restores a draft only for its own user and only before it expires", async () => {
    const { token } = await leave();
    const other = decode(await (await get(server.url, `/b/${works.slug}/new?draft=${token}`, stranger.cookie)).text());
    expect(other).toContain("Your unsaved input could not be restored");
    expect(other).not.toContain("Unsaved title");
    // The stranger's save on the artist page with the editor's token neither returns there nor marks the draft.
    const strangerSave = await postForm(
      server.url,
      `/b/${artists.slug}/new`,
      { __contentId: "", __baseVersionId: "", __return: token!, name: "Stranger" },
      stranger.cookie,
    );
    expect(strangerSave.headers.get("location")).toMatch(new RegExp(`^/b/${artists.slug}/[0-9a-f-]{36}/latest\\?saved$`));
    const { rows } = await server.db.query<{ picked: string | null }>(
      "SELECT picked FROM form_drafts WHERE user_id = $1 ORDER BY created_at DESC LIMIT 1",
      [editor.user.id],
    );
    expect(rows[0]!.picked).toBeNull();

    await server.db.query("UPDATE form_drafts SET expires_at = now() - interval '1 second' WHERE user_id = $1", [editor.user.id]);
    const expired = decode(await (await get(server.url, `/b/${works.slug}/new?draft=${token}`, editor.cookie)).text());
    expect(expired).toContain("Your unsaved input could not be restored");
    expect(expired).not.toContain("Unsaved title");
    const before = await draftRows();
    await leave(); // a new draft sweeps the expired ones
    expect(await draftRows()).toBeLessThan(before + 1);
  });

  it("never redirects anywhere but a local path", async () => {
    for (const path of ["//evil.example", "/\\evil.example", "https://evil.example/", "evil", "/b//x", "/b/x y"])
      expect(isLocalPath(path)).toBe(false);
    expect(isLocalPath(`/b/${works.slug}/new`)).toBe(true);
    // A row whose return path is not local (written by something else than the server) is never followed.
    const { token } = await leave();
    await server.db.query("UPDATE form_drafts SET return_path = '//evil.example' WHERE user_id = $1 AND picked IS NULL", [editor.user.id]);
    expect(await pickForDraft(server.db, token, editor.user.id, "6f1c1f55-7a43-4c55-9b0e-1d2b3c4d5e6f")).toBeNull();
    const saved = await postForm(
      server.url,
      `/b/${artists.slug}/new`,
      { __contentId: "", __baseVersionId: "", __return: token!, name: "Local only" },
      editor.cookie,
    );
    expect(saved.headers.get("location")).toMatch(new RegExp(`^/b/${artists.slug}/[0-9a-f-]{36}/latest\\?saved$`));
  });

  it("refuses hostile input: a field that is no popup sub-form, a prototype name, malformed tokens", async () => {
    const before = await draftRows();
    expect((await leave(editor.cookie, { __openSubForm: "title" })).response.status).toBe(400);
    expect((await leave(editor.cookie, { __openSubForm: "__proto__" })).response.status).toBe(400);
    expect((await leave(editor.cookie, { __openSubForm: "nothing[0].here" })).response.status).toBe(400);
    expect((await leave(editor.cookie, { __openSubForm: "", __openNewSubForm: "title" })).response.status).toBe(400);
    expect(await draftRows()).toBe(before);
    for (const token of ["..%2F..%2Fetc", "x", "%3Cscript%3E", "a".repeat(500)]) {
      const page = await get(server.url, `/b/${works.slug}/new?draft=${token}`, editor.cookie);
      expect(page.status).toBe(200);
      expect(decode(await page.text())).toContain("Your unsaved input could not be restored");
      const artistPage = decode(await (await get(server.url, `/b/${artists.slug}/new?return=${token}`, editor.cookie)).text());
      expect(inputValue(artistPage, "__return")).toBeNull();
    }
  });
});

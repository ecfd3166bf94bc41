import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Bucket } from "@server/content/buckets";
import { createContent } from "@server/content/store";
import { startTestServer, type TestServer } from "@tests/support/server";
import { get, inputValue, postForm, postJson } from "@tests/support/http";
import {
  clientState,
  createTestBucket,
  decode,
  errorPage,
  homeBucketLinks,
  page,
  signedInUser,
  topBarBucketLinks,
} from "@tests/support/fixtures";

/*
 * Route guards of spec §4 (auth, isAdmin, allowSignup), bucket visibility of
 * spec §6, every route of spec §2 answering a proper page, the legacy
 * redirects, and no open redirect through from_url or redirect_to.
 * Sign-in itself, signup and sessions have their own files.
 */

const NOT_FOUND = "This page could not be found";

let server: TestServer;
let artworks: Bucket;
let secret: Bucket;
let doc: { contentId: string; versionId: string };
let member: string;
let admin: string;
let restricted: string;

beforeAll(async () => {
  server = await startTestServer();
  artworks = await createTestBucket(server.db, { slug: "artworks", name: "Artworks", position: 1 });
  await createTestBucket(server.db, { slug: "site", name: "Site settings", singleton: true, position: 2 });
  await createTestBucket(server.db, { slug: "archive", name: "Archive", position: 3 });
  secret = await createTestBucket(server.db, { slug: "secret", name: "Secret plans", private: true, position: 4 });
  doc = await createContent(server.db, artworks.id, { title: "Mudflats" }, null);
  await createContent(server.db, secret.id, { title: "Hidden" }, null);
  member = (await signedInUser(server.url, server.db, { name: "Member Mia" })).cookie;
  admin = (await signedInUser(server.url, server.db, { name: "Admin Ada", permissions: ["user", "admin"] })).cookie;
  restricted = (await signedInUser(server.url, server.db, { name: "Restricted Rob", buckets: ["artworks", "secret"] })).cookie;
});
afterAll(() => server.stop());

const loginFor = (path: string) => `/login?from_url=${encodeURIComponent(path)}`;

/** Status and Location of a GET, the body discarded. */
async function probe(path: string, cookie?: string) {
  const response = await get(server.url, path, cookie);
  await response.body?.cancel();
  return { status: response.status, location: response.headers.get("location") };
}

describe("auth guard (spec §4): anonymous visitors", () => {
  it("go to /login with from_url holding the encoded full path, query included", async () => {
    const paths = [
      "/profile",
      "/settings",
      "/settings/users/42",
      "/b/artworks",
      "/b/artworks?page=2&q=mud%2Fflat%26sea",
      "/b/artworks/new",
      "/b/caf%C3%A9/edit",
      "/shareables?x=1&y=%2F",
      "/dle-sessies/artworks/new",
      "/no-access",
      "/media",
      "/media?kind=image&q=harbour",
      "/media/7d0c5e2e-95c9-4a41-9d5f-0c7f1b0c0e11",
    ];
    for (const path of paths) {
      expect(await probe(path), path).toEqual({ status: 302, location: loginFor(path) });
    }
  });

  it("go to plain /login, without from_url, from /", async () => {
    expect(await probe("/")).toEqual({ status: 302, location: "/login" });
  });

  it("land back on the full path after signing in through the form the redirect leads to", async () => {
    const target = "/b/artworks?page=1&q=mud";
    const { location } = await probe(target);
    const login = await page(server.url, location!);
    expect(login.status).toBe(200);
    expect(inputValue(login.html, "from_url")).toBe(target);
    const user = await signedInUser(server.url, server.db);
    const response = await postForm(server.url, "/login", { email: user.user.email, password: user.user.password, from_url: target });
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe(target);
  });

  it("may open the public pages: /login, /password-reset, /password-reset/{id} and /support", async () => {
    // An unknown reset link is a page of its own (404: 'This password reset link is not valid'), not the error page.
    const expected: Record<string, number> = { "/login": 200, "/password-reset": 200, "/password-reset/abc123": 404, "/support": 200 };
    for (const [path, expectedStatus] of Object.entries(expected)) {
      const { status, html } = await page(server.url, path);
      expect(status, path).toBe(expectedStatus);
      expect(errorPage(html), path).toBeNull();
    }
  });

  it("get 401 JSON from the API instead of a redirect", async () => {
    for (const path of ["/api/v1/buckets/artworks/schema", `/api/v1/buckets/artworks/content/${doc.contentId}/latest`]) {
      const response = await get(server.url, path);
      expect(response.status, path).toBe(401);
      expect(await response.json()).toEqual({ error: "Sign in first" });
    }
  });
});

describe("auth guard (spec §4): a signed-in user without the user permission", () => {
  it("goes to /no-access from every signed-in page, whatever other permissions they have", async () => {
    for (const permissions of [[], ["dev"], ["admin", "dev"]] as const) {
      const { cookie } = await signedInUser(server.url, server.db, { permissions: [...permissions] });
      for (const path of ["/", "/profile", "/b/artworks", "/b/artworks/new", "/style", "/shareables", "/sessies/artworks"]) {
        expect(await probe(path, cookie), `${permissions.join(",")} ${path}`).toEqual({ status: 302, location: "/no-access" });
      }
    }
  });

  it("sees the /no-access page itself (200), with a way to sign out, and no bucket links", async () => {
    const { cookie } = await signedInUser(server.url, server.db, { permissions: ["dev"] });
    const { status, html } = await page(server.url, "/no-access", cookie);
    expect(status).toBe(200);
    expect(html).toContain("No access");
    expect(html).toMatch(/<a[^>]*href="\/logout"/);
    expect(topBarBucketLinks(html)).toBeNull();
    expect((await clientState(html)).buckets).toEqual([]);
  });

  it("gets 403 from the API", async () => {
    const { cookie } = await signedInUser(server.url, server.db, { permissions: [] });
    const response = await get(server.url, "/api/v1/buckets/artworks/schema", cookie);
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({ error: "Your account has no access to Vitrine" });
  });

  it("a user who has the permission is sent from /no-access to /", async () => {
    expect(await probe("/no-access", member)).toEqual({ status: 302, location: "/" });
  });
});

describe("isAdmin guard (spec §4): /settings and everything under it", () => {
  const SETTINGS = [
    "/settings",
    "/settings/invite-user",
    "/settings/new-client",
    "/settings/buckets",
    "/settings/buckets/artworks",
    "/settings/users",
    "/settings/users/42",
  ];

  it("sends anonymous visitors to /login with from_url", async () => {
    for (const path of SETTINGS) expect(await probe(path), path).toEqual({ status: 302, location: loginFor(path) });
  });

  it("sends a signed-in user who is not both user and admin to /, which says why", async () => {
    const adminOnly = (await signedInUser(server.url, server.db, { permissions: ["admin"] })).cookie;
    const dev = (await signedInUser(server.url, server.db, { permissions: ["user", "dev"] })).cookie;
    for (const cookie of [member, dev, adminOnly]) {
      for (const path of SETTINGS) expect(await probe(path, cookie), path).toEqual({ status: 302, location: "/?notice=admin-only" });
    }
    const english = await page(server.url, "/?notice=admin-only", member);
    expect(decode(english.html)).toContain("Settings are for administrators. Ask an administrator if you need access.");
    const dutch = await page(server.url, "/?notice=admin-only", member, { "Accept-Language": "nl" });
    expect(decode(dutch.html)).toContain("Instellingen zijn alleen voor beheerders. Vraag een beheerder als je toegang nodig hebt.");
    // Home on its own says nothing of the kind.
    expect(decode((await page(server.url, "/", member)).html)).not.toContain("Settings are for administrators");
  });

  it("lets an admin in (200, a page, not an error)", async () => {
    for (const path of SETTINGS.filter((path) => path !== "/settings/users/42")) {
      const { status, html } = await page(server.url, path, admin);
      expect(status, path).toBe(200);
      expect(errorPage(html), path).toBeNull();
    }
    // A user id that is not one is a user that does not exist.
    expect((await page(server.url, "/settings/users/42", admin)).status).toBe(404);
  });
});

describe("allowSignup guard (spec §4)", () => {
  it("with ALLOW_SIGNUP=false, /signup sends everyone to /login, and the client state says signup is off", async () => {
    const off = await startTestServer({ env: { ALLOW_SIGNUP: "false" } });
    try {
      const response = await get(off.url, "/signup");
      expect(response.status).toBe(302);
      expect(response.headers.get("location")).toBe("/login");
      const posted = await postForm(off.url, "/signup", {
        name: "X",
        email: "x@example.test",
        password: "long enough pw",
        invitationCode: "x",
      });
      expect(posted.status).toBe(302);
      expect(posted.headers.get("location")).toBe("/login");
      const login = await page(off.url, "/login");
      expect((await clientState(login.html)).config.auth.web.allowSignup).toBe(false);
    } finally {
      await off.stop();
    }
  });

  it("with ALLOW_SIGNUP=yes, /signup shows its form, and the client state says signup is on", async () => {
    const on = await startTestServer({ env: { ALLOW_SIGNUP: "yes" } });
    try {
      const signup = await page(on.url, "/signup");
      expect(signup.status).toBe(200);
      expect(inputValue(signup.html, "invitationCode")).toBeNull();
      expect((await clientState(signup.html)).config.auth.web.allowSignup).toBe(true);
    } finally {
      await on.stop();
    }
  });
});

describe("bucket visibility (spec §6)", () => {
  it("never lists a private bucket, not even to an admin", async () => {
    for (const cookie of [member, admin, restricted]) {
      const { html } = await page(server.url, "/", cookie);
      const state = await clientState(html);
      expect(state.buckets.map((bucket) => bucket.slug)).not.toContain("secret");
      expect(topBarBucketLinks(html)!.map((link) => link.text)).not.toContain("Secret plans");
      expect(homeBucketLinks(html).map((link) => link.text)).not.toContain("Secret plans");
    }
  });

  it("lists every non-private bucket to a user without a buckets list, in order", async () => {
    const { html } = await page(server.url, "/", member);
    expect((await clientState(html)).buckets.map((bucket) => bucket.slug)).toEqual(["artworks", "site", "archive"]);
    expect(topBarBucketLinks(html)!.map((link) => link.text)).toEqual(["Artworks", "Site settings", "Archive"]);
  });

  it("lists only the buckets of a user's buckets list (and still no private one)", async () => {
    const { html } = await page(server.url, "/", restricted);
    expect((await clientState(html)).buckets.map((bucket) => bucket.slug)).toEqual(["artworks"]);
    expect(topBarBucketLinks(html)).toEqual([{ href: "/b/artworks", text: "Artworks" }]);
    expect(homeBucketLinks(html)).toEqual([{ href: "/b/artworks", text: "Artworks" }]);
  });

  it("lists no buckets to anonymous visitors", async () => {
    const { html } = await page(server.url, "/login");
    const state = await clientState(html);
    expect(state.user).toBeNull();
    expect(state.buckets).toEqual([]);
  });

  const bucketPages = (slug: string, contentId: string, versionId: string) => [
    `/b/${slug}`,
    `/b/${slug}/new`,
    `/b/${slug}/edit`,
    `/b/${slug}/${contentId}/latest`,
    `/b/${slug}/${contentId}/${versionId}`,
    `/b/${slug}/duplicate/${contentId}/latest`,
    `/dle-content/${slug}/new`,
    `/dle-content/${slug}/edit`,
    `/dle-content/${slug}/${contentId}/${versionId}`,
    `/dle-sessies/${slug}`,
    `/dle-sessies/${slug}/new`,
    `/dle-sessies/${slug}/${contentId}/${versionId}`,
    `/sessies/${slug}`,
    `/sessies/${slug}/new`,
    `/sessies/${slug}/${contentId}/${versionId}`,
    `/trend/${slug}/new`,
    `/trend/${slug}/${contentId}/${versionId}`,
  ];

  async function expectNotFound(path: string, cookie: string) {
    const { status, html } = await page(server.url, path, cookie);
    expect(status, path).toBe(404);
    expect(errorPage(html), path).toEqual({ status: "404", message: NOT_FOUND });
    expect(html, path).not.toContain("Secret plans");
    expect(html, path).not.toContain("Hidden");
  }

  it("answers 404 'This page could not be found' on every page of a private bucket, as for an unknown one", async () => {
    const { rows } = await server.db.query<{ content_id: string; latest_version_id: string }>(
      "SELECT content_id, latest_version_id FROM contents WHERE bucket_id = $1",
      [secret.id],
    );
    const hidden = rows[0]!;
    for (const cookie of [admin, restricted]) {
      for (const path of bucketPages("secret", hidden.content_id, hidden.latest_version_id)) await expectNotFound(path, cookie);
    }
    for (const path of bucketPages("no-such-bucket", doc.contentId, doc.versionId)) await expectNotFound(path, admin);
  });

  it("answers 404 on the pages of a bucket left out of the user's buckets list", async () => {
    for (const path of bucketPages("archive", doc.contentId, doc.versionId)) await expectNotFound(path, restricted);
    await expectNotFound("/b/site/edit", restricted);
  });

  it("answers 404 JSON from the API for a hidden bucket", async () => {
    const calls: Array<[string, () => Promise<Response>]> = [
      ["schema", () => get(server.url, "/api/v1/buckets/secret/schema", restricted)],
      ["content", () => get(server.url, `/api/v1/buckets/archive/content/${doc.contentId}/latest`, restricted)],
      ["list", () => get(server.url, "/api/v1/buckets/any/content?collection=secret", admin)],
      ["save", () => postJson(server.url, "/api/v1/buckets/secret/save", { content: { title: "x" } }, admin)],
    ];
    for (const [name, call] of calls) {
      const response = await call();
      expect(response.status, name).toBe(404);
      expect(await response.json(), name).toEqual({ error: "No such bucket" });
    }
    const { rows } = await server.db.query<{ count: number }>("SELECT count(*)::int AS count FROM contents WHERE bucket_id = $1", [
      secret.id,
    ]);
    expect(rows[0]!.count).toBe(1);
  });
});

describe("every route of spec §2 answers a proper page", () => {
  it("a specialised screen's route for a bucket of another screen answers 404, never a placeholder", async () => {
    const paths = [
      "/dle-content/artworks/new",
      "/dle-content/artworks/edit",
      `/dle-content/artworks/${doc.contentId}/latest`,
      `/dle-content/artworks/${doc.contentId}/${doc.versionId}`,
      "/dle-sessies/artworks",
      "/dle-sessies/artworks/new",
      `/dle-sessies/artworks/${doc.contentId}/latest`,
      "/sessies/artworks",
      "/sessies/artworks/new",
      `/sessies/artworks/${doc.contentId}/${doc.versionId}`,
      "/trend/artworks/new",
      `/trend/artworks/${doc.contentId}/latest`,
    ];
    for (const cookie of [member, admin]) {
      for (const path of paths) {
        const { status, html } = await page(server.url, path, cookie);
        expect(status, path).toBe(404);
        expect(errorPage(html), path).toEqual({ status: "404", message: NOT_FOUND });
        expect(html, path).not.toContain("data-placeholder");
      }
    }
  });

  it("/profile and /support answer 200 with their page and the top bar, for a user and an admin", async () => {
    for (const cookie of [member, admin]) {
      for (const path of ["/profile", "/support"]) {
        const { status, html } = await page(server.url, path, cookie);
        expect(status, path).toBe(200);
        expect(errorPage(html), path).toBeNull();
        expect(html, path).not.toContain("data-placeholder");
        expect(html, path).toContain('<header class="top-bar">');
      }
    }
  });

  it("bucket screens answer 200 for a document that exists", async () => {
    const paths = [
      "/",
      "/b/artworks",
      "/b/artworks/new",
      "/b/site/edit",
      `/b/artworks/${doc.contentId}/latest`,
      `/b/artworks/${doc.contentId}/${doc.versionId}`,
      `/b/artworks/duplicate/${doc.contentId}/latest`,
    ];
    for (const path of paths) {
      const { status, html } = await page(server.url, path, member);
      expect(status, path).toBe(200);
      expect(errorPage(html), path).toBeNull();
    }
  });

  it("unknown routes answer the 404 error page, signed in or not; unknown API paths answer JSON", async () => {
    for (const cookie of [undefined, member]) {
      for (const path of ["/nope", "/b", "/settings/nope/deeper", "/b/artworks/a/b/c/d"]) {
        const { status, html } = await page(server.url, path, cookie);
        expect(status, path).toBe(404);
        expect(errorPage(html), path).toEqual({ status: "404", message: NOT_FOUND });
      }
    }
    const api = await get(server.url, "/api/v1/nope", member);
    expect(api.status).toBe(404);
    expect(await api.json()).toEqual({ error: "Not found" });
  });
});

describe("legacy optional-parameter routes (spec §2)", () => {
  const legacy = (): Array<[string, string]> => {
    const { contentId: c, versionId: v } = doc;
    return [
      ["/b/artworks/form", "/b/artworks/new"],
      [`/b/artworks/form/${c}`, `/b/artworks/${c}/latest`],
      [`/b/artworks/form/${c}/${v}`, `/b/artworks/${c}/${v}`],
      ["/overview", "/"],
      ["/overview/artworks", "/b/artworks"],
      ["/dle-content-form", "/"],
      ["/dle-content-form/artworks", "/dle-content/artworks/new"],
      [`/dle-content-form/artworks/${c}/${v}`, `/dle-content/artworks/${c}/${v}`],
      ["/dle-sessies-form/artworks", "/dle-sessies/artworks/new"],
      [`/dle-sessies-form/artworks/${c}/${v}`, `/dle-sessies/artworks/${c}/${v}`],
      ["/dle-sessies-index", "/"],
      ["/dle-sessies-index/artworks", "/dle-sessies/artworks"],
      ["/sessies-form/artworks", "/sessies/artworks/new"],
      [`/sessies-form/artworks/${c}/${v}`, `/sessies/artworks/${c}/${v}`],
      ["/sessies-index/artworks", "/sessies/artworks"],
      ["/trend-form/artworks", "/trend/artworks/new"],
      [`/trend-form/artworks/${c}/${v}`, `/trend/artworks/${c}/${v}`],
    ];
  };

  it("redirect permanently to their current routes", async () => {
    for (const [from, to] of legacy()) expect(await probe(from, member), from).toEqual({ status: 301, location: to });
  });

  it("lead to a page that answers 200 for a bucket of their screen, and 404 for a bucket of another screen", async () => {
    for (const [from, to] of legacy()) {
      const { status, html } = await page(server.url, to, member);
      const specialised = !to.startsWith("/b/") && to !== "/";
      expect(status, `${from} → ${to}`).toBe(specialised ? 404 : 200);
      expect(errorPage(html), to).toEqual(specialised ? { status: "404", message: NOT_FOUND } : null);
    }
    const cases = { type: "array", renderer: "video-cases", items: { type: "string", _ref: "artworks" } };
    const schema = { type: "object", properties: { title: { type: "string" }, cases } };
    for (const screen of ["sessies", "dle-sessies", "dle-content", "trend"] as const) {
      const bucket = await createTestBucket(server.db, { screen, jsonSchema: schema });
      const { contentId, versionId } = await createContent(server.db, bucket.id, { title: "On its screen" }, null);
      const forms = { sessies: "sessies-form", "dle-sessies": "dle-sessies-form", "dle-content": "dle-content-form", trend: "trend-form" };
      for (const from of [
        `/${forms[screen]}/${bucket.slug}`,
        `/${forms[screen]}/${bucket.slug}/${contentId}/${versionId}`,
        `/b/${bucket.slug}/form/${contentId}`,
      ]) {
        const response = await fetch(new URL(from, server.url), { headers: { cookie: member }, redirect: "follow" });
        expect(response.status, from).toBe(200);
        expect(new URL(response.url).pathname.startsWith(`/${screen}/${bucket.slug}/`), `${from} → ${response.url}`).toBe(true);
      }
    }
  });

  it("without a bucket lead home, with a trailing slash too", async () => {
    for (const path of ["/dle-sessies-form", "/sessies-form", "/sessies-index", "/trend-form", "/overview/"]) {
      expect(await probe(path, member), path).toEqual({ status: 301, location: "/" });
    }
  });

  it("encode the bucket they carry, so a crafted one cannot point off the site", async () => {
    expect(await probe("/overview/%2F%2Fevil.example", member)).toEqual({ status: 301, location: "/b/%2F%2Fevil.example" });
    expect(await probe("/trend-form/%2F%2Fevil.example", member)).toEqual({ status: 301, location: "/trend/%2F%2Fevil.example/new" });
  });

  // A singleton's create form would be empty and its save refused (409): its legacy form means its one document.
  // A private singleton redirects like any other bucket, so the redirect does not tell that it exists.
  it("of a singleton bucket lead to its one document at /b/{bucket}/edit; of a hidden bucket, as for any other", async () => {
    await createTestBucket(server.db, { slug: "legacy-vault", name: "Vault", singleton: true, private: true, position: 30 });
    expect(await probe("/b/site/form", member)).toEqual({ status: 301, location: "/b/site/edit" });
    expect(await probe("/b/artworks/form", member)).toEqual({ status: 301, location: "/b/artworks/new" });
    expect(await probe("/b/legacy-vault/form", member)).toEqual({ status: 301, location: "/b/legacy-vault/new" });
  });
});

describe("no open redirect", () => {
  const HOSTILE = [
    "https://evil.example/x",
    "http:/evil.example",
    "//evil.example",
    "///evil.example",
    "/\\evil.example",
    "\\/evil.example",
    "\\\\evil.example",
    "/\t/evil.example",
    "/\n/evil.example",
    " //evil.example",
    "javascript:alert(1)",
    "evil.example",
  ];

  it("a signed-in visitor of /login?from_url=… goes to / for a target off this site", async () => {
    for (const target of HOSTILE) {
      expect(await probe(`/login?from_url=${encodeURIComponent(target)}`, member), JSON.stringify(target)).toEqual({
        status: 302,
        location: "/",
      });
    }
  });

  it("the login form of an anonymous visitor carries / instead of a target off this site", async () => {
    for (const target of HOSTILE) {
      const { status, html } = await page(server.url, `/login?from_url=${encodeURIComponent(target)}`);
      expect(status).toBe(200);
      expect(inputValue(html, "from_url"), JSON.stringify(target)).toBe("/");
    }
  });

  it("the form posts that send the browser back (locale, IE notice, index view) go to / for a target off this site", async () => {
    const { cookie } = await signedInUser(server.url, server.db);
    const posts: Array<[string, Record<string, string>]> = [
      ["/session/locale", { locale: "en" }],
      ["/internet-explorer/hide", {}],
      ["/session/index-view", { view: "grid" }],
    ];
    for (const [path, fields] of posts) {
      for (const target of HOSTILE) {
        const response = await postForm(server.url, path, { ...fields, redirect_to: target }, cookie);
        expect(response.status, `${path} ${JSON.stringify(target)}`).toBe(302);
        expect(response.headers.get("location"), `${path} ${JSON.stringify(target)}`).toBe("/");
      }
      const home = await postForm(server.url, path, { ...fields, redirect_to: "/b/artworks?page=2" }, cookie);
      expect(home.headers.get("location"), path).toBe("/b/artworks?page=2");
    }
  });
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "@tests/support/server";
import {
  clientState,
  createTestBucket,
  errorPage,
  homeBucketLinks,
  metaContent,
  page,
  pageTitle,
  signedInUser,
  topBar,
  topBarBucketLinks,
} from "@tests/support/fixtures";

/* The layout of spec §2: top bar, bucket links and their collapse, the user menu, the page head, home. */

const DESCRIPTION = "CMS Project for Yipp exhibits";
const BACK_TO_OVERVIEW = /<a class="back-to-overview" href="\/"[^>]*>Back to overview<\/a>/;

let server: TestServer;
let member: string;
let admin: string;
/** A user whose buckets list names two of the buckets. */
let restricted: string;

beforeAll(async () => {
  server = await startTestServer();
  member = (await signedInUser(server.url, server.db, { name: "Member Mia" })).cookie;
  admin = (await signedInUser(server.url, server.db, { name: "Admin Ada", permissions: ["user", "admin"] })).cookie;
  restricted = (await signedInUser(server.url, server.db, { name: "Restricted Rob", buckets: ["b1", "b8"] })).cookie;
});
afterAll(() => server.stop());

describe("with no buckets", () => {
  it("home says there is nothing to see yet, and the top bar has no bucket links", async () => {
    const { status, html } = await page(server.url, "/", member);
    expect(status).toBe(200);
    expect(html).toContain("There are no buckets you can see yet. Ask an admin for access.");
    expect(homeBucketLinks(html)).toEqual([]);
    expect(topBarBucketLinks(html)).toBeNull();
  });
});

describe("the top bar", () => {
  it("shows the brand, linking home, on every page, signed in or not", async () => {
    for (const [path, cookie] of [
      ["/login", undefined],
      ["/", member],
      ["/profile", member],
      ["/nope", member],
    ] as const) {
      expect(topBar((await page(server.url, path, cookie)).html), path).toMatch(/<a class="brand" href="\/"[^>]*>Vitrine<\/a>/);
    }
  });

  it("has a user menu that opens without JavaScript (details/summary) with the user's name, Profile and Signout", async () => {
    const bar = topBar((await page(server.url, "/", member)).html);
    const menu = /<details class="user-menu">([\s\S]*?)<\/details>/.exec(bar)?.[1];
    expect(menu).toBeDefined();
    expect(menu).toMatch(/<summary[^>]*>Member Mia<\/summary>/);
    expect(menu).toMatch(/<a[^>]*href="\/profile"[^>]*>Profile<\/a>/);
    expect(menu).toMatch(/<a[^>]*href="\/logout"[^>]*>Signout<\/a>/);
    expect(menu).not.toContain('href="/settings"');
  });

  it("offers Settings in the user menu to admins only", async () => {
    const bar = topBar((await page(server.url, "/", admin)).html);
    const menu = /<details class="user-menu">([\s\S]*?)<\/details>/.exec(bar)![1]!;
    expect(menu).toMatch(/<summary[^>]*>Admin Ada<\/summary>/);
    expect([...menu.matchAll(/<a[^>]*href="([^"]*)"[^>]*>([^<]*)<\/a>/g)].map((match) => [match[1], match[2]])).toEqual([
      ["/profile", "Profile"],
      ["/settings", "Settings"],
      ["/logout", "Signout"],
    ]);
  });

  it("keeps the spec's menu for a publisher, who finds Releases on home instead; an editor without publish sees no Releases link", async () => {
    const publisher = (await signedInUser(server.url, server.db, { name: "Pia Publisher", permissions: ["user", "publish"] })).cookie;
    const html = (await page(server.url, "/", publisher)).html;
    const menu = /<details class="user-menu">([\s\S]*?)<\/details>/.exec(topBar(html))![1]!;
    expect([...menu.matchAll(/<a[^>]*href="([^"]*)"[^>]*>/g)].map((match) => match[1])).toEqual(["/profile", "/logout"]);
    expect(html).toMatch(/<p class="home-releases"><a href="\/releases">Releases<\/a>/);
    expect((await page(server.url, "/", member)).html).not.toContain('href="/releases"');
  });

  it("has no user menu and no bucket links for an anonymous visitor", async () => {
    const bar = topBar((await page(server.url, "/login")).html);
    expect(bar).not.toContain("user-menu");
    expect(bar).not.toContain("bucket-links");
  });
});

describe("the page head", () => {
  it("titles home and the 404 page '{page} · Vitrine', with the spec's description (every page: page-titles.test.ts)", async () => {
    for (const [path, cookie, title] of [
      ["/", member, "Content · Vitrine"],
      ["/nope", member, "Page not found · Vitrine"],
    ] as const) {
      const { html } = await page(server.url, path, cookie);
      expect(pageTitle(html), path).toBe(title);
      expect(metaContent(html, "description"), path).toBe(DESCRIPTION);
    }
  });

  it("keeps the description on pages that set their own title", async () => {
    const { html } = await page(server.url, "/login");
    expect(pageTitle(html)).toContain("Vitrine");
    expect(metaContent(html, "description")).toBe(DESCRIPTION);
    const settings = await page(server.url, "/settings", admin);
    expect(pageTitle(settings.html)).toBe("Settings · Vitrine");
    expect(metaContent(settings.html, "description")).toBe(DESCRIPTION);
    const profile = await page(server.url, "/profile", member);
    expect(pageTitle(profile.html)).toBe("Profile · Vitrine");
    expect(metaContent(profile.html, "description")).toBe(DESCRIPTION);
  });

  it("uses PRODUCT_NAME for the title and the brand", async () => {
    const branded = await startTestServer({ env: { PRODUCT_NAME: "Museum <CMS> & Co" } });
    try {
      const { cookie } = await signedInUser(branded.url, branded.db);
      const { html } = await page(branded.url, "/", cookie);
      expect(pageTitle(html)).toBe("Content · Museum <CMS> & Co");
      expect(topBar(html)).toContain('class="brand" href="/" data-discover="true">Museum &lt;CMS&gt; &amp; Co</a>');
      expect(metaContent(html, "description")).toBe(DESCRIPTION);
      expect((await clientState(html)).config.productName).toBe("Museum <CMS> & Co");
      expect(pageTitle((await page(branded.url, "/login")).html)).toContain("Museum <CMS> & Co");
    } finally {
      await branded.stop();
    }
  });
});

describe("with 7 visible buckets (and some hidden ones)", () => {
  beforeAll(async () => {
    for (let i = 1; i <= 7; i += 1) {
      await createTestBucket(server.db, { slug: `b${i}`, name: `Bucket ${i}`, singleton: i === 3, position: i });
    }
    // Private buckets are never visible, so they do not count towards the 7.
    await createTestBucket(server.db, { slug: "private-1", name: "Private one", private: true, position: 20 });
    await createTestBucket(server.db, { slug: "private-2", name: "Private two", private: true, position: 21 });
  });

  const expected = () => [1, 2, 3, 4, 5, 6, 7].map((i) => ({ href: i === 3 ? "/b/b3/edit" : `/b/b${i}`, text: `Bucket ${i}` }));

  it("shows one top-bar link per bucket, a singleton linking to its edit page", async () => {
    expect(topBarBucketLinks((await page(server.url, "/", member)).html)).toEqual(expected());
  });

  it("shows the links on every page and no 'Back to overview'", async () => {
    for (const path of ["/", "/profile", "/b/b1", "/nope"]) {
      const { html } = await page(server.url, path, member);
      expect(topBarBucketLinks(html), path).toEqual(expected());
      expect(html, path).not.toMatch(BACK_TO_OVERVIEW);
    }
  });

  it("lists the same buckets on home", async () => {
    expect(homeBucketLinks((await page(server.url, "/", member)).html)).toEqual(
      expected().map((link) => (link.href === "/b/b3/edit" ? { ...link, text: "Bucket 3 Single document" } : link)),
    );
  });
});

describe("with 8 visible buckets", () => {
  beforeAll(async () => {
    await createTestBucket(server.db, { slug: "b8", name: "Bucket 8", position: 8 });
  });

  it("collapses the top-bar links", async () => {
    for (const path of ["/", "/profile", "/b/b1"]) {
      expect(topBarBucketLinks((await page(server.url, path, member)).html), path).toBeNull();
    }
  });

  it("shows 'Back to overview' on every page except home", async () => {
    expect((await page(server.url, "/", member)).html).not.toMatch(BACK_TO_OVERVIEW);
    const pages: Array<[string, string]> = [
      ["/profile", member],
      ["/b/b1", member],
      ["/b/b1/new", member],
      ["/b/b3/edit", member],
      ["/support", member],
      ["/settings/users", admin],
      ["/nope", member],
    ];
    for (const [path, cookie] of pages) {
      const { html } = await page(server.url, path, cookie);
      expect(html, path).toMatch(BACK_TO_OVERVIEW);
    }
  });

  it("still lists every visible bucket on home", async () => {
    const { html } = await page(server.url, "/", member);
    expect(homeBucketLinks(html).map((link) => link.href)).toEqual([
      "/b/b1",
      "/b/b2",
      "/b/b3/edit",
      "/b/b4",
      "/b/b5",
      "/b/b6",
      "/b/b7",
      "/b/b8",
    ]);
  });

  it("counts only the buckets the user may see: a user with a buckets list of 2 gets 2 links", async () => {
    for (const path of ["/", "/profile"]) {
      const { html } = await page(server.url, path, restricted);
      expect(topBarBucketLinks(html), path).toEqual([
        { href: "/b/b1", text: "Bucket 1" },
        { href: "/b/b8", text: "Bucket 8" },
      ]);
      expect(html, path).not.toMatch(BACK_TO_OVERVIEW);
    }
    expect(homeBucketLinks((await page(server.url, "/", restricted)).html).map((link) => link.href)).toEqual(["/b/b1", "/b/b8"]);
  });

  it("shows the error page inside the same layout", async () => {
    const { status, html } = await page(server.url, "/nope", member);
    expect(status).toBe(404);
    expect(errorPage(html)).toEqual({ status: "404", message: "This page could not be found" });
    expect(topBar(html)).toContain("Member Mia");
  });
});

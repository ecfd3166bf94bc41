import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "@tests/support/server";
import { cookieFrom, get, postForm, postJson } from "@tests/support/http";
import {
  CHROME_UA,
  clientState,
  createTestBucket,
  EDGE_UA,
  FIREFOX_UA,
  htmlLang,
  IE10_UA,
  IE11_UA,
  IE9_UA,
  page,
  SAFARI_UA,
  signedInUser,
} from "@tests/support/fixtures";

/*
 * Client state of spec §4 served with the first render, the Internet Explorer
 * notices (spec §2), the index view and the language choice.
 */

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
  await createTestBucket(server.db, { slug: "artworks", name: "Artworks", position: 1 });
  await createTestBucket(server.db, { slug: "site", name: "Site", singleton: true, position: 2 });
  await createTestBucket(server.db, { slug: "vault", name: "Vault", private: true, position: 3 });
});
afterAll(() => server.stop());

/** The IE notice of a page: its title and text, or null when the page shows none. */
function ieNotice(html: string): { title: string; text: string } | null {
  const dialog = /<div class="modal"[^>]*role="dialog"[^>]*>([\s\S]*?)<\/form><\/div>/.exec(html)?.[1];
  if (!dialog) return null;
  return {
    title: /<h2 id="ie-warning-title">([^<]*)<\/h2>/.exec(dialog)?.[1] ?? "",
    text: /<p>([^<]*)<\/p>/.exec(dialog)?.[1] ?? "",
  };
}

/** The cookie after a call that may have replaced it. */
const next = (response: Response, previous?: string) => cookieFrom(response) ?? previous;

describe("client state in the first render (spec §4)", () => {
  it("carries buckets, user, config and the session's preferences for a signed-in user", async () => {
    const { user, cookie } = await signedInUser(server.url, server.db, { name: "State Stella" });
    const { html } = await page(server.url, "/", cookie);
    const state = await clientState(html);
    expect(state.user).toEqual({ id: user.id, name: "State Stella", email: user.email, permissions: ["user"], buckets: null });
    expect(state.buckets).toEqual([
      { _id: expect.any(String), slug: "artworks", name: "Artworks", singleton: false, screen: "generic" },
      { _id: expect.any(String), slug: "site", name: "Site", singleton: true, screen: "generic" },
    ]);
    expect(state.config).toEqual({ productName: "Vitrine", defaultLocale: "en", auth: { web: { allowSignup: false } } });
    expect(state).toMatchObject({ hideIEWarning: false, indexView: "list", lastVisitedPageNumber: 1, locale: "en" });
  });

  it("never carries a password hash or a session token", async () => {
    const { user, cookie } = await signedInUser(server.url, server.db);
    const { html } = await page(server.url, "/", cookie);
    const { rows } = await server.db.query<{ password_hash: string }>("SELECT password_hash FROM users WHERE id = $1", [user.id]);
    expect(html).not.toContain(rows[0]!.password_hash);
    expect(html).not.toContain("password");
    expect(html).not.toContain("token");
  });

  it("has no user and no buckets for an anonymous visitor, but the config", async () => {
    const state = await clientState((await page(server.url, "/login")).html);
    expect(state.user).toBeNull();
    expect(state.buckets).toEqual([]);
    expect(state.config.defaultLocale).toBe("en");
  });
});

describe("Internet Explorer notices (spec §2), in Dutch", () => {
  it("IE 9 and 10 are told the site is unusable, with Firefox, Chrome or Edge suggested", async () => {
    for (const ua of [IE9_UA, IE10_UA]) {
      const { html } = await page(server.url, "/login", undefined, { "User-Agent": ua });
      const notice = ieNotice(html);
      expect(notice?.title, ua).toBe("Let op!");
      expect(notice?.text, ua).toMatch(/onbruikbaar/);
      expect(notice?.text, ua).toMatch(/Firefox, Chrome of Edge/);
      expect(html, ua).toMatch(/<div class="modal"[^>]*lang="nl"/);
    }
  });

  it("IE 11 is warned that the site does not work optimally", async () => {
    const { html } = await page(server.url, "/login", undefined, { "User-Agent": IE11_UA });
    const notice = ieNotice(html);
    expect(notice?.title).toBe("Let op!");
    expect(notice?.text).toMatch(/niet optimaal/);
    expect(notice?.text).not.toMatch(/onbruikbaar/);
  });

  it("modern browsers, and requests without a user agent, see no notice", async () => {
    for (const ua of [CHROME_UA, EDGE_UA, FIREFOX_UA, SAFARI_UA, ""]) {
      const { html } = await page(server.url, "/login", undefined, { "User-Agent": ua });
      expect(ieNotice(html), ua).toBeNull();
      expect((await clientState(html)).ieVersion, ua).toBeNull();
    }
  });

  it("is shown to signed-in users on every page", async () => {
    const { cookie } = await signedInUser(server.url, server.db);
    for (const path of ["/", "/profile", "/b/artworks", "/nope"]) {
      const { html } = await page(server.url, path, cookie, { "User-Agent": IE11_UA });
      expect(ieNotice(html)?.title, path).toBe("Let op!");
    }
  });

  it("hiding it with a plain form post redirects back and stores hideIEWarning in the session: gone after that", async () => {
    const ie = { "User-Agent": IE9_UA };
    const first = await page(server.url, "/login?from_url=%2Fprofile", undefined, ie);
    expect(first.html).toMatch(
      /<form[^>]*action="\/internet-explorer\/hide"[^>]*method="post"|<form[^>]*method="post"[^>]*action="\/internet-explorer\/hide"/,
    );
    const hide = await postForm(server.url, "/internet-explorer/hide", { redirect_to: "/login?from_url=%2Fprofile" }, undefined, ie);
    expect(hide.status).toBe(302);
    expect(hide.headers.get("location")).toBe("/login?from_url=%2Fprofile");
    const cookie = cookieFrom(hide)!;
    const after = await page(server.url, "/login", cookie, ie);
    expect(ieNotice(after.html)).toBeNull();
    expect((await clientState(after.html)).hideIEWarning).toBe(true);
    // Without the session it shows again: the flag lives in the session, not in the browser.
    expect(ieNotice((await page(server.url, "/login", undefined, ie)).html)).not.toBeNull();
  });

  it("hiding it through fetch (JSON) answers 204 and stores the flag too", async () => {
    const ie = { "User-Agent": IE11_UA };
    const hide = await postJson(server.url, "/internet-explorer/hide", {}, undefined, ie);
    expect(hide.status).toBe(204);
    const after = await page(server.url, "/login", cookieFrom(hide)!, ie);
    expect(ieNotice(after.html)).toBeNull();
  });

  it("stays hidden through sign-in and sign-out, and hiding keeps a signed-in user signed in", async () => {
    const ie = { "User-Agent": IE11_UA };
    const hidden = cookieFrom(await postForm(server.url, "/internet-explorer/hide", {}, undefined, ie))!;
    const { user } = await signedInUser(server.url, server.db);
    const signIn = await postForm(server.url, "/login", { email: user.email, password: user.password }, hidden, ie);
    expect(signIn.status).toBe(302);
    const signedIn = cookieFrom(signIn)!;
    const home = await page(server.url, "/", signedIn, ie);
    expect(home.status).toBe(200);
    expect(ieNotice(home.html)).toBeNull();
    const signOut = await get(server.url, "/logout", signedIn, ie);
    expect(ieNotice((await page(server.url, "/login", cookieFrom(signOut)!, ie)).html)).toBeNull();

    const { cookie } = await signedInUser(server.url, server.db);
    const hideSignedIn = await postJson(server.url, "/internet-explorer/hide", {}, cookie, ie);
    const stillSignedIn = await page(server.url, "/", cookieFrom(hideSignedIn)!, ie);
    expect(stillSignedIn.status).toBe(200);
    expect(ieNotice(stillSignedIn.html)).toBeNull();
  });
});

describe("POST /session/index-view (spec §7)", () => {
  it("stores list or grid in the session; the choice is in the client state of the next page", async () => {
    let { cookie } = await signedInUser(server.url, server.db);
    for (const view of ["grid", "list", "grid"] as const) {
      const response = await postJson(server.url, "/session/index-view", { view }, cookie);
      expect(response.status, view).toBe(204);
      cookie = next(response, cookie)!;
      expect((await clientState((await page(server.url, "/", cookie)).html)).indexView, view).toBe(view);
    }
  });

  it("works as a plain form post, redirecting back", async () => {
    const { cookie } = await signedInUser(server.url, server.db);
    const response = await postForm(server.url, "/session/index-view", { view: "grid", redirect_to: "/b/artworks" }, cookie);
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/b/artworks");
    expect((await clientState((await page(server.url, "/", cookieFrom(response)!)).html)).indexView).toBe("grid");
  });

  it("accepts only list or grid: anything else is 400 and keeps the stored choice", async () => {
    const { cookie: start } = await signedInUser(server.url, server.db);
    const grid = await postJson(server.url, "/session/index-view", { view: "grid" }, start);
    const cookie = cookieFrom(grid)!;
    for (const view of ["table", "GRID", "", " list", null, 1, ["list"], { list: true }]) {
      const response = await postJson(server.url, "/session/index-view", { view }, cookie);
      expect(response.status, JSON.stringify(view)).toBe(400);
      expect(await response.json()).toEqual({ error: "view must be list or grid" });
      expect(response.headers.get("set-cookie")).toBeNull();
    }
    const missing = await postForm(server.url, "/session/index-view", {}, cookie);
    expect(missing.status).toBe(400);
    const malformed = await postJson(server.url, "/session/index-view", "{view", cookie);
    expect(malformed.status).toBe(400);
    expect((await clientState((await page(server.url, "/", cookie)).html)).indexView).toBe("grid");
  });
});

describe("language (remix-i18next): the stored choice, else Accept-Language, else DEFAULT_LOCALE", () => {
  it("follows Accept-Language when nothing is stored, in <html lang> and in the text", async () => {
    const dutch = await page(server.url, "/login", undefined, { "Accept-Language": "nl-NL,nl;q=0.9,en;q=0.5" });
    expect(htmlLang(dutch.html)).toBe("nl");
    expect(dutch.html).toContain("<h1>Inloggen</h1>");
    const english = await page(server.url, "/login", undefined, { "Accept-Language": "en-GB,en;q=0.8" });
    expect(htmlLang(english.html)).toBe("en");
    expect(english.html).toContain("<h1>Sign in</h1>");
  });

  it("falls back to DEFAULT_LOCALE (en) without Accept-Language or with an unsupported one", async () => {
    for (const headers of [{}, { "Accept-Language": "fr-FR,de;q=0.8" }] as Record<string, string>[]) {
      const { html } = await page(server.url, "/login", undefined, headers);
      expect(htmlLang(html)).toBe("en");
    }
  });

  it("a stored choice (POST /session/locale) beats Accept-Language, and can be changed back", async () => {
    const chosen = await postForm(server.url, "/session/locale", { locale: "nl", redirect_to: "/login" }, undefined, {
      "Accept-Language": "en",
    });
    expect(chosen.status).toBe(302);
    expect(chosen.headers.get("location")).toBe("/login");
    const cookie = cookieFrom(chosen)!;
    const dutch = await page(server.url, "/login", cookie, { "Accept-Language": "en-US,en;q=0.9" });
    expect(htmlLang(dutch.html)).toBe("nl");
    expect(dutch.html).toContain("<h1>Inloggen</h1>");
    expect((await clientState(dutch.html)).locale).toBe("nl");

    const back = await postJson(server.url, "/session/locale", { locale: "en_US" }, cookie, { "Accept-Language": "nl" });
    expect(back.status).toBe(204);
    expect(htmlLang((await page(server.url, "/login", cookieFrom(back)!, { "Accept-Language": "nl" })).html)).toBe("en");
  });

  it("a signed-in user's choice is kept for their next session", async () => {
    const { user, cookie } = await signedInUser(server.url, server.db);
    const chosen = await postJson(server.url, "/session/locale", { locale: "nl" }, cookie);
    expect(chosen.status).toBe(204);
    const fresh = await postJson(server.url, "/auth/login", { email: user.email, password: user.password }, undefined, {
      "Accept-Language": "en",
    });
    const home = await page(server.url, "/", cookieFrom(fresh)!, { "Accept-Language": "en" });
    expect(htmlLang(home.html)).toBe("nl");
  });

  it("refuses a language other than en or nl with 400", async () => {
    for (const locale of ["fr", "", "xx_NL"]) {
      const response = await postJson(server.url, "/session/locale", { locale });
      expect(response.status, locale).toBe(400);
      expect(await response.json()).toEqual({ error: "locale must be en or nl" });
    }
  });

  it("offers the other language as a form post that works without JavaScript", async () => {
    const { html } = await page(server.url, "/login?from_url=%2Fprofile");
    const form = /<form[^>]*class="language-switch"[^>]*>([\s\S]*?)<\/form>/.exec(html);
    expect(form?.[0]).toMatch(/action="\/session\/locale"/);
    expect(form?.[0]).toMatch(/method="post"/);
    expect(form?.[1]).toContain('<input type="hidden" name="locale" value="nl"/>');
    expect(form?.[1]).toContain('<input type="hidden" name="redirect_to" value="/login?from_url=%2Fprofile"/>');
  });

  describe("with DEFAULT_LOCALE=nl", () => {
    let dutchServer: TestServer;
    beforeAll(async () => {
      dutchServer = await startTestServer({ env: { DEFAULT_LOCALE: "nl_NL" } });
    });
    afterAll(() => dutchServer.stop());

    it("speaks Dutch when the browser names no supported language, and English when it asks for it", async () => {
      const dutch = await page(dutchServer.url, "/login", undefined, { "Accept-Language": "fr" });
      expect(htmlLang(dutch.html)).toBe("nl");
      expect((await clientState(dutch.html)).config.defaultLocale).toBe("nl");
      expect(htmlLang((await page(dutchServer.url, "/login")).html)).toBe("nl");
      expect(htmlLang((await page(dutchServer.url, "/login", undefined, { "Accept-Language": "en" })).html)).toBe("en");
    });
  });
});

import { get as httpGet, type IncomingHttpHeaders } from "node:http";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { version } from "../../package.json";
import type { Bucket } from "@server/content/buckets";
import { createContent } from "@server/content/store";
import { startTestServer, type TestServer } from "@tests/support/server";
import { cookieFrom, createTestUser, get, homeWith, postForm, postJson, sameOrigin } from "@tests/support/http";
import { clientState, createTestBucket, cspNonce, errorPage, page, scriptNonces, signedInUser } from "@tests/support/fixtures";

/*
 * The HTTP layer (server/http.ts): CSRF refusal before any work, the body
 * limit, security headers on every kind of response, /healthz, and error
 * pages that never show internals.
 */

const CROSS_SITE_REFUSED = "Cross-site request refused: this request did not come from Vitrine itself.";
const TOO_LARGE = "Request body too large: the limit is 1048576 bytes.";
const MIB = 1024 * 1024;

let server: TestServer;
let bucket: Bucket;
let member: Awaited<ReturnType<typeof createTestUser>>;
let cookie: string;

beforeAll(async () => {
  server = await startTestServer();
  bucket = await createTestBucket(server.db, { slug: "artworks", name: "Artworks" });
  member = await createTestUser(server.db, { name: "Member Mia" });
  cookie = (await signedInUser(server.url, server.db, { name: "Signed-in Sam" })).cookie;
});
afterAll(() => server.stop());

async function count(table: "sessions" | "rate_limits" | "versions"): Promise<number> {
  const { rows } = await server.db.query<{ count: number }>(`SELECT count(*)::int AS count FROM ${table}`);
  return rows[0]!.count;
}

describe("CSRF: state-changing requests from another site", () => {
  const crossSite: Array<[string, Record<string, string>]> = [
    ["Sec-Fetch-Site: cross-site", { "Sec-Fetch-Site": "cross-site" }],
    ["a foreign Origin", { Origin: "https://evil.example" }],
    ["Origin: null (sandboxed frame, data: URL)", { Origin: "null" }],
    ["the same host on another port", { Origin: "http://127.0.0.1:1" }],
    ["a foreign Origin with Sec-Fetch-Site: same-site", { Origin: "https://sub.evil.example", "Sec-Fetch-Site": "same-site" }],
  ];

  it.each(crossSite)("a sign-in with the right password and %s gets 403: no session, no cookie", async (_name, headers) => {
    const sessions = await count("sessions");
    for (const response of [
      await postJson(server.url, "/auth/login", { email: member.email, password: member.password }, undefined, headers),
      await postForm(server.url, "/login", { email: member.email, password: member.password }, undefined, headers),
    ]) {
      expect(response.status).toBe(403);
      expect(await response.text()).toBe(CROSS_SITE_REFUSED);
      expect(response.headers.get("set-cookie")).toBeNull();
    }
    expect(await count("sessions")).toBe(sessions);
  });

  it("a refused sign-in with a wrong password counts no failure towards the rate limits", async () => {
    const before = await count("rate_limits");
    for (const [, headers] of crossSite) {
      const response = await postJson(server.url, "/auth/login", { email: member.email, password: "wrong password" }, undefined, headers);
      expect(response.status).toBe(403);
    }
    expect(await count("rate_limits")).toBe(before);
  });

  it("refuses cross-site sign-out, preference changes, saves and deletes, changing nothing", async () => {
    const doc = await createContent(server.db, bucket.id, { title: "Keep me" }, null);
    const versions = await count("versions");
    const headers = { "Sec-Fetch-Site": "cross-site", Origin: "https://evil.example" };
    const attempts = [
      () => postForm(server.url, "/logout", {}, cookie, headers),
      () => postForm(server.url, "/session/locale", { locale: "nl" }, cookie, headers),
      () => postForm(server.url, "/session/index-view", { view: "grid" }, cookie, headers),
      () => postForm(server.url, "/internet-explorer/hide", {}, cookie, headers),
      () => postJson(server.url, `/api/v1/buckets/${bucket.slug}/save`, { content: { title: "Forged" } }, cookie, headers),
      () =>
        fetch(`${server.url}/api/v1/buckets/${bucket.slug}/content/${doc.contentId}/${doc.versionId}`, {
          method: "DELETE",
          headers: { Cookie: cookie, ...headers },
        }),
    ];
    for (const attempt of attempts) {
      const response = await attempt();
      expect(response.status).toBe(403);
      expect(response.headers.get("set-cookie")).toBeNull();
      await response.body?.cancel();
    }
    expect(await homeWith(server.url, cookie)).toBe("signed in");
    const state = await clientState((await page(server.url, "/", cookie)).html);
    expect(state).toMatchObject({ locale: "en", indexView: "list", hideIEWarning: false });
    expect(await count("versions")).toBe(versions);
    expect((await get(server.url, `/api/v1/buckets/${bucket.slug}/content/${doc.contentId}/latest`, cookie)).status).toBe(200);
  });

  it("accepts the same origin, and API clients that send neither Origin nor Sec-Fetch-Site", async () => {
    const sameOrigin = await postJson(server.url, "/auth/login", { email: member.email, password: member.password }, undefined, {
      Origin: server.url,
      "Sec-Fetch-Site": "same-origin",
    });
    expect(sameOrigin.status).toBe(200);
    expect(await homeWith(server.url, cookieFrom(sameOrigin)!)).toBe("signed in");
    const typed = await postForm(server.url, "/login", { email: member.email, password: member.password }, undefined, {
      "Sec-Fetch-Site": "none",
    });
    expect(typed.status).toBe(302);
    const plain = await postJson(server.url, "/auth/login", { email: member.email, password: member.password });
    expect(plain.status).toBe(200);
  });

  it("never refuses a GET: a link from another site opens the page", async () => {
    const response = await get(server.url, "/login", undefined, { "Sec-Fetch-Site": "cross-site", Origin: "https://evil.example" });
    expect(response.status).toBe(200);
  });

  describe("with PUBLIC_URL set (behind a reverse proxy)", () => {
    let proxied: TestServer;
    let user: Awaited<ReturnType<typeof createTestUser>>;
    beforeAll(async () => {
      proxied = await startTestServer({ env: { PUBLIC_URL: "https://cms.example.test" } });
      user = await createTestUser(proxied.db);
    });
    afterAll(() => proxied.stop());

    it("accepts PUBLIC_URL's origin and the host's own, and nothing that merely resembles them", async () => {
      const signIn = (origin: string) =>
        postJson(proxied.url, "/auth/login", { email: user.email, password: user.password }, undefined, { Origin: origin });
      for (const origin of ["https://cms.example.test", proxied.url]) {
        const response = await signIn(origin);
        expect(response.status, origin).toBe(200);
        await response.body?.cancel();
      }
      const sessions = await proxied.db.query<{ count: number }>("SELECT count(*)::int AS count FROM sessions");
      for (const origin of [
        "http://cms.example.test",
        "https://cms.example.test:8443",
        "https://cms.example.test.evil.example",
        "https://evil.example",
      ]) {
        const response = await signIn(origin);
        expect(response.status, origin).toBe(403);
        await response.body?.cancel();
      }
      const after = await proxied.db.query<{ count: number }>("SELECT count(*)::int AS count FROM sessions");
      expect(after.rows[0]!.count).toBe(sessions.rows[0]!.count);
    });
  });
});

describe("cross-site writes: a cookie-authenticated write must say where it comes from", () => {
  /** A write as a script outside any browser could send it: the cookie, and only the headers given. */
  const bareWrite = (
    path: string,
    method: string,
    withCookie: string | undefined,
    headers: Record<string, string> = {},
    body: BodyInit = "locale=nl",
  ) =>
    fetch(`${server.url}${path}`, {
      method,
      redirect: "manual",
      headers: { "Content-Type": "application/x-www-form-urlencoded", ...(withCookie ? { Cookie: withCookie } : {}), ...headers },
      body,
    });

  it("refuses POST, PUT and DELETE that carry the session cookie and no Origin, Referer or Sec-Fetch-Site: 403, nothing changed", async () => {
    const { cookie: own } = await signedInUser(server.url, server.db, { name: "Headerless Hugo" });
    const doc = await createContent(server.db, bucket.id, { title: "Keep me too" }, null);
    const versions = await count("versions");
    const attempts = [
      () => bareWrite("/session/locale", "POST", own),
      () => bareWrite("/logout", "POST", own, {}, ""),
      () =>
        bareWrite(
          `/api/v1/buckets/${bucket.slug}/save`,
          "POST",
          own,
          { "Content-Type": "application/json" },
          JSON.stringify({ content: { title: "Forged" } }),
        ),
      () => bareWrite(`/api/v1/buckets/${bucket.slug}/content/${doc.contentId}/${doc.versionId}`, "DELETE", own, {}, ""),
      () =>
        bareWrite(
          `/api/v1/media/video/${doc.contentId}/thumb`,
          "PUT",
          own,
          { "Content-Type": "application/json" },
          JSON.stringify({ thumb: 1 }),
        ),
      () => bareWrite("/profile", "POST", own, {}, "intent=signOutEverywhere"),
    ];
    for (const attempt of attempts) {
      const response = await attempt();
      expect(response.status).toBe(403);
      expect(await response.text()).toBe(CROSS_SITE_REFUSED);
      expect(response.headers.get("set-cookie")).toBeNull();
    }
    expect(await homeWith(server.url, own)).toBe("signed in");
    expect(await clientState((await page(server.url, "/", own)).html)).toMatchObject({ locale: "en" });
    expect(await count("versions")).toBe(versions);
  });

  it("refuses a foreign Referer when there is no Origin, and a Referer that is no URL", async () => {
    for (const referer of ["https://evil.example/page", "http://127.0.0.1:1/", "not a url"]) {
      const response = await bareWrite("/session/locale", "POST", cookie, { Referer: referer });
      expect(response.status, referer).toBe(403);
      await response.body?.cancel();
    }
  });

  it("accepts the same write with the page's Origin, a same-origin Referer, or a Sec-Fetch-Site that is not cross-site", async () => {
    const { cookie: own } = await signedInUser(server.url, server.db);
    const shown: Array<Record<string, string>> = [
      { Origin: server.url },
      { Referer: `${server.url}/b/${bucket.slug}` },
      { "Sec-Fetch-Site": "same-origin" },
    ];
    for (const headers of shown) {
      const response = await bareWrite("/session/locale", "POST", own, headers);
      expect(response.status, JSON.stringify(headers)).toBe(302);
      await response.body?.cancel();
    }
  });

  it("still accepts writes without the cookie and without those headers: a script signing in, an API call", async () => {
    const response = await postJson(server.url, "/auth/login", { email: member.email, password: member.password });
    expect(response.status).toBe(200);
    const anonymous = await bareWrite("/session/locale", "POST", undefined);
    expect(anonymous.status).toBe(302);
    await anonymous.body?.cancel();
  });

  it("counts the cookie whatever it holds: a signed-out browser's cookie without an origin is refused too", async () => {
    const signedOut = cookieFrom(await get(server.url, "/logout", cookie.replace(/=.*/, "=x")));
    const withStaleCookie = await bareWrite("/session/locale", "POST", signedOut ?? "vitrine_session=x");
    expect(withStaleCookie.status).toBe(403);
    await withStaleCookie.body?.cancel();
  });
});

describe("no GET changes state, except the spec's /logout link", () => {
  it("the session calls and the sign-in and signup calls answer 405 to GET, setting no cookie", async () => {
    const sessions = await count("sessions");
    const paths = [
      "/internet-explorer/hide",
      "/session/index-view?view=grid",
      "/session/locale?locale=nl",
      `/auth/login?email=${encodeURIComponent(member.email)}&password=${encodeURIComponent(member.password)}`,
      "/auth/signup",
    ];
    for (const path of paths) {
      const response = await get(server.url, path, cookie);
      expect(response.status, path).toBe(405);
      expect(response.headers.get("set-cookie"), path).toBeNull();
      expect(((await response.json()) as { error: string }).error, path).toMatch(/^Method not allowed: POST/);
    }
    expect(await count("sessions")).toBe(sessions);
    const state = await clientState((await page(server.url, "/", cookie)).html);
    expect(state).toMatchObject({ locale: "en", indexView: "list", hideIEWarning: false });
  });

  it("GET /logout signs out", async () => {
    const { cookie: own } = await signedInUser(server.url, server.db);
    const response = await get(server.url, "/logout", own);
    expect(response.status).toBe(302);
    expect(await homeWith(server.url, own)).toBe("/login");
  });
});

describe("the body limit (1 MiB, docs/configuration.md)", () => {
  it("is documented", () => {
    expect(readFileSync("docs/configuration.md", "utf8")).toContain("| form and JSON bodies | 1 MiB (413 above) |");
  });

  it("refuses a larger form body with 413 before signing in or counting a failure", async () => {
    const [sessions, failures] = [await count("sessions"), await count("rate_limits")];
    const response = await postForm(server.url, "/login", { email: member.email, password: "x".repeat(MIB + 1) });
    expect(response.status).toBe(413);
    expect(await response.text()).toBe(TOO_LARGE);
    const api = await postJson(server.url, "/auth/login", { email: member.email, password: "x".repeat(MIB) });
    expect(api.status).toBe(413);
    expect(await count("sessions")).toBe(sessions);
    expect(await count("rate_limits")).toBe(failures);
  });

  it("refuses a larger body sent without Content-Length (chunked) too", async () => {
    const failures = await count("rate_limits");
    const body = new TextEncoder().encode(JSON.stringify({ email: member.email, password: "x".repeat(MIB) }));
    const response = await fetch(`${server.url}/auth/login`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: new ReadableStream({
        start(controller) {
          for (let offset = 0; offset < body.length; offset += 64 * 1024) controller.enqueue(body.subarray(offset, offset + 64 * 1024));
          controller.close();
        },
      }),
      duplex: "half",
    } as RequestInit);
    expect(response.status).toBe(413);
    expect(await response.text()).toBe(TOO_LARGE);
    expect(await count("rate_limits")).toBe(failures);
  });

  it("accepts a body just under the limit, with or without Content-Length", async () => {
    const body = JSON.stringify({ view: "grid", padding: "x".repeat(MIB - 100) });
    expect(Buffer.byteLength(body)).toBeLessThanOrEqual(MIB);
    const declared = await postJson(server.url, "/session/index-view", body, cookie);
    expect(declared.status).toBe(204);
    const chunked = await fetch(`${server.url}/session/index-view`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Cookie: cookie, ...sameOrigin(server.url) },
      body: new ReadableStream({
        start(controller) {
          controller.enqueue(new TextEncoder().encode(body));
          controller.close();
        },
      }),
      duplex: "half",
    } as RequestInit);
    expect(chunked.status).toBe(204);
    expect((await clientState((await page(server.url, "/", cookieFrom(chunked)!)).html)).indexView).toBe("grid");
  });
});

describe("security headers on every kind of response", () => {
  const SAFE_REFERRER_POLICIES = ["no-referrer", "same-origin", "strict-origin", "strict-origin-when-cross-origin"];

  function expectBaseHeaders(response: Response, what: string) {
    expect(response.headers.get("x-content-type-options"), what).toBe("nosniff");
    expect(SAFE_REFERRER_POLICIES, what).toContain(response.headers.get("referrer-policy"));
  }

  function expectAppHeaders(response: Response, what: string) {
    expectBaseHeaders(response, what);
    const csp = response.headers.get("content-security-policy") ?? "";
    expect(csp, what).toMatch(/(^|;\s*)frame-ancestors 'none'(;|$)/);
    expect(csp, what).toMatch(/(^|;\s*)script-src [^;]*'nonce-[A-Za-z0-9+/=]+'/);
    expect(csp, what).not.toMatch(/script-src[^;]*'unsafe-inline'/);
    expect(csp, what).toMatch(/(^|;\s*)object-src 'none'/);
    expect(response.headers.get("x-request-id"), what).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  }

  it("pages, redirects, error pages, API answers and refusals all carry CSP, nosniff, Referrer-Policy and a request id", async () => {
    const responses: Array<[string, () => Promise<Response>]> = [
      ["signed-in page", () => get(server.url, "/", cookie)],
      ["anonymous page", () => get(server.url, "/login")],
      ["redirect", () => get(server.url, "/profile")],
      ["404 page", () => get(server.url, "/no-such-page", cookie)],
      ["API JSON", () => get(server.url, `/api/v1/buckets/${bucket.slug}/schema`, cookie)],
      ["API error", () => get(server.url, `/api/v1/buckets/${bucket.slug}/schema`)],
      ["API 404", () => get(server.url, "/api/v1/nothing-here", cookie)],
      ["405", () => get(server.url, "/auth/login")],
      ["CSRF refusal", () => postForm(server.url, "/login", {}, undefined, { "Sec-Fetch-Site": "cross-site" })],
      ["413", () => postForm(server.url, "/login", { pad: "x".repeat(MIB + 1) })],
      ["healthz", () => get(server.url, "/healthz")],
      ["form post redirect", () => postForm(server.url, "/session/locale", { locale: "en" })],
    ];
    const ids = new Set<string>();
    for (const [what, call] of responses) {
      const response = await call();
      await response.body?.cancel();
      expectAppHeaders(response, what);
      ids.add(response.headers.get("x-request-id")!);
    }
    expect(ids.size).toBe(responses.length);
  });

  it("static files carry nosniff and Referrer-Policy; hashed assets are cached for good", async () => {
    const { html } = await page(server.url, "/login");
    const asset = /<link rel="modulepreload" href="(\/assets\/[^"]+\.js)"/.exec(html)![1]!;
    const script = await get(server.url, asset);
    expect(script.status).toBe(200);
    expectBaseHeaders(script, asset);
    expect(script.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    const icon = await get(server.url, "/favicon.svg");
    expect(icon.status).toBe(200);
    expectBaseHeaders(icon, "/favicon.svg");
    await Promise.all([script.body?.cancel(), icon.body?.cancel()]);
  });

  it("scripts and styles are sent precompressed (brotli, gzip) to browsers that accept it, the same bytes unpacked", async () => {
    const { html } = await page(server.url, "/login");
    const assets = [...html.matchAll(/(?:href|src)="(\/assets\/[^"]+\.(?:js|css))"/g)].map((match) => match[1]!);
    expect(assets.length).toBeGreaterThan(1);
    const raw = (path: string, acceptEncoding?: string) =>
      new Promise<{ headers: IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
        httpGet(`${server.url}${path}`, { headers: acceptEncoding ? { "Accept-Encoding": acceptEncoding } : {} }, (response) => {
          const chunks: Buffer[] = [];
          response.on("data", (chunk: Buffer) => chunks.push(chunk));
          response.on("end", () => resolve({ headers: response.headers, body: Buffer.concat(chunks) }));
        }).on("error", reject);
      });
    let compressedTotal = 0;
    let plainTotal = 0;
    for (const asset of assets) {
      const plain = await raw(asset);
      expect(plain.headers["content-encoding"], asset).toBeUndefined();
      if (plain.body.length < 1024) continue;
      const br = await raw(asset, "br, gzip");
      expect(br.headers["content-encoding"], asset).toBe("br");
      expect(br.headers.vary, asset).toMatch(/Accept-Encoding/i);
      expect(br.headers["cache-control"], asset).toBe("public, max-age=31536000, immutable");
      expect(brotliDecompressSync(br.body).equals(plain.body), asset).toBe(true);
      const gz = await raw(asset, "gzip");
      expect(gz.headers["content-encoding"], asset).toBe("gzip");
      expect(gunzipSync(gz.body).equals(plain.body), asset).toBe(true);
      compressedTotal += br.body.length;
      plainTotal += plain.body.length;
    }
    expect(compressedTotal).toBeLessThan(plainTotal / 2);
  });

  it("pages and JSON answers over 1 kB are compressed for clients that accept it; small ones and other clients get them plain", async () => {
    const raw = (path: string, headers: Record<string, string>) =>
      new Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
        httpGet(`${server.url}${path}`, { headers }, (response) => {
          const chunks: Buffer[] = [];
          response.on("data", (chunk: Buffer) => chunks.push(chunk));
          response.on("end", () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }));
        }).on("error", reject);
      });
    const plain = await raw("/", { Cookie: cookie });
    expect(plain.headers["content-encoding"]).toBeUndefined();
    const br = await raw("/", { Cookie: cookie, "Accept-Encoding": "gzip, deflate, br" });
    expect(br.status).toBe(200);
    expect(br.headers["content-encoding"]).toBe("br");
    expect(br.headers.vary).toMatch(/Accept-Encoding/i);
    const page = brotliDecompressSync(br.body).toString("utf8");
    expect(page).toContain("<!DOCTYPE html>");
    expect(page).toContain("</html>");
    expect(br.body.length).toBeLessThan(page.length / 2);
    const gz = await raw("/", { Cookie: cookie, "Accept-Encoding": "gzip;q=1, br;q=0" });
    expect(gz.headers["content-encoding"]).toBe("gzip");
    expect(gunzipSync(gz.body).toString("utf8")).toContain("</html>");

    const small = await raw("/healthz", { "Accept-Encoding": "br" });
    expect(small.headers["content-encoding"]).toBeUndefined();
    expect(JSON.parse(small.body.toString("utf8"))).toMatchObject({ status: "ok" });
  });

  it("every script of a page carries the nonce of that response's CSP, fresh on every request", async () => {
    const first = await page(server.url, "/", cookie);
    const second = await page(server.url, "/", cookie);
    const nonce = cspNonce(first.response);
    expect(nonce).toMatch(/^[A-Za-z0-9+/]{16,}={0,2}$/);
    expect(cspNonce(second.response)).not.toBe(nonce);
    const nonces = scriptNonces(first.html);
    expect(nonces.length).toBeGreaterThan(0);
    expect(new Set(nonces)).toEqual(new Set([nonce]));
    expect(new Set(scriptNonces(second.html))).toEqual(new Set([cspNonce(second.response)]));
  });

  it("the page's request-id meta is the X-Request-Id of its response", async () => {
    const { response, html } = await page(server.url, "/login");
    expect(html).toContain(`<meta name="request-id" content="${response.headers.get("x-request-id")}"/>`);
  });

  it("signed-in pages and API answers are Cache-Control: private, no-store", async () => {
    for (const path of ["/", "/b/artworks", "/profile", "/no-such-page", `/api/v1/buckets/${bucket.slug}/schema`]) {
      const response = await get(server.url, path, cookie);
      await response.body?.cancel();
      expect(response.headers.get("cache-control"), path).toBe("private, no-store");
    }
  });
});

describe("GET /healthz", () => {
  it("reports the database and the app version", async () => {
    const response = await get(server.url, "/healthz");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("application/json");
    expect(response.headers.get("cache-control")).toBe("private, no-store");
    expect(await response.json()).toEqual({
      status: "ok",
      database: "ok",
      databaseKind: process.env.VITRINE_TEST_DB === "postgres" ? "postgres" : "pglite",
      version,
    });
  });
});

describe("error pages", () => {
  it("an unknown page shows a big 404 and 'This page could not be found', without a reference", async () => {
    const { status, html } = await page(server.url, "/no/such/page", cookie);
    expect(status).toBe(404);
    expect(errorPage(html)).toEqual({ status: "404", message: "This page could not be found" });
    expect(html).not.toContain("error-reference");
  });

  describe("an unexpected error (the sessions table gone mid-way)", () => {
    const breakSessions = async () => {
      await server.db.exec("ALTER TABLE sessions RENAME TO sessions_gone");
      // A renamed table changes no row, so no notice empties PGlite's read cache (server/db/read-cache.ts): the
      // next request must reach the database to meet the error.
      server.db.readCache?.invalidateAll();
    };
    const restoreSessions = () => server.db.exec("ALTER TABLE sessions_gone RENAME TO sessions");

    it("shows a big 500, a generic message and the request id as reference, never a stack trace or SQL", async () => {
      await breakSessions();
      try {
        const { response, status, html } = await page(server.url, "/", cookie);
        expect(status).toBe(500);
        expect(errorPage(html)).toEqual({ status: "500", message: "Something went wrong on our side. Please try again." });
        const requestId = response.headers.get("x-request-id")!;
        expect(html).toContain(`<p class="error-reference">Reference: ${requestId}</p>`);
        for (const internal of ["sessions", "relation", "does not exist", "    at ", "node_modules", "Error:", "stack"]) {
          expect(html, internal).not.toContain(internal);
        }
        expect(response.headers.get("cache-control")).toBe("private, no-store");
      } finally {
        await restoreSessions();
      }
      expect(await homeWith(server.url, cookie)).toBe("signed in");
    });

    it("answers API clients 500 without internals too", async () => {
      await breakSessions();
      try {
        const response = await get(server.url, `/api/v1/buckets/${bucket.slug}/schema`, cookie);
        expect(response.status).toBe(500);
        const text = await response.text();
        for (const internal of ["sessions", "relation", "    at ", "node_modules"]) expect(text, internal).not.toContain(internal);
      } finally {
        await restoreSessions();
      }
    });
  });
});

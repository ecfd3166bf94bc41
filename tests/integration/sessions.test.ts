import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setUserPassword } from "@server/accounts/password-admin";
import { setPermissions } from "@server/accounts/users";
import { createCookie } from "react-router";
import { startTestServer, TEST_SESSION_SECRET, type TestServer } from "@tests/support/server";
import { cookieAttributes, cookieFrom, createTestUser, get, homeWith, postForm, postJson, signIn } from "@tests/support/http";

/* Session cookies and the server-side session record behind them. */

let server: TestServer;
let user: Awaited<ReturnType<typeof createTestUser>>;
beforeAll(async () => {
  server = await startTestServer();
  user = await createTestUser(server.db, { name: "Session Sam" });
});
afterAll(() => server.stop());

describe("the session cookie", () => {
  it("is HttpOnly, SameSite=Lax, Path=/ and not Secure over plain http (JSON and form sign-in)", async () => {
    const api = await postJson(server.url, "/auth/login", { email: user.email, password: user.password });
    const page = await postForm(server.url, "/login", { email: user.email, password: user.password });
    for (const response of [api, page]) {
      expect(cookieFrom(response)).toMatch(/^vitrine_session=.+/);
      const attributes = cookieAttributes(response);
      expect(attributes).toHaveProperty("httponly");
      expect(attributes.samesite).toBe("Lax");
      expect(attributes.path).toBe("/");
      expect(attributes).not.toHaveProperty("secure");
    }
  });

  it("is renewed at each sign-in: a new value, and the old session token stops working", async () => {
    const first = await signIn(server.url, user.email, user.password);
    expect(await homeWith(server.url, first)).toBe("signed in");

    // Signing in again on the same cookie (as a browser would send it).
    const again = await postJson(server.url, "/auth/login", { email: user.email, password: user.password }, first);
    expect(again.status).toBe(200);
    const second = cookieFrom(again)!;
    expect(second).not.toBe(first);
    expect(await homeWith(server.url, second)).toBe("signed in");
    expect(await homeWith(server.url, first)).toBe("/login");

    // The same through the /login form.
    const viaForm = await postForm(server.url, "/login", { email: user.email, password: user.password }, second);
    expect(viaForm.status).toBe(302);
    const third = cookieFrom(viaForm)!;
    expect(third).not.toBe(second);
    expect(await homeWith(server.url, third)).toBe("signed in");
    expect(await homeWith(server.url, second)).toBe("/login");
  });

  it("is signed: a tampered signature or another secret's signature counts as signed out", async () => {
    const cookie = await signIn(server.url, user.email, user.password);
    const [name, value] = [cookie.slice(0, cookie.indexOf("=")), decodeURIComponent(cookie.slice(cookie.indexOf("=") + 1))];
    const dot = value.lastIndexOf(".");
    expect(dot).toBeGreaterThan(0);
    const payload = value.slice(0, dot);
    const signature = value.slice(dot + 1);
    const flipped = (signature[0] === "A" ? "B" : "A") + signature.slice(1);
    expect(await homeWith(server.url, `${name}=${encodeURIComponent(`${payload}.${flipped}`)}`)).toBe("/login");
    expect(await homeWith(server.url, `${name}=${encodeURIComponent(payload)}`)).toBe("/login");
    // The original still works: only the signature was at fault.
    expect(await homeWith(server.url, cookie)).toBe("signed in");

    // The same session data signed with another secret is refused.
    const options = { path: "/", httpOnly: true, sameSite: "lax" as const };
    const data: unknown = await createCookie(name, { ...options, secrets: [TEST_SESSION_SECRET] }).parse(cookie);
    expect(data).toHaveProperty("token");
    const forged = await createCookie(name, { ...options, secrets: ["another-secret-that-is-at-least-32-characters"] }).serialize(data);
    expect(await homeWith(server.url, forged.split(";")[0])).toBe("/login");
    const resigned = await createCookie(name, { ...options, secrets: [TEST_SESSION_SECRET] }).serialize(data);
    expect(await homeWith(server.url, resigned.split(";")[0])).toBe("signed in");
  });

  it("expires with its server-side record", async () => {
    const other = await createTestUser(server.db);
    const cookie = await signIn(server.url, other.email, other.password);
    expect(await homeWith(server.url, cookie)).toBe("signed in");
    await server.db.query("UPDATE sessions SET expires_at = now() - interval '1 second' WHERE user_id = $1", [other.id]);
    expect(await homeWith(server.url, cookie)).toBe("/login");
  });
});

describe("the cookie over https", () => {
  let secure: TestServer;
  beforeAll(async () => {
    secure = await startTestServer({ env: { PUBLIC_URL: "https://cms.example.test" } });
  });
  afterAll(() => secure.stop());

  it("is Secure (and still HttpOnly, SameSite=Lax, Path=/) when PUBLIC_URL is https", async () => {
    const member = await createTestUser(secure.db);
    const api = await postJson(secure.url, "/auth/login", { email: member.email, password: member.password });
    expect(api.status).toBe(200);
    const page = await postForm(secure.url, "/login", { email: member.email, password: member.password });
    expect(page.status).toBe(302);
    const signedOut = await get(secure.url, "/logout", cookieFrom(page)!);
    for (const response of [api, page, signedOut]) {
      const attributes = cookieAttributes(response);
      expect(attributes).toHaveProperty("secure");
      expect(attributes).toHaveProperty("httponly");
      expect(attributes.samesite).toBe("Lax");
      expect(attributes.path).toBe("/");
    }
  });
});

describe("/logout", () => {
  it("is the user menu's 'Signout' link", async () => {
    const cookie = await signIn(server.url, user.email, user.password);
    const home = await get(server.url, "/", cookie);
    expect(await home.text()).toMatch(/<a[^>]*href="\/logout"[^>]*>Signout<\/a>/);
  });

  it("ends the session server-side: the old cookie, replayed, goes to /login", async () => {
    const cookie = await signIn(server.url, user.email, user.password);
    expect(await homeWith(server.url, cookie)).toBe("signed in");
    const logout = await get(server.url, "/logout", cookie);
    expect(logout.status).toBe(302);
    expect(logout.headers.get("location")).toBe("/login");
    const cleared = cookieFrom(logout)!;
    expect(cleared).not.toBe(cookie);
    expect(await homeWith(server.url, cleared)).toBe("/login");
    expect(await homeWith(server.url, cookie)).toBe("/login");
    expect(await homeWith(server.url, cookie)).toBe("/login");
  });

  it("ends only the session it is called with", async () => {
    const laptop = await signIn(server.url, user.email, user.password);
    const phone = await signIn(server.url, user.email, user.password);
    await (await get(server.url, "/logout", laptop)).body?.cancel();
    expect(await homeWith(server.url, laptop)).toBe("/login");
    expect(await homeWith(server.url, phone)).toBe("signed in");
  });

  it("also signs out when posted to (a form without JavaScript)", async () => {
    const cookie = await signIn(server.url, user.email, user.password);
    const logout = await postForm(server.url, "/logout", {}, cookie);
    expect(logout.status).toBe(302);
    expect(logout.headers.get("location")).toBe("/login");
    expect(await homeWith(server.url, cookie)).toBe("/login");
  });
});

describe("account changes end existing sessions at once", () => {
  it("a password change signs out every session of that user, and only that user", async () => {
    const member = await createTestUser(server.db);
    const bystander = await createTestUser(server.db);
    const laptop = await signIn(server.url, member.email, member.password);
    const phone = await signIn(server.url, member.email, member.password);
    const bystanderCookie = await signIn(server.url, bystander.email, bystander.password);

    await setUserPassword(server.db, member.id, "a brand new password", null);

    expect(await homeWith(server.url, laptop)).toBe("/login");
    expect(await homeWith(server.url, phone)).toBe("/login");
    expect(await homeWith(server.url, bystanderCookie)).toBe("signed in");

    const old = await postJson(server.url, "/auth/login", { email: member.email, password: member.password });
    expect(old.status).toBe(401);
    expect(await old.json()).toEqual({ error: "incorrect password", message: "incorrect password" });
    const fresh = await signIn(server.url, member.email, "a brand new password");
    expect(await homeWith(server.url, fresh)).toBe("signed in");
  });

  it("a granted permission signs the user out (the old cookie goes to /login, not home)", async () => {
    const member = await createTestUser(server.db);
    const cookie = await signIn(server.url, member.email, member.password);
    expect(await homeWith(server.url, cookie)).toBe("signed in");

    await setPermissions(server.db, member.id, ["user", "admin"]);

    expect(await homeWith(server.url, cookie)).toBe("/login");
    const again = await postJson(server.url, "/auth/login", { email: member.email, password: member.password });
    expect(again.status).toBe(200);
    expect(((await again.json()) as { permissions: string[] }).permissions).toEqual(["user", "admin"]);
  });

  it("a removed permission signs the user out (the old cookie goes to /login, not /no-access)", async () => {
    const member = await createTestUser(server.db);
    const cookie = await signIn(server.url, member.email, member.password);

    await setPermissions(server.db, member.id, []);

    expect(await homeWith(server.url, cookie)).toBe("/login");
    // Signed in again, the guard now sends them to /no-access.
    const fresh = await signIn(server.url, member.email, member.password);
    expect(await homeWith(server.url, fresh)).toBe("/no-access");
  });
});

describe("rotating the session secret (SESSION_SECRETS, docs/operations.md)", () => {
  const NEW_SECRET = "a-new-session-secret-that-is-at-least-32-characters";
  const options = { path: "/", httpOnly: true, sameSite: "lax" as const };

  it("signs no one out: a cookie signed with the old secret holds, a new sign-in is signed with the new one", async () => {
    const rotated = await startTestServer({ env: { SESSION_SECRET: "", SESSION_SECRETS: `${NEW_SECRET},${TEST_SESSION_SECRET}` } });
    try {
      const member = await createTestUser(rotated.db);
      const fresh = await signIn(rotated.url, member.email, member.password);
      const name = fresh.slice(0, fresh.indexOf("="));
      const data: unknown = await createCookie(name, { ...options, secrets: [NEW_SECRET] }).parse(fresh);
      expect(data, "signed with the first secret").toHaveProperty("token");
      expect(await createCookie(name, { ...options, secrets: [TEST_SESSION_SECRET] }).parse(fresh)).toBeNull();
      // The same session as a server with the old secret had signed it.
      const before = (await createCookie(name, { ...options, secrets: [TEST_SESSION_SECRET] }).serialize(data)).split(";")[0]!;
      expect(await homeWith(rotated.url, before)).toBe("signed in");
      const forged = (
        await createCookie(name, { ...options, secrets: ["a-secret-the-server-never-had-of-32-chars"] }).serialize(data)
      ).split(";")[0]!;
      expect(await homeWith(rotated.url, forged)).toBe("/login");
    } finally {
      await rotated.stop();
    }
  });
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "@tests/support/server";
import {
  cookieFrom,
  createTestUser,
  fieldErrorText,
  formErrorText,
  get,
  homeWith,
  inputValue,
  postForm,
  postJson,
  signIn,
} from "@tests/support/http";

/*
 * Sign-in through the /login page and the POST /auth/login API.
 * Every failed sign-in here counts towards the per-address limit (20 from
 * 127.0.0.1 in 15 minutes); this file stays well below it. Rate limits have
 * their own file.
 */

let server: TestServer;
/** Signs in successfully only; failures use their own accounts. */
let alice: Awaited<ReturnType<typeof createTestUser>>;
beforeAll(async () => {
  server = await startTestServer();
  alice = await createTestUser(server.db, { name: "Alice Example" });
});
afterAll(() => server.stop());

const ECHO_PASSWORD = "Echo-Check-Secret-4417";

describe("sign-in", () => {
  it("signs in with the right password and reaches home", async () => {
    const user = await createTestUser(server.db);
    const cookie = await signIn(server.url, user.email, user.password);
    const home = await get(server.url, "/", cookie);
    expect(home.status).toBe(200);
    expect(await home.text()).toContain(user.name);
  });

  it("answers 'unknown user' and 'incorrect password' exactly", async () => {
    const user = await createTestUser(server.db);
    const unknown = await postForm(server.url, "/login", { email: "nobody@example.test", password: "whatever" });
    expect(unknown.status).toBe(401);
    const unknownHtml = await unknown.text();
    expect(unknownHtml).toContain("unknown user");
    expect(formErrorText(unknownHtml)).toBe("unknown user");
    expect(unknown.headers.get("set-cookie")).toBeNull();
    const wrong = await postForm(server.url, "/login", { email: user.email, password: "wrong password" });
    expect(wrong.status).toBe(401);
    const wrongHtml = await wrong.text();
    expect(wrongHtml).toContain("incorrect password");
    expect(formErrorText(wrongHtml)).toBe("incorrect password");
  });
});

describe("/login page", () => {
  it("shows the sign-in form to an anonymous visitor, carrying a safe from_url", async () => {
    const response = await get(server.url, "/login?from_url=%2Fb%2Fartworks%3Fview%3Dgrid");
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(inputValue(html, "email")).toBeNull();
    expect(inputValue(html, "password")).toBeNull();
    expect(inputValue(html, "from_url")).toBe("/b/artworks?view=grid");
  });

  it("redirects after sign-in to from_url when it is a same-origin relative path", async () => {
    for (const target of ["/b/artworks?view=grid", "/settings/users/42", "/profile#top"]) {
      const response = await postForm(server.url, "/login", { email: alice.email, password: alice.password, from_url: target });
      expect(response.status, target).toBe(302);
      expect(response.headers.get("location"), target).toBe(target);
      const cookie = cookieFrom(response)!;
      expect(await homeWith(server.url, cookie), target).toBe("signed in");
    }
  });

  it("redirects to / when from_url points elsewhere or is missing", async () => {
    const hostile = [
      "//evil.example",
      "https://evil.example",
      "/\\evil.example",
      "\\\\evil.example",
      "javascript:alert(1)",
      "evil.example/x",
    ];
    for (const target of hostile) {
      const response = await postForm(server.url, "/login", { email: alice.email, password: alice.password, from_url: target });
      expect(response.status, target).toBe(302);
      expect(response.headers.get("location"), target).toBe("/");
    }
    const without = await postForm(server.url, "/login", { email: alice.email, password: alice.password });
    expect(without.status).toBe(302);
    expect(without.headers.get("location")).toBe("/");
  });

  it("sends a signed-in visitor straight on to a safe from_url, and to / otherwise", async () => {
    const cookie = await signIn(server.url, alice.email, alice.password);
    const safe = await get(server.url, "/login?from_url=%2Fprofile", cookie);
    expect(safe.status).toBe(302);
    expect(safe.headers.get("location")).toBe("/profile");
    const hostile = await get(server.url, `/login?from_url=${encodeURIComponent("//evil.example")}`, cookie);
    expect(hostile.status).toBe(302);
    expect(hostile.headers.get("location")).toBe("/");
  });

  it("sets a working session cookie on sign-in through the form", async () => {
    const response = await postForm(server.url, "/login", { email: alice.email, password: alice.password });
    expect(response.status).toBe(302);
    const cookie = cookieFrom(response);
    expect(cookie).toMatch(/^vitrine_session=/);
    const home = await get(server.url, "/", cookie!);
    expect(home.status).toBe(200);
    expect(await home.text()).toContain("Alice Example");
  });

  it("accepts the email in any letter case", async () => {
    const response = await postForm(server.url, "/login", { email: `  ${alice.email.toUpperCase()} `, password: alice.password });
    expect(response.status).toBe(302);
    expect(await homeWith(server.url, cookieFrom(response)!)).toBe("signed in");
  });

  it("re-renders empty fields with a message per field (400), without signing in", async () => {
    const response = await postForm(server.url, "/login", { email: "", password: "" });
    expect(response.status).toBe(400);
    expect(response.headers.get("set-cookie")).toBeNull();
    const html = await response.text();
    expect(fieldErrorText(html, "email")).toBe("Enter your email address");
    expect(fieldErrorText(html, "password")).toBe("Enter your password");
    expect(formErrorText(html)).toBeNull();
  });

  it("keeps the email in the form and never echoes the password", async () => {
    const emptyPassword = await postForm(server.url, "/login", { email: "keep.me@example.test", password: "" });
    expect(emptyPassword.status).toBe(400);
    const html = await emptyPassword.text();
    expect(inputValue(html, "email")).toBe("keep.me@example.test");
    expect(fieldErrorText(html, "password")).toBe("Enter your password");
    expect(fieldErrorText(html, "email")).toBeNull();

    const badEmail = await postForm(server.url, "/login", { email: "not-an-email", password: ECHO_PASSWORD });
    expect(badEmail.status).toBe(400);
    const badHtml = await badEmail.text();
    expect(fieldErrorText(badHtml, "email")).toBe("Enter a valid email address");
    expect(inputValue(badHtml, "email")).toBe("not-an-email");
    expect(inputValue(badHtml, "password")).toBeNull();
    expect(badHtml).not.toContain(ECHO_PASSWORD);

    const user = await createTestUser(server.db);
    const wrong = await postForm(server.url, "/login", { email: user.email, password: ECHO_PASSWORD });
    expect(wrong.status).toBe(401);
    const wrongHtml = await wrong.text();
    expect(formErrorText(wrongHtml)).toBe("incorrect password");
    expect(inputValue(wrongHtml, "email")).toBe(user.email);
    expect(inputValue(wrongHtml, "password")).toBeNull();
    expect(wrongHtml).not.toContain(ECHO_PASSWORD);
  });
});

describe("POST /auth/login", () => {
  async function storedHash(email: string): Promise<string> {
    const { rows } = await server.db.query<{ password_hash: string }>("SELECT password_hash FROM users WHERE email = $1", [email]);
    return rows[0]!.password_hash;
  }

  function expectPublicUser(body: Record<string, unknown>, hash: string) {
    expect(body).toMatchObject({ name: "Alice Example", email: alice.email, permissions: ["user"] });
    expect(Object.keys(body).sort()).toEqual(["buckets", "email", "id", "name", "permissions"]);
    expect(JSON.stringify(body)).not.toContain(hash);
    expect(JSON.stringify(body)).not.toContain(alice.password);
  }

  it("answers the user object and a session cookie for a JSON body", async () => {
    const response = await postJson(server.url, "/auth/login", { email: alice.email, password: alice.password });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("application/json");
    expectPublicUser(await response.json(), await storedHash(alice.email));
    const cookie = cookieFrom(response);
    expect(cookie).toMatch(/^vitrine_session=/);
    expect(await homeWith(server.url, cookie!)).toBe("signed in");
  });

  it("answers the user object and a session cookie for a form body", async () => {
    const response = await postForm(server.url, "/auth/login", { email: alice.email, password: alice.password });
    expect(response.status).toBe(200);
    expectPublicUser(await response.json(), await storedHash(alice.email));
    expect(await homeWith(server.url, cookieFrom(response)!)).toBe("signed in");
  });

  it("answers 401 {error:'unknown user'} and {error:'incorrect password'} without a session", async () => {
    const user = await createTestUser(server.db);
    const unknown = await postJson(server.url, "/auth/login", { email: "nobody@example.test", password: "whatever" });
    expect(unknown.status).toBe(401);
    expect(await unknown.json()).toEqual({ error: "unknown user", message: "unknown user" });
    expect(unknown.headers.get("set-cookie")).toBeNull();

    const wrong = await postJson(server.url, "/auth/login", { email: user.email, password: "not the password" });
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toEqual({ error: "incorrect password", message: "incorrect password" });
    expect(wrong.headers.get("set-cookie")).toBeNull();

    const wrongForm = await postForm(server.url, "/auth/login", { email: user.email, password: "not the password" });
    expect(wrongForm.status).toBe(401);
    expect(await wrongForm.json()).toEqual({ error: "incorrect password", message: "incorrect password" });
  });

  it("answers 400 to a malformed JSON body", async () => {
    for (const body of ['{"email": "a@example.test", "password": ', "[1, 2]", "null", "plain text"]) {
      const response = await postJson(server.url, "/auth/login", body);
      expect(response.status, body).toBe(400);
      const answer = (await response.json()) as { error: string };
      expect(answer.error, body).toMatch(/JSON/);
      expect(response.headers.get("set-cookie"), body).toBeNull();
    }
  });

  it("answers 400 when email or password is missing or empty", async () => {
    const bodies = [
      {},
      { email: alice.email },
      { password: alice.password },
      { email: "", password: alice.password },
      { email: alice.email, password: "" },
    ];
    for (const body of bodies) {
      const response = await postJson(server.url, "/auth/login", body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(await response.json()).toEqual({ error: "email and password are required" });
      expect(response.headers.get("set-cookie")).toBeNull();
    }
    const form = await postForm(server.url, "/auth/login", { email: alice.email });
    expect(form.status).toBe(400);
    expect(await form.json()).toEqual({ error: "email and password are required" });
  });

  it("only answers POST", async () => {
    const response = await get(server.url, "/auth/login");
    expect(response.status).toBe(405);
    expect(((await response.json()) as { error: string }).error).toMatch(/POST/);
  });
});

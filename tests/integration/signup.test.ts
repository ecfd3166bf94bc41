import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashToken } from "@server/security/tokens";
import { createInvitation } from "@server/accounts/invitations";
import { findUserByEmail } from "@server/accounts/users";
import { startTestServer, type TestServer } from "@tests/support/server";
import { cookieFrom, createTestUser, fieldErrorText, get, homeWith, inputValue, postForm, postJson } from "@tests/support/http";

/* Web signup with single-use, expiring invitation codes (spec §4 allowSignup, §7 POST /auth/signup). */

const INVALID_INVITATION = "This invitation code is unknown, already used or expired";
const EMAIL_TAKEN = "An account with this email already exists";
const PASSWORD = "a long enough password";

let counter = 0;
const newEmail = (label: string) => `${label}-${++counter}@signup.example.test`;

describe("with signup not allowed (ALLOW_SIGNUP unset)", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.stop());

  it("GET /signup redirects to /login, and /login offers no signup link", async () => {
    const response = await get(server.url, "/signup");
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/login");
    const login = await (await get(server.url, "/login")).text();
    expect(login).not.toContain('href="/signup"');
  });

  it("POST /signup without a redeemable invitation redirects to /login and creates no account", async () => {
    const { code } = await createInvitation(server.db, {});
    await server.db.query("UPDATE invitations SET revoked_at = now() WHERE code_hash = $1", [hashToken(code)]);
    for (const invitationCode of ["not-a-real-code", code]) {
      const email = newEmail("refused");
      const response = await postForm(server.url, "/signup", { name: "Refused", email, password: PASSWORD, invitationCode });
      expect(response.status).toBe(302);
      expect(response.headers.get("location")).toBe("/login");
      expect(response.headers.get("set-cookie")).toBeNull();
      expect(await findUserByEmail(server.db, email)).toBeNull();
    }
  });

  it("an invitation is the permission: its link opens /signup with the code, and its holder signs up", async () => {
    const { code } = await createInvitation(server.db, { permissions: ["user", "dev"] });
    const form = await get(server.url, `/signup?code=${encodeURIComponent(code)}`);
    expect(form.status).toBe(200);
    expect(inputValue(await form.text(), "invitationCode")).toBe(code);
    const email = newEmail("invited");
    const response = await postForm(server.url, `/signup?code=${encodeURIComponent(code)}`, {
      name: "Invited",
      email,
      password: PASSWORD,
      invitationCode: code,
    });
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/");
    expect(await findUserByEmail(server.db, email)).toMatchObject({ permissions: ["user", "dev"] });
  });

  it("POST /auth/signup answers 403 and creates no account without a redeemable invitation", async () => {
    const email = newEmail("refused-api");
    const response = await postJson(server.url, "/auth/signup", {
      name: "Refused",
      email,
      password: PASSWORD,
      invitationCode: "not-a-real-code",
    });
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({ error: "Signup is not allowed" });
    expect(response.headers.get("set-cookie")).toBeNull();
    expect(await findUserByEmail(server.db, email)).toBeNull();
  });
});

describe("with signup allowed (ALLOW_SIGNUP=true)", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ env: { ALLOW_SIGNUP: "true" } });
  });
  afterAll(() => server.stop());

  const signupForm = (fields: Record<string, string>, cookie?: string) => postForm(server.url, "/signup", fields, cookie);

  it("shows the signup form, linked from /login", async () => {
    const response = await get(server.url, "/signup");
    expect(response.status).toBe(200);
    const html = await response.text();
    for (const field of ["name", "email", "password", "invitationCode"]) expect(inputValue(html, field), field).toBeNull();
    const login = await (await get(server.url, "/login")).text();
    expect(login).toContain('href="/signup"');
  });

  it("a valid invitation creates the user with its permissions, signs them in and redirects to /", async () => {
    const { code } = await createInvitation(server.db, { permissions: ["user", "admin"] });
    const email = newEmail("new");
    const response = await signupForm({ name: "New Person", email, password: PASSWORD, invitationCode: code });
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/");
    const cookie = cookieFrom(response)!;
    const home = await get(server.url, "/", cookie);
    expect(home.status).toBe(200);
    expect(await home.text()).toContain("New Person");

    const user = await findUserByEmail(server.db, email);
    expect(user).toMatchObject({ name: "New Person", email, permissions: ["user", "admin"] });
    expect(user!.passwordHash).not.toContain(PASSWORD);
    const { rows } = await server.db.query<{ used_by: string; used_at: Date | null }>(
      "SELECT used_by, used_at FROM invitations WHERE code_hash = $1",
      [hashToken(code)],
    );
    expect(rows[0]).toMatchObject({ used_by: user!.id });
    expect(rows[0]!.used_at).not.toBeNull();

    // The chosen password signs in.
    const login = await postJson(server.url, "/auth/login", { email, password: PASSWORD });
    expect(login.status).toBe(200);
  });

  it("a signed-in visitor is sent from /signup to /", async () => {
    const member = await createTestUser(server.db);
    const login = await postJson(server.url, "/auth/login", { email: member.email, password: member.password });
    const response = await get(server.url, "/signup", cookieFrom(login)!);
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/");
  });

  it("refuses the same code a second time", async () => {
    const { code } = await createInvitation(server.db, {});
    const first = await signupForm({ name: "First", email: newEmail("first"), password: PASSWORD, invitationCode: code });
    expect(first.status).toBe(302);
    const secondEmail = newEmail("second");
    const second = await signupForm({ name: "Second", email: secondEmail, password: PASSWORD, invitationCode: code });
    expect(second.status).toBe(400);
    expect(second.headers.get("set-cookie")).toBeNull();
    const html = await second.text();
    expect(fieldErrorText(html, "invitationCode")).toBe(INVALID_INVITATION);
    expect(await findUserByEmail(server.db, secondEmail)).toBeNull();
  });

  it("refuses an unknown code", async () => {
    const email = newEmail("unknown-code");
    const response = await signupForm({ name: "Guess", email, password: PASSWORD, invitationCode: "not-a-real-code" });
    expect(response.status).toBe(400);
    expect(fieldErrorText(await response.text(), "invitationCode")).toBe(INVALID_INVITATION);
    expect(await findUserByEmail(server.db, email)).toBeNull();
  });

  it("refuses an expired code", async () => {
    const { code } = await createInvitation(server.db, { ttlDays: 1 });
    await server.db.query("UPDATE invitations SET expires_at = now() - interval '1 day' WHERE code_hash = $1", [hashToken(code)]);
    const email = newEmail("expired");
    const response = await signupForm({ name: "Late", email, password: PASSWORD, invitationCode: code });
    expect(response.status).toBe(400);
    expect(fieldErrorText(await response.text(), "invitationCode")).toBe(INVALID_INVITATION);
    expect(await findUserByEmail(server.db, email)).toBeNull();
    const api = await postJson(server.url, "/auth/signup", { name: "Late", email, password: PASSWORD, invitationCode: code });
    expect(api.status).toBe(400);
    expect(await api.json()).toEqual({ error: INVALID_INVITATION });
  });

  it("honours an invitation made out to one email address only for that address", async () => {
    const invited = newEmail("invited");
    const { code } = await createInvitation(server.db, { email: invited });
    const other = newEmail("gatecrasher");
    const wrong = await signupForm({ name: "Gatecrasher", email: other, password: PASSWORD, invitationCode: code });
    expect(wrong.status).toBe(400);
    expect(fieldErrorText(await wrong.text(), "invitationCode")).toBe(INVALID_INVITATION);
    expect(await findUserByEmail(server.db, other)).toBeNull();
    const right = await signupForm({ name: "Invited", email: invited.toUpperCase(), password: PASSWORD, invitationCode: code });
    expect(right.status).toBe(302);
  });

  it("answers 409 to an email already taken (in any letter case) and does not consume the invitation", async () => {
    const existing = await createTestUser(server.db, { email: newEmail("taken") });
    const { code } = await createInvitation(server.db, {});
    const taken = await signupForm({ name: "Copycat", email: existing.email.toUpperCase(), password: PASSWORD, invitationCode: code });
    expect(taken.status).toBe(409);
    expect(taken.headers.get("set-cookie")).toBeNull();
    const html = await taken.text();
    expect(fieldErrorText(html, "email")).toBe(EMAIL_TAKEN);
    expect(inputValue(html, "name")).toBe("Copycat");
    expect(inputValue(html, "invitationCode")).toBe(code);

    const { rows } = await server.db.query<{ used_at: Date | null }>("SELECT used_at FROM invitations WHERE code_hash = $1", [
      hashToken(code),
    ]);
    expect(rows[0]!.used_at).toBeNull();

    // The code still works for another email.
    const email = newEmail("after-taken");
    const retry = await signupForm({ name: "Second Try", email, password: PASSWORD, invitationCode: code });
    expect(retry.status).toBe(302);
    expect(retry.headers.get("location")).toBe("/");
    expect(await findUserByEmail(server.db, email)).toMatchObject({ name: "Second Try" });
  });

  it("re-renders field errors (400) with the input kept, the password never echoed and the code not consumed", async () => {
    const { code } = await createInvitation(server.db, {});
    const secret = "short7!";
    const response = await signupForm({ name: "  ", email: "not-an-email", password: secret, invitationCode: code });
    expect(response.status).toBe(400);
    expect(response.headers.get("set-cookie")).toBeNull();
    const html = await response.text();
    expect(fieldErrorText(html, "name")).toBe("Enter your name");
    expect(fieldErrorText(html, "email")).toBe("Enter a valid email address");
    expect(fieldErrorText(html, "password")).toBe("Use at least 8 characters");
    expect(fieldErrorText(html, "invitationCode")).toBeNull();
    expect(inputValue(html, "email")).toBe("not-an-email");
    expect(inputValue(html, "invitationCode")).toBe(code);
    expect(inputValue(html, "password")).toBeNull();
    expect(html).not.toContain(secret);

    const empty = await signupForm({ name: "Kept Name", email: "kept@example.test", password: "", invitationCode: "" });
    expect(empty.status).toBe(400);
    const emptyHtml = await empty.text();
    expect(inputValue(emptyHtml, "name")).toBe("Kept Name");
    expect(inputValue(emptyHtml, "email")).toBe("kept@example.test");
    expect(fieldErrorText(emptyHtml, "invitationCode")).toBe("Enter the invitation code you received");
    expect(fieldErrorText(emptyHtml, "password")).not.toBeNull();

    const { rows } = await server.db.query<{ used_at: Date | null }>("SELECT used_at FROM invitations WHERE code_hash = $1", [
      hashToken(code),
    ]);
    expect(rows[0]!.used_at).toBeNull();
  });

  describe("POST /auth/signup (JSON)", () => {
    it("answers 201 with the user object and a session cookie", async () => {
      const { code } = await createInvitation(server.db, {});
      const email = newEmail("api");
      const response = await postJson(server.url, "/auth/signup", { name: "Api Person", email, password: PASSWORD, invitationCode: code });
      expect(response.status).toBe(201);
      const body = (await response.json()) as Record<string, unknown>;
      expect(body).toMatchObject({ name: "Api Person", email, permissions: ["user"] });
      expect(Object.keys(body).sort()).toEqual(["buckets", "email", "id", "name", "permissions"]);
      expect(JSON.stringify(body)).not.toContain(PASSWORD);
      expect(JSON.stringify(body)).not.toContain((await findUserByEmail(server.db, email))!.passwordHash);
      expect(await homeWith(server.url, cookieFrom(response)!)).toBe("signed in");
    });

    it("refuses a used code (400) and a taken email (409) with the spec's texts, keeping the code on a taken email", async () => {
      const { code } = await createInvitation(server.db, {});
      const existing = await createTestUser(server.db, { email: newEmail("api-taken") });
      const taken = await postJson(server.url, "/auth/signup", {
        name: "Dup",
        email: existing.email,
        password: PASSWORD,
        invitationCode: code,
      });
      expect(taken.status).toBe(409);
      expect(await taken.json()).toEqual({ error: EMAIL_TAKEN });
      expect(taken.headers.get("set-cookie")).toBeNull();

      const ok = await postJson(server.url, "/auth/signup", {
        name: "Ok",
        email: newEmail("api-ok"),
        password: PASSWORD,
        invitationCode: code,
      });
      expect(ok.status).toBe(201);
      const used = await postJson(server.url, "/auth/signup", {
        name: "Again",
        email: newEmail("api-again"),
        password: PASSWORD,
        invitationCode: code,
      });
      expect(used.status).toBe(400);
      expect(await used.json()).toEqual({ error: INVALID_INVITATION });
    });

    it("answers 400 to invalid fields and to malformed JSON, creating nothing", async () => {
      const { code } = await createInvitation(server.db, {});
      const email = newEmail("api-invalid");
      const invalid = await postJson(server.url, "/auth/signup", { name: "", email, password: "short", invitationCode: code });
      expect(invalid.status).toBe(400);
      const { error } = (await invalid.json()) as { error: string };
      expect(error).toMatch(/name/);
      expect(error).toMatch(/password/);
      expect(error).not.toMatch(/invitationCode/);
      expect(await findUserByEmail(server.db, email)).toBeNull();

      const malformed = await postJson(server.url, "/auth/signup", '{"name": "x", ');
      expect(malformed.status).toBe(400);
      expect(((await malformed.json()) as { error: string }).error).toMatch(/JSON/);

      const { rows } = await server.db.query<{ used_at: Date | null }>("SELECT used_at FROM invitations WHERE code_hash = $1", [
        hashToken(code),
      ]);
      expect(rows[0]!.used_at).toBeNull();
    });
  });
});

import { createCookie } from "react-router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findUserByEmail } from "@server/accounts/users";
import { hashToken } from "@server/security/tokens";
import { CHROME_UA, clientState, decode, errorPage, FIREFOX_UA, htmlLang, page, signedInUser } from "@tests/support/fixtures";
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
import { startTestServer, TEST_SESSION_SECRET, type TestServer } from "@tests/support/server";

/*
 * /profile: name and interface language, a password change (current password first, signup's rules; other
 * sessions end, this one stays), the user's own sessions with 'sign out' for one and 'sign out everywhere'.
 */

const NEW_PASSWORD = "a brand new passphrase";

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.stop());

/** Signs in through the login form with a given browser, like a person on that device. */
async function signInWith(email: string, password: string, userAgent: string): Promise<string> {
  const response = await postForm(server.url, "/login", { email, password }, undefined, { "User-Agent": userAgent });
  expect(response.status).toBe(302);
  return cookieFrom(response)!;
}

/** The session token inside a signed session cookie ("name=value"). */
async function tokenOf(cookie: string): Promise<string> {
  const [name] = cookie.split("=");
  const data = (await createCookie(name!, { secrets: [TEST_SESSION_SECRET] }).parse(cookie)) as { token: string };
  return data.token;
}

const profilePost = (cookie: string, fields: Record<string, string>) => postForm(server.url, "/profile", fields, cookie);

async function sessionCount(userId: string): Promise<number> {
  const { rows } = await server.db.query<{ count: number }>("SELECT count(*)::int AS count FROM sessions WHERE user_id = $1", [userId]);
  return rows[0]!.count;
}

describe("/profile", () => {
  it("is for signed-in users: anonymous visitors are sent to sign in, for the page and its form post", async () => {
    expect((await get(server.url, "/profile")).headers.get("location")).toBe("/login?from_url=%2Fprofile");
    const posted = await postForm(server.url, "/profile", { intent: "details", name: "Nobody", locale: "nl" });
    expect(posted.status).toBe(302);
    expect(posted.headers.get("location")).toBe("/login?from_url=%2Fprofile");
  });

  it("shows the user's name, email and language, and no placeholder", async () => {
    const { user, cookie } = await signedInUser(server.url, server.db, { name: "Paula Profile" });
    const { status, html } = await page(server.url, "/profile", cookie);
    expect(status).toBe(200);
    expect(errorPage(html)).toBeNull();
    expect(html).not.toContain("data-placeholder");
    expect(inputValue(html, "name")).toBe("Paula Profile");
    expect(html).toContain(`value="${user.email}"`);
    expect(html).toMatch(/<option value="en" lang="en" selected="">English<\/option>/);
  });

  it("saves the name and the interface language: for this session at once and for the next sign-in", async () => {
    const { user, cookie } = await signedInUser(server.url, server.db, { name: "Old Name" });
    const response = await profilePost(cookie, { intent: "details", name: "  Nieuwe Naam ", locale: "nl" });
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/profile?saved=details");
    const renewed = cookieFrom(response)!;
    const { html } = await page(server.url, "/profile?saved=details", renewed);
    expect(htmlLang(html)).toBe("nl");
    expect(decode(html)).toContain("Je gegevens zijn opgeslagen.");
    expect(inputValue(html, "name")).toBe("Nieuwe Naam");
    const stored = await findUserByEmail(server.db, user.email);
    expect(stored).toMatchObject({ name: "Nieuwe Naam", locale: "nl" });
    // Another browser, signed in afresh, gets Dutch too.
    const elsewhere = await signIn(server.url, user.email, user.password);
    expect((await clientState((await page(server.url, "/", elsewhere)).html)).locale).toBe("nl");
  });

  it("refuses an empty name or an unknown language, keeping the input", async () => {
    const { user, cookie } = await signedInUser(server.url, server.db, { name: "Kept Name" });
    const empty = await profilePost(cookie, { intent: "details", name: " ", locale: "en" });
    expect(empty.status).toBe(400);
    expect(fieldErrorText(await empty.text(), "name")).toBe("Enter your name");
    const klingon = await profilePost(cookie, { intent: "details", name: "Still Kept", locale: "tlh" });
    expect(klingon.status).toBe(400);
    const html = await klingon.text();
    expect(fieldErrorText(html, "locale")).toBe("Choose a language");
    expect(inputValue(html, "name")).toBe("Still Kept");
    expect((await findUserByEmail(server.db, user.email))?.name).toBe("Kept Name");
  });

  it("lists the user's own sessions with their browser and address, this one marked, nobody else's", async () => {
    const user = await createTestUser(server.db, { name: "Sam Sessions" });
    const other = await createTestUser(server.db);
    const firefox = await signInWith(user.email, user.password, FIREFOX_UA);
    const chrome = await signInWith(user.email, user.password, CHROME_UA);
    await signIn(server.url, other.email, other.password);
    const { html } = await page(server.url, "/profile", chrome);
    const cards = [...html.matchAll(/<li class="session-card"( data-current="true")?>([\s\S]*?)<\/li>/g)].map((match) => ({
      current: Boolean(match[1]),
      text: decode(
        match[2]!
          .replace(/<!-- -->/g, "")
          .replace(/<[^>]+>/g, " ")
          .replace(/\s+/g, " ")
          .trim(),
      ),
    }));
    expect(cards).toHaveLength(2);
    expect(cards[0]).toMatchObject({ current: true });
    expect(cards[0]!.text).toMatch(/^Chrome 126, Windows This session Signed in .+ from 127\.0\.0\.1$/);
    expect(cards[1]).toMatchObject({ current: false });
    expect(cards[1]!.text).toMatch(/^Firefox 127, Windows Signed in .+ from 127\.0\.0\.1 Sign out$/);
    // A session is named in the page by its stored hash, never by its token.
    const token = await tokenOf(firefox);
    expect(html).not.toContain(token);
    expect(html).toContain(`name="sessionId" value="${hashToken(token)}"`);
    const { rows } = await server.db.query<{ userAgent: string; address: string }>(
      `SELECT user_agent AS "userAgent", address FROM sessions WHERE id_hash = $1`,
      [hashToken(token)],
    );
    expect(rows).toEqual([{ userAgent: FIREFOX_UA, address: "127.0.0.1" }]);
  });

  it("signs out one other session, and refuses to touch another user's", async () => {
    const user = await createTestUser(server.db);
    const stranger = await createTestUser(server.db);
    const here = await signInWith(user.email, user.password, CHROME_UA);
    const there = await signInWith(user.email, user.password, FIREFOX_UA);
    const strangers = await signIn(server.url, stranger.email, stranger.password);
    const ids = async (userId: string) =>
      (
        await server.db.query<{ id: string }>("SELECT id_hash AS id FROM sessions WHERE user_id = $1 ORDER BY created_at", [userId])
      ).rows.map((row) => row.id);
    const [strangerSession] = await ids(stranger.id);
    const refused = await profilePost(here, { intent: "signOutSession", sessionId: strangerSession! });
    expect(refused.status).toBe(404);
    expect(decode(await refused.text())).toContain("That session had already ended.");
    expect(await homeWith(server.url, strangers)).toBe("signed in");

    expect(await ids(user.id)).toHaveLength(2);
    const ended = await profilePost(here, { intent: "signOutSession", sessionId: hashToken(await tokenOf(there)) });
    expect(ended.status).toBe(302);
    expect(ended.headers.get("location")).toBe("/profile?saved=session");
    expect(await homeWith(server.url, there)).toBe("/login");
    expect(await homeWith(server.url, here)).toBe("signed in");
  });

  it("'sign out everywhere' ends every session of the user, this one included, and goes to /login", async () => {
    const user = await createTestUser(server.db);
    const bystander = await signedInUser(server.url, server.db);
    const one = await signIn(server.url, user.email, user.password);
    const two = await signIn(server.url, user.email, user.password);
    const response = await profilePost(one, { intent: "signOutEverywhere" });
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/login");
    expect(await sessionCount(user.id)).toBe(0);
    expect(await homeWith(server.url, cookieFrom(response)!)).toBe("/login");
    expect(await homeWith(server.url, one)).toBe("/login");
    expect(await homeWith(server.url, two)).toBe("/login");
    expect(await homeWith(server.url, bystander.cookie)).toBe("signed in");
  });
});

describe("/profile password change", () => {
  it("needs the current password: a wrong one is refused under its field, changes nothing and counts towards the sign-in limit", async () => {
    const user = await createTestUser(server.db);
    const cookie = await signIn(server.url, user.email, user.password);
    const response = await profilePost(cookie, {
      intent: "password",
      currentPassword: "not my password",
      newPassword: NEW_PASSWORD,
      confirmPassword: NEW_PASSWORD,
    });
    expect(response.status).toBe(400);
    const html = await response.text();
    expect(fieldErrorText(html, "currentPassword")).toBe("The current password is incorrect");
    expect(inputValue(html, "newPassword")).toBeNull(); // passwords are never sent back
    expect((await postJson(server.url, "/auth/login", { email: user.email, password: user.password })).status).toBe(200);
    const { rows } = await server.db.query<{ failures: number }>("SELECT failures FROM rate_limits WHERE key = $1", [
      `sign-in:account:${user.email.toLowerCase()}`,
    ]);
    expect(rows).toEqual([]); // the successful sign-in above cleared it: it was counted there
  });

  it("stops guessing after the sign-in limit of the account: 429 with the wait", async () => {
    const user = await createTestUser(server.db);
    const cookie = await signIn(server.url, user.email, user.password);
    const wrong = { intent: "password", currentPassword: "guess", newPassword: NEW_PASSWORD, confirmPassword: NEW_PASSWORD };
    const hashBefore = (await findUserByEmail(server.db, user.email))?.passwordHash;
    for (let attempt = 0; attempt < 5; attempt++) expect((await profilePost(cookie, wrong)).status).toBe(400);
    const limited = await profilePost(cookie, { ...wrong, currentPassword: user.password });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(formErrorText(await limited.text())).toMatch(/^Too many failed attempts\. Try again in \d+ minute\(s\)\.$/);
    // One limit for both doors: sign-in waits too; and the password did not change.
    expect((await postJson(server.url, "/auth/login", { email: user.email, password: user.password })).status).toBe(429);
    expect((await findUserByEmail(server.db, user.email))?.passwordHash).toBe(hashBefore);
  });

  it("follows signup's rules and needs the confirmation to match", async () => {
    const user = await createTestUser(server.db);
    const cookie = await signIn(server.url, user.email, user.password);
    const short = await profilePost(cookie, {
      intent: "password",
      currentPassword: user.password,
      newPassword: "short",
      confirmPassword: "short",
    });
    expect(short.status).toBe(400);
    expect(fieldErrorText(await short.text(), "newPassword")).toBe("Use at least 8 characters");
    const mismatch = await profilePost(cookie, {
      intent: "password",
      currentPassword: user.password,
      newPassword: NEW_PASSWORD,
      confirmPassword: `${NEW_PASSWORD}!`,
    });
    expect(mismatch.status).toBe(400);
    expect(fieldErrorText(await mismatch.text(), "confirmPassword")).toBe("The two passwords are not the same");
    const missing = await profilePost(cookie, { intent: "password", newPassword: NEW_PASSWORD, confirmPassword: NEW_PASSWORD });
    expect(fieldErrorText(await missing.text(), "currentPassword")).toBe("Enter your current password");
  });

  it("sets the new password, ends the user's other sessions and keeps this one", async () => {
    const user = await createTestUser(server.db);
    const bystander = await signedInUser(server.url, server.db);
    const here = await signIn(server.url, user.email, user.password);
    const elsewhere = await signIn(server.url, user.email, user.password);
    const response = await profilePost(here, {
      intent: "password",
      currentPassword: user.password,
      newPassword: NEW_PASSWORD,
      confirmPassword: NEW_PASSWORD,
    });
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/profile?saved=password");
    expect(await homeWith(server.url, here)).toBe("signed in");
    expect(await homeWith(server.url, elsewhere)).toBe("/login");
    expect(await homeWith(server.url, bystander.cookie)).toBe("signed in");
    expect(await sessionCount(user.id)).toBe(1);
    expect(decode((await page(server.url, "/profile?saved=password", here)).html)).toContain(
      "Your password has been changed, and your other sessions have been signed out.",
    );
    expect((await postJson(server.url, "/auth/login", { email: user.email, password: user.password })).status).toBe(401);
    expect((await postJson(server.url, "/auth/login", { email: user.email, password: NEW_PASSWORD })).status).toBe(200);
  });
});

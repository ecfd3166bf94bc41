import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findUserByEmail } from "@server/accounts/users";
import { hashToken } from "@server/security/tokens";
import { decode, page, signedInUser } from "@tests/support/fixtures";
import { createTestUser, fieldErrorText, formErrorText, get, homeWith, postForm, postJson, signIn } from "@tests/support/http";
import { startTestServer, type TestServer } from "@tests/support/server";
import { startMailServer, type TestMailServer } from "@tests/support/smtp";

/*
 * A forgotten password without mail (issue 36): /password-reset keeps the request of an active account for the
 * admins, who answer it on the user's screen with "Set password" or "Make reset link" (/settings/users/{id}).
 */

const NEW_PASSWORD = "set by the admin";
const NO_MAIL_ANSWER =
  "This installation cannot send mail, so no link is on its way. If that address belongs to an account, the admins of Vitrine now see your request under Settings";

let server: TestServer;
let admin: Awaited<ReturnType<typeof signedInUser>>;
const rawLog: string[] = [];
let addressCounter = 0;

beforeAll(async () => {
  const logger = pino({ level: "info" }, { write: (line: string) => void rawLog.push(line) });
  // TRUST_PROXY: each request comes from an address of its own (X-Forwarded-For), so the rate limits stay apart.
  server = await startTestServer({ env: { TRUST_PROXY: "1" }, logger });
  admin = await signedInUser(server.url, server.db, { name: "Ada Admin", permissions: ["user", "admin"] });
});
afterAll(() => server.stop());

const requestReset = (email: string, target = server) =>
  postForm(target.url, "/password-reset", { email }, undefined, { "X-Forwarded-For": `198.51.100.${++addressCounter}` });

/** A post as a browser on the page sends it: same origin. */
const post = (path: string, fields: Record<string, string>, cookie = admin.cookie) => postForm(server.url, path, fields, cookie);

async function openRequests(userId: string) {
  const { rows } = await server.db.query<{ requestedAt: Date }>(
    `SELECT requested_at AS "requestedAt" FROM password_reset_requests WHERE user_id = $1 AND closed_at IS NULL`,
    [userId],
  );
  return rows;
}

async function activityFor(subject: string) {
  const { rows } = await server.db.query<{ actor_name: string; area: string; action: string }>(
    "SELECT actor_name, area, action FROM admin_activity WHERE subject = $1 ORDER BY created_at",
    [subject],
  );
  return rows;
}

/** The reset link in the page's field (the action's answer), and its token. */
function linkOn(html: string): { link: string; token: string } {
  const field = /<input[^>]*data-reset-link[^>]*>/.exec(html)?.[0] ?? "";
  const match = /value="(http:\/\/[^"]+\/password-reset\/([A-Za-z0-9_-]{43}))"/.exec(field);
  if (!match) throw new Error("no reset link on the page");
  return { link: match[1]!, token: match[2]! };
}

const usersList = async () => decode((await page(server.url, "/settings/users", admin.cookie)).html);

describe("without mail, a reset request is kept for the admins", () => {
  it("of an active account only: listed (who, when) on the users list and the user's screen; an unknown or deactivated address answers the same and is not kept", async () => {
    const asking = await createTestUser(server.db, { name: "Asking Anna" });
    const deactivated = await createTestUser(server.db, { name: "Dormant Dirk" });
    await post(`/settings/users/${deactivated.id}`, { intent: "deactivate" });
    const unknown = `nobody-${Date.now()}@example.test`;
    for (const email of [asking.email, deactivated.email, unknown]) {
      const response = await requestReset(email);
      expect(response.status, email).toBe(302);
      expect(response.headers.get("location"), email).toBe("/password-reset?requested=1");
      expect(response.headers.get("set-cookie"), email).toBeNull();
    }
    expect(decode((await page(server.url, "/password-reset?requested=1")).html)).toContain(NO_MAIL_ANSWER);

    expect(await openRequests(asking.id)).toHaveLength(1);
    expect(await openRequests(deactivated.id)).toEqual([]);
    const { rows } = await server.db.query("SELECT 1 FROM password_reset_requests r JOIN users u ON u.id = r.user_id WHERE u.email = $1", [
      unknown,
    ]);
    expect(rows).toEqual([]);
    // A repeat keeps one open request.
    expect((await requestReset(asking.email.toUpperCase())).status).toBe(302);
    expect(await openRequests(asking.id)).toHaveLength(1);

    const list = await usersList();
    expect(list).toContain("Password requests");
    expect(list).toContain(`href="/settings/users/${asking.id}#password"`);
    expect(list).toMatch(new RegExp(`data-reset-request="${asking.id}"[^>]*><strong>Asking Anna</strong>`));
    expect(list).not.toContain(`data-reset-request="${deactivated.id}"`);

    const screen = decode((await page(server.url, `/settings/users/${asking.id}`, admin.cookie)).html);
    expect(screen).toContain("Asking Anna asked for a new password. This installation cannot send mail");
    expect(screen).toMatch(/Asked on(<!-- -->)? <time dateTime="[^"]+"/);
  });
});

describe("Set password", () => {
  it("opens as a dialog (?password); the user signs in with the new password, their sessions end, the request and a sign-in lockout are lifted, the activity log records it", async () => {
    const user = await createTestUser(server.db, { name: "Forgetful Frits" });
    const bystander = await signedInUser(server.url, server.db);
    const laptop = await signIn(server.url, user.email, user.password);
    const phone = await signIn(server.url, user.email, user.password);
    for (let attempt = 0; attempt < 5; attempt++) await postJson(server.url, "/auth/login", { email: user.email, password: "wrong guess" });
    expect((await requestReset(user.email)).status).toBe(302);
    const path = `/settings/users/${user.id}`;

    const dialog = decode((await page(server.url, `${path}?password`, admin.cookie)).html);
    expect(dialog).toContain('role="dialog"');
    expect(dialog).toContain("A new password for Forgetful Frits");
    expect(dialog).toContain(`action="${path}?password"`);

    const response = await post(`${path}?password`, { intent: "setPassword", password: NEW_PASSWORD, confirmPassword: NEW_PASSWORD });
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe(`${path}?done=passwordSet`);
    expect(decode((await page(server.url, `${path}?done=passwordSet`, admin.cookie)).html)).toContain(
      "The password of Forgetful Frits was set, and Forgetful Frits was signed out everywhere.",
    );

    expect(await homeWith(server.url, laptop)).toBe("/login");
    expect(await homeWith(server.url, phone)).toBe("/login");
    expect(await homeWith(server.url, bystander.cookie)).toBe("signed in");
    expect(await homeWith(server.url, admin.cookie)).toBe("signed in");
    expect((await postJson(server.url, "/auth/login", { email: user.email, password: user.password })).status).toBe(401);
    expect((await postJson(server.url, "/auth/login", { email: user.email, password: NEW_PASSWORD })).status).toBe(200);

    expect(await openRequests(user.id)).toEqual([]);
    expect(await usersList()).not.toContain(`data-reset-request="${user.id}"`);
    expect(await activityFor(user.email)).toEqual([{ actor_name: "Ada Admin", area: "user", action: "passwordSet" }]);
    expect(rawLog.join("\n")).not.toContain(NEW_PASSWORD);
  });

  it("refuses a short or unconfirmed password in the dialog, with the password rules of signup, and changes nothing", async () => {
    const user = await createTestUser(server.db);
    const path = `/settings/users/${user.id}?password`;
    const before = (await findUserByEmail(server.db, user.email))?.passwordHash;
    const short = await post(path, { intent: "setPassword", password: "short", confirmPassword: "short" });
    expect(short.status).toBe(400);
    const shortHtml = await short.text();
    expect(shortHtml).toContain('role="dialog"');
    expect(fieldErrorText(shortHtml, "password")).toBe("Use at least 8 characters");
    const mismatch = await post(path, { intent: "setPassword", password: NEW_PASSWORD, confirmPassword: "something else" });
    expect(mismatch.status).toBe(400);
    expect(fieldErrorText(await mismatch.text(), "confirmPassword")).toBe("The two passwords are not the same");
    const empty = await post(path, { intent: "setPassword" });
    expect(empty.status).toBe(400);
    expect(fieldErrorText(await empty.text(), "password")).toBe("Enter your password");
    expect((await findUserByEmail(server.db, user.email))?.passwordHash).toBe(before);
    expect(await activityFor(user.email)).toEqual([]);
  });
});

describe("Make reset link", () => {
  it("shows a link once, valid as long as a mailed one; it works once and ends the user's sessions; the request closes", async () => {
    const user = await createTestUser(server.db, { name: "Linked Lotte" });
    const session = await signIn(server.url, user.email, user.password);
    expect((await requestReset(user.email)).status).toBe(302);
    const path = `/settings/users/${user.id}`;

    const made = await post(path, { intent: "resetLink" });
    expect(made.status).toBe(200);
    const html = decode(await made.text());
    expect(html).toContain("Reset link for Linked Lotte");
    expect(html).toContain("Shown this once");
    const { link, token } = linkOn(html);
    expect(link).toBe(`${server.url}/password-reset/${token}`);
    expect(rawLog.join("\n")).not.toContain(token);
    // Shown once: the screen itself does not show it again.
    expect((await page(server.url, path, admin.cookie)).html).not.toContain(token);

    const { rows } = await server.db.query<{ minutes: number }>(
      "SELECT round(extract(epoch FROM expires_at - created_at) / 60)::int AS minutes FROM password_resets WHERE token_hash = $1",
      [hashToken(token)],
    );
    expect(rows).toEqual([{ minutes: 60 }]);
    expect(await openRequests(user.id)).toEqual([]);
    expect(await activityFor(user.email)).toEqual([{ actor_name: "Ada Admin", area: "user", action: "resetLinkMade" }]);
    // Making the link changes nothing yet.
    expect(await homeWith(server.url, session)).toBe("signed in");

    expect((await get(server.url, `/password-reset/${token}`)).status).toBe(200);
    const used = await postForm(server.url, `/password-reset/${token}`, { password: NEW_PASSWORD, confirmPassword: NEW_PASSWORD });
    expect(used.status).toBe(302);
    expect(used.headers.get("location")).toBe("/login?password_changed=1");
    expect(await homeWith(server.url, session)).toBe("/login");
    expect((await postJson(server.url, "/auth/login", { email: user.email, password: NEW_PASSWORD })).status).toBe(200);

    const again = await postForm(server.url, `/password-reset/${token}`, { password: "another one!", confirmPassword: "another one!" });
    expect(again.status).toBe(410);
    expect((await page(server.url, `/password-reset/${token}`)).status).toBe(410);
  });

  it("expires like a mailed link", async () => {
    const user = await createTestUser(server.db);
    const { token } = linkOn(decode(await (await post(`/settings/users/${user.id}`, { intent: "resetLink" })).text()));
    await server.db.query("UPDATE password_resets SET expires_at = now() - interval '1 second' WHERE token_hash = $1", [hashToken(token)]);
    const expired = await page(server.url, `/password-reset/${token}`);
    expect(expired.status).toBe(410);
    expect(decode(expired.html)).toContain("This password reset link has expired");
    expect((await postForm(server.url, `/password-reset/${token}`, { password: NEW_PASSWORD, confirmPassword: NEW_PASSWORD })).status).toBe(
      410,
    );
  });

  it("a request made after the link was made closes when the user resets with it", async () => {
    const user = await createTestUser(server.db);
    const { token } = linkOn(decode(await (await post(`/settings/users/${user.id}`, { intent: "resetLink" })).text()));
    expect((await requestReset(user.email)).status).toBe(302);
    expect(await openRequests(user.id)).toHaveLength(1);
    expect((await postForm(server.url, `/password-reset/${token}`, { password: NEW_PASSWORD, confirmPassword: NEW_PASSWORD })).status).toBe(
      302,
    );
    expect(await openRequests(user.id)).toEqual([]);
  });
});

describe("what an admin cannot do here", () => {
  it("set their own password or make their own link (the profile asks for the current one), nor a deactivated user's", async () => {
    const self = `/settings/users/${admin.user.id}`;
    const screen = decode((await page(server.url, self, admin.cookie)).html);
    expect(screen).toContain("You change your own password on your profile");
    expect(screen).not.toContain('value="resetLink"');
    for (const fields of [
      { intent: "setPassword", password: NEW_PASSWORD, confirmPassword: NEW_PASSWORD },
      { intent: "resetLink" },
    ] as Array<Record<string, string>>) {
      const response = await post(self, fields);
      expect(response.status).toBe(409);
      expect(formErrorText(await response.text())).toBe(
        "You cannot set your own password here: change it on your profile, which asks for the current one.",
      );
    }
    expect(await homeWith(server.url, admin.cookie)).toBe("signed in");

    const dormant = await createTestUser(server.db);
    await post(`/settings/users/${dormant.id}`, { intent: "deactivate" });
    expect(decode((await page(server.url, `/settings/users/${dormant.id}`, admin.cookie)).html)).toContain("Reactivate the account first");
    const refused = await post(`/settings/users/${dormant.id}`, { intent: "resetLink" });
    expect(refused.status).toBe(409);
    expect(formErrorText(await refused.text())).toBe("This account is deactivated: reactivate it first.");
    const { rows } = await server.db.query("SELECT 1 FROM password_resets WHERE user_id = $1", [dormant.id]);
    expect(rows).toEqual([]);
  });
});

describe("guards", () => {
  it("anonymous visitors go to /login and non-admins to /, for the dialog and both actions; nothing changes", async () => {
    const member = await signedInUser(server.url, server.db, { permissions: ["user", "dev"] });
    const target = await createTestUser(server.db);
    const path = `/settings/users/${target.id}`;
    const anonymous = await get(server.url, `${path}?password`);
    expect(anonymous.status).toBe(302);
    expect(anonymous.headers.get("location")).toMatch(/^\/login\?from_url=/);
    expect(new URL(anonymous.headers.get("location")!, server.url).searchParams.get("from_url")).toMatch(
      new RegExp(`^${path}\\?password=?$`),
    );
    const notAdmin = await get(server.url, `${path}?password`, member.cookie);
    expect(notAdmin.headers.get("location")).toBe("/?notice=admin-only");
    const before = (await findUserByEmail(server.db, target.email))?.passwordHash;
    for (const fields of [
      { intent: "setPassword", password: NEW_PASSWORD, confirmPassword: NEW_PASSWORD },
      { intent: "resetLink" },
    ] as Array<Record<string, string>>) {
      const nobody = await postForm(server.url, path, fields, undefined, { Origin: server.url });
      expect(nobody.status).toBe(302);
      expect(nobody.headers.get("location")).toBe(`/login?from_url=${encodeURIComponent(path)}`);
      const notAdminPost = await post(path, fields, member.cookie);
      expect(notAdminPost.status).toBe(302);
      expect(notAdminPost.headers.get("location")).toBe("/?notice=admin-only");
    }
    expect((await findUserByEmail(server.db, target.email))?.passwordHash).toBe(before);
    const { rows } = await server.db.query("SELECT 1 FROM password_resets WHERE user_id = $1", [target.id]);
    expect(rows).toEqual([]);
    expect(await activityFor(target.email)).toEqual([]);
  });

  it("a cross-site post (CSRF) is refused before any work, even with an admin's cookie", async () => {
    const target = await createTestUser(server.db);
    const session = await signIn(server.url, target.email, target.password);
    const path = `/settings/users/${target.id}`;
    for (const fields of [
      { intent: "setPassword", password: NEW_PASSWORD, confirmPassword: NEW_PASSWORD },
      { intent: "resetLink" },
    ] as Array<Record<string, string>>) {
      const response = await postForm(server.url, path, fields, admin.cookie, {
        Origin: "https://evil.example",
        "Sec-Fetch-Site": "cross-site",
      });
      expect(response.status).toBe(403);
    }
    expect(await homeWith(server.url, session)).toBe("signed in");
    expect((await postJson(server.url, "/auth/login", { email: target.email, password: target.password })).status).toBe(200);
    const { rows } = await server.db.query("SELECT 1 FROM password_resets WHERE user_id = $1", [target.id]);
    expect(rows).toEqual([]);
  });
});

describe("with mail", () => {
  let mail: TestMailServer;
  let mailing: TestServer;
  beforeAll(async () => {
    mail = await startMailServer();
    mailing = await startTestServer({ env: { SMTP_URL: mail.url, MAIL_FROM: "vitrine@example.test", TRUST_PROXY: "1" } });
  });
  afterAll(async () => {
    await mailing.stop();
    await mail.close();
  });

  it("a request is mailed, not kept: nothing is listed for the admins, and the page says a link is on its way", async () => {
    const mailingAdmin = await signedInUser(mailing.url, mailing.db, { permissions: ["user", "admin"] });
    const user = await createTestUser(mailing.db, { name: "Mailed Mia" });
    expect((await requestReset(user.email, mailing)).status).toBe(302);
    await mail.waitForMail(user.email);
    const { rows } = await mailing.db.query("SELECT 1 FROM password_reset_requests");
    expect(rows).toEqual([]);
    expect(decode((await page(mailing.url, "/settings/users", mailingAdmin.cookie)).html)).not.toContain("Password requests");
    expect(decode((await page(mailing.url, `/settings/users/${user.id}`, mailingAdmin.cookie)).html)).not.toContain(
      "asked for a new password",
    );
    expect(decode((await page(mailing.url, "/password-reset?requested=1")).html)).toContain(
      "If that address belongs to an account, a link to choose a new password is on its way.",
    );
  });
});

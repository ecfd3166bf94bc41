import type { ParsedMail } from "mailparser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findUserByEmail, setUserLocale } from "@server/accounts/users";
import { createLogger } from "@server/logger";
import { hashToken } from "@server/security/tokens";
import { decode, page, signedInUser } from "@tests/support/fixtures";
import { createTestUser, fieldErrorText, formErrorText, get, homeWith, postForm, postJson, signIn } from "@tests/support/http";
import { startTestServer, type TestServer } from "@tests/support/server";
import { startMailServer, type TestMailServer } from "@tests/support/smtp";

/*
 * /password-reset and /password-reset/{id}: the same answer whether or not the account exists, rate limits per
 * address and per client address, a single-use token valid for an hour mailed through a real SMTP server (or,
 * without mail, a request for the admins and a log line: tests/integration/password-admin.test.ts), and a reset
 * that ends every session of the user.
 */

const NEW_PASSWORD = "reset and renewed";
const SENT = "If that address belongs to an account, a link to choose a new password is on its way.";

interface LogLine {
  level: number;
  msg: string;
  email?: string;
  path?: string;
}

function captureLogger() {
  const lines: LogLine[] = [];
  const raw: string[] = [];
  const logger = createLogger("info", { write: (line: string) => void (raw.push(line), lines.push(JSON.parse(line) as LogLine)) });
  return { logger, lines, raw };
}

let mail: TestMailServer;
let server: TestServer;
let log: ReturnType<typeof captureLogger>;
let addressCounter = 0;

beforeAll(async () => {
  mail = await startMailServer();
  log = captureLogger();
  // TRUST_PROXY: each test comes from an address of its own (X-Forwarded-For), so their rate limits stay apart.
  server = await startTestServer({
    env: { SMTP_URL: mail.url, MAIL_FROM: "Vitrine <vitrine@example.test>", TRUST_PROXY: "1" },
    logger: log.logger,
  });
});
afterAll(async () => {
  await server.stop();
  await mail.close();
});

/** A client address of its own for one test. */
const newAddress = () => `203.0.113.${++addressCounter}`;

function requestReset(email: string, address: string, target = server) {
  return postForm(target.url, "/password-reset", { email }, undefined, { "X-Forwarded-For": address });
}

/** The reset link in a mail, and its token. */
function linkIn(message: ParsedMail): { link: string; token: string } {
  const link = /https?:\/\/\S+\/password-reset\/([A-Za-z0-9_-]+)/.exec(message.text ?? "");
  if (!link) throw new Error(`no reset link in: ${message.text}`);
  return { link: link[0], token: link[1]! };
}

const mailsTo = (email: string) =>
  mail.messages.filter((message) => [message.to].flat().some((to) => to?.value.some((entry) => entry.address === email)));

/** Asks for a reset of `email` and waits (polling, under a deadline) for the new mail it brings. */
async function resetLinkFor(email: string): Promise<{ link: string; token: string; message: ParsedMail }> {
  const before = mailsTo(email).length;
  expect((await requestReset(email, newAddress())).status).toBe(302);
  const deadline = Date.now() + 15_000;
  for (;;) {
    const message = mailsTo(email)[before];
    if (message) return { ...linkIn(message), message };
    if (Date.now() > deadline) throw new Error(`no new mail to ${email}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const setPassword = (token: string, password: string, confirmPassword = password) =>
  postForm(server.url, `/password-reset/${token}`, { password, confirmPassword });

describe("asking for a reset", () => {
  it("is linked from the sign-in page", async () => {
    expect(await (await get(server.url, "/login")).text()).toContain('href="/password-reset"');
  });

  it("answers an existing and an unknown address the same: same status, same place, same page", async () => {
    const user = await createTestUser(server.db);
    const known = await requestReset(user.email, newAddress());
    const unknown = await requestReset(`nobody-${Date.now()}@example.test`, newAddress());
    for (const response of [known, unknown]) {
      expect(response.status).toBe(302);
      expect(response.headers.get("location")).toBe("/password-reset?requested=1");
      expect(response.headers.get("set-cookie")).toBeNull();
    }
    const shown = await page(server.url, "/password-reset?requested=1");
    expect(shown.status).toBe(200);
    expect(decode(shown.html)).toContain(SENT);
    expect(shown.html).not.toContain(user.email);
  });

  it("mails the account a single-use link valid for an hour, in the account's language; an unknown address gets nothing", async () => {
    const user = await createTestUser(server.db, { name: "Noor Nederlands" });
    await setUserLocale(server.db, user.id, "nl");
    const stranger = `stranger-${Date.now()}@example.test`;
    await requestReset(stranger, newAddress());
    const { link, token, message } = await resetLinkFor(user.email);
    expect(message.subject).toBe("Kies een nieuw wachtwoord voor Vitrine");
    expect(message.text).toContain("Hallo Noor Nederlands,");
    expect(message.from?.text).toContain("vitrine@example.test");
    expect(link).toBe(`${server.url}/password-reset/${token}`);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const { rows } = await server.db.query<{ userId: string; minutes: number; usedAt: Date | null }>(
      `SELECT user_id AS "userId", round(extract(epoch FROM expires_at - created_at) / 60)::int AS minutes, used_at AS "usedAt"
       FROM password_resets WHERE token_hash = $1`,
      [hashToken(token)],
    );
    expect(rows).toEqual([{ userId: user.id, minutes: 60, usedAt: null }]);
    expect(mailsTo(stranger)).toEqual([]);
  });

  it("refuses an empty or malformed address with the sign-in form's messages", async () => {
    const empty = await requestReset("", newAddress());
    expect(empty.status).toBe(400);
    expect(fieldErrorText(await empty.text(), "email")).toBe("Enter your email address");
    const malformed = await requestReset("not-an-address", newAddress());
    expect(fieldErrorText(await malformed.text(), "email")).toBe("Enter a valid email address");
  });

  it("is limited per address: the fourth request in an hour waits, whether or not the account exists", async () => {
    const user = await createTestUser(server.db);
    for (const email of [user.email, `ghost-${Date.now()}@example.test`]) {
      for (let attempt = 0; attempt < 3; attempt++) expect((await requestReset(email, newAddress())).status).toBe(302);
      const limited = await requestReset(email.toUpperCase(), newAddress());
      expect(limited.status, email).toBe(429);
      expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(3000);
      expect(formErrorText(await limited.text())).toBe("Too many reset requests. Try again in 60 minute(s).");
    }
  });

  it("is limited per client address: the eleventh request from one address in an hour waits", async () => {
    const address = newAddress();
    for (let attempt = 0; attempt < 10; attempt++) {
      expect((await requestReset(`spray-${attempt}-${Date.now()}@example.test`, address)).status).toBe(302);
    }
    const limited = await requestReset(`spray-last-${Date.now()}@example.test`, address);
    expect(limited.status).toBe(429);
    expect((await requestReset(`elsewhere-${Date.now()}@example.test`, newAddress())).status).toBe(302);
  });
});

describe("using the link", () => {
  it("sets the new password once: every session of the user ends, its other open links close, and sign-in takes the new password", async () => {
    const user = await createTestUser(server.db);
    const bystander = await signedInUser(server.url, server.db);
    const sessionA = await signIn(server.url, user.email, user.password);
    const sessionB = await signIn(server.url, user.email, user.password);
    const first = await resetLinkFor(user.email);
    const second = await resetLinkFor(user.email);

    const form = await page(server.url, `/password-reset/${first.token}`);
    expect(form.status).toBe(200);
    expect(decode(form.html)).toContain(`For the account of ${user.email}.`);

    const response = await setPassword(first.token, NEW_PASSWORD);
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/login?password_changed=1");
    expect(decode((await page(server.url, "/login?password_changed=1")).html)).toContain(
      "Your password has been changed. Sign in with your new password.",
    );

    expect(await homeWith(server.url, sessionA)).toBe("/login");
    expect(await homeWith(server.url, sessionB)).toBe("/login");
    expect(await homeWith(server.url, bystander.cookie)).toBe("signed in");
    expect((await postJson(server.url, "/auth/login", { email: user.email, password: user.password })).status).toBe(401);
    expect((await postJson(server.url, "/auth/login", { email: user.email, password: NEW_PASSWORD })).status).toBe(200);

    for (const token of [first.token, second.token]) {
      const used = await page(server.url, `/password-reset/${token}`);
      expect(used.status).toBe(410);
      expect(decode(used.html)).toContain("This password reset link has already been used: each link works once.");
      expect(used.html).toContain('href="/password-reset"');
      const again = await setPassword(token, "yet another password");
      expect(again.status).toBe(410);
    }
    expect((await postJson(server.url, "/auth/login", { email: user.email, password: NEW_PASSWORD })).status).toBe(200);
  });

  it("refuses a short or unconfirmed password and keeps the link usable", async () => {
    const user = await createTestUser(server.db);
    const { token } = await resetLinkFor(user.email);
    const short = await setPassword(token, "short");
    expect(short.status).toBe(400);
    expect(fieldErrorText(await short.text(), "password")).toBe("Use at least 8 characters");
    const mismatch = await setPassword(token, NEW_PASSWORD, "something else");
    expect(mismatch.status).toBe(400);
    expect(fieldErrorText(await mismatch.text(), "confirmPassword")).toBe("The two passwords are not the same");
    expect((await page(server.url, `/password-reset/${token}`)).status).toBe(200);
    expect((await setPassword(token, NEW_PASSWORD)).status).toBe(302);
  });

  it("an expired link says so and changes nothing", async () => {
    const user = await createTestUser(server.db);
    const { token } = await resetLinkFor(user.email);
    await server.db.query("UPDATE password_resets SET expires_at = now() - interval '1 second' WHERE token_hash = $1", [hashToken(token)]);
    const expired = await page(server.url, `/password-reset/${token}`);
    expect(expired.status).toBe(410);
    expect(decode(expired.html)).toContain("This password reset link has expired: links work for one hour.");
    const hash = (await findUserByEmail(server.db, user.email))?.passwordHash;
    expect((await setPassword(token, NEW_PASSWORD)).status).toBe(410);
    expect((await findUserByEmail(server.db, user.email))?.passwordHash).toBe(hash);
  });

  it("an unknown link says so, with a way to ask for a new one", async () => {
    const unknown = await page(server.url, `/password-reset/${"x".repeat(43)}`);
    expect(unknown.status).toBe(404);
    expect(decode(unknown.html)).toContain("This password reset link is not valid.");
    expect(unknown.html).toContain('href="/password-reset"');
    expect((await setPassword("nope", NEW_PASSWORD)).status).toBe(404);
  });

  it("lifts the account's sign-in lockout: a locked-out user can sign in after resetting", async () => {
    const user = await createTestUser(server.db);
    for (let attempt = 0; attempt < 5; attempt++) await postJson(server.url, "/auth/login", { email: user.email, password: "wrong" });
    expect((await postJson(server.url, "/auth/login", { email: user.email, password: user.password })).status).toBe(429);
    const { token } = await resetLinkFor(user.email);
    expect((await setPassword(token, NEW_PASSWORD)).status).toBe(302);
    expect((await postJson(server.url, "/auth/login", { email: user.email, password: NEW_PASSWORD })).status).toBe(200);
  });

  it("never writes a reset token to the log", async () => {
    const user = await createTestUser(server.db);
    const { token } = await resetLinkFor(user.email);
    await page(server.url, `/password-reset/${token}`);
    await setPassword(token, NEW_PASSWORD);
    expect(log.raw.join("\n")).not.toContain(token);
    expect(log.lines.some((line) => line.path === "/password-reset/[token]")).toBe(true);
  });
});

describe("without mail (no SMTP_URL)", () => {
  let noMail: TestServer;
  let quiet: ReturnType<typeof captureLogger>;
  beforeAll(async () => {
    quiet = captureLogger();
    noMail = await startTestServer({ logger: quiet.logger });
  });
  afterAll(() => noMail.stop());

  it("says the admins see the request under Settings, the same for every address; the log notes it with the address; no token is made", async () => {
    const user = await createTestUser(noMail.db);
    for (const email of [user.email, `unknown-${Date.now()}@example.test`]) {
      const response = await requestReset(email, "127.0.0.1", noMail);
      expect(response.status).toBe(302);
      expect(response.headers.get("location")).toBe("/password-reset?requested=1");
    }
    const shown = await page(noMail.url, "/password-reset?requested=1");
    expect(decode(shown.html)).toContain(
      "This installation cannot send mail, so no link is on its way. If that address belongs to an account, the admins of Vitrine now see your request under Settings: one of them can set a new password for you or give you a link to choose one.",
    );
    const noted = quiet.lines.filter((line) => line.msg.startsWith("password reset requested"));
    expect(noted.map((line) => [line.level, line.email])).toEqual([
      [40, user.email],
      [40, expect.stringMatching(/^unknown-/)],
    ]);
    const { rows } = await noMail.db.query("SELECT 1 FROM password_resets");
    expect(rows).toEqual([]);
  });
});

describe("with PUBLIC_URL", () => {
  it("links to PUBLIC_URL's address, not the address the request came to", async () => {
    const proxied = await startTestServer({
      env: { SMTP_URL: mail.url, MAIL_FROM: "vitrine@example.test", PUBLIC_URL: "https://cms.example.test" },
    });
    try {
      const user = await createTestUser(proxied.db);
      expect((await requestReset(user.email, "127.0.0.1", proxied)).status).toBe(302);
      const message = await mail.waitForMail(user.email);
      expect(linkIn(message).link).toMatch(/^https:\/\/cms\.example\.test\/password-reset\/[A-Za-z0-9_-]{43}$/);
    } finally {
      await proxied.stop();
    }
  });
});

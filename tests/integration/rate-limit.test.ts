import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "@tests/support/server";
import { cookieFrom, createTestUser, formErrorText, homeWith, postForm, postJson, retryMinutesIn } from "@tests/support/http";

/*
 * Failed sign-ins are limited per account (5) and per client address (20)
 * within 15 minutes. In tests every request comes from 127.0.0.1, so the
 * per-account scenarios clear the address counter before each test, and the
 * per-address scenario runs on a server (and database) of its own.
 */

const WINDOW_SECONDS = 15 * 60;

async function failLogin(url: string, email: string): Promise<void> {
  const response = await postJson(url, "/auth/login", { email, password: "definitely wrong" });
  const body = await response.text();
  if (response.status !== 401) throw new Error(`expected a 401 failure, got ${response.status}: ${body}`);
}

/** A 429 with Retry-After and the spec'd message, N minutes matching the header. */
function expectLimited(response: Response, text: string): number {
  expect(response.status).toBe(429);
  const retryAfter = Number(response.headers.get("retry-after"));
  expect(Number.isInteger(retryAfter)).toBe(true);
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(WINDOW_SECONDS);
  const minutes = retryMinutesIn(text);
  expect(minutes, text.slice(0, 300)).not.toBeNull();
  expect(minutes).toBe(Math.ceil(retryAfter / 60));
  expect(response.headers.get("set-cookie")).toBeNull();
  return minutes!;
}

describe("per account", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.stop());
  beforeEach(async () => {
    await server.db.query("DELETE FROM rate_limits WHERE key LIKE 'sign-in:address:%'");
  });

  it("after 5 failures the 6th attempt, even with the right password, answers 429 on /login and /auth/login", async () => {
    const user = await createTestUser(server.db);
    // Failures on both endpoints count towards the same account.
    for (let attempt = 1; attempt <= 3; attempt++) await failLogin(server.url, user.email);
    for (let attempt = 4; attempt <= 5; attempt++) {
      const page = await postForm(server.url, "/login", { email: user.email, password: "definitely wrong" });
      expect(page.status, `attempt ${attempt}`).toBe(401);
      expect(formErrorText(await page.text())).toBe("incorrect password");
    }

    const page = await postForm(server.url, "/login", { email: user.email, password: user.password });
    const html = await page.text();
    const minutes = expectLimited(page, html);
    expect(minutes).toBe(15);
    expect(formErrorText(html)).toBe("Too many failed sign-in attempts. Try again in 15 minute(s).");

    const api = await postJson(server.url, "/auth/login", { email: user.email, password: user.password });
    const body = await api.text();
    expectLimited(api, body);
    expect(JSON.parse(body)).toEqual({ error: "Too many failed sign-in attempts. Try again in 15 minute(s)." });

    const apiForm = await postForm(server.url, "/auth/login", { email: user.email, password: user.password });
    expectLimited(apiForm, await apiForm.text());
  });

  it("counts the account whatever the letter case of the email", async () => {
    const user = await createTestUser(server.db);
    const spellings = [user.email, user.email.toUpperCase(), ` ${user.email} `, user.email.toUpperCase(), user.email];
    for (const email of spellings) await failLogin(server.url, email);
    const response = await postJson(server.url, "/auth/login", { email: user.email, password: user.password });
    expectLimited(response, await response.text());
  });

  it("limits only that account: another account still signs in", async () => {
    const locked = await createTestUser(server.db);
    const other = await createTestUser(server.db);
    for (let attempt = 1; attempt <= 5; attempt++) await failLogin(server.url, locked.email);
    const lockedOut = await postJson(server.url, "/auth/login", { email: locked.email, password: locked.password });
    expectLimited(lockedOut, await lockedOut.text());
    const response = await postForm(server.url, "/login", { email: other.email, password: other.password });
    expect(response.status).toBe(302);
    expect(await homeWith(server.url, cookieFrom(response)!)).toBe("signed in");
  });

  it("a successful sign-in before the limit resets the account's counter", async () => {
    const user = await createTestUser(server.db);
    for (let attempt = 1; attempt <= 4; attempt++) await failLogin(server.url, user.email);
    const success = await postJson(server.url, "/auth/login", { email: user.email, password: user.password });
    expect(success.status).toBe(200);
    // Without the reset the 5th failure would lock the account and the next attempt answer 429.
    for (let attempt = 1; attempt <= 4; attempt++) await failLogin(server.url, user.email);
    const again = await postForm(server.url, "/login", { email: user.email, password: user.password });
    expect(again.status).toBe(302);
    expect(await homeWith(server.url, cookieFrom(again)!)).toBe("signed in");
  });

  it("does not count empty submissions as failures", async () => {
    const user = await createTestUser(server.db);
    for (let attempt = 1; attempt <= 6; attempt++) {
      const response = await postForm(server.url, "/login", { email: user.email, password: "" });
      expect(response.status).toBe(400);
      await response.body?.cancel();
    }
    const success = await postJson(server.url, "/auth/login", { email: user.email, password: user.password });
    expect(success.status).toBe(200);
  });
});

describe("per address", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.stop());

  it("after 20 failures across accounts from one address, a further account gets 429, even with a forged X-Forwarded-For", async () => {
    const [early, late] = [await createTestUser(server.db), await createTestUser(server.db)];
    // 19 failures, each on its own (unknown) account, so no account limit is reached.
    for (let n = 1; n <= 19; n++) {
      const response = await postJson(server.url, "/auth/login", { email: `stranger${n}@example.test`, password: "guess" });
      expect(response.status, `failure ${n}`).toBe(401);
      expect(await response.json()).toEqual({ error: "unknown user", message: "unknown user" });
    }
    // Below the limit a right password still works (and does not clear the address counter).
    const stillOpen = await postJson(server.url, "/auth/login", { email: early.email, password: early.password });
    expect(stillOpen.status).toBe(200);
    const twentieth = await postForm(server.url, "/login", { email: "stranger20@example.test", password: "guess" });
    expect(twentieth.status).toBe(401);
    await twentieth.body?.cancel();

    const api = await postJson(server.url, "/auth/login", { email: late.email, password: late.password });
    expectLimited(api, await api.text());
    const page = await postForm(server.url, "/login", { email: late.email, password: late.password });
    const html = await page.text();
    expectLimited(page, html);
    expect(formErrorText(html)).toMatch(/^Too many failed sign-in attempts\. Try again in \d+ minute\(s\)\.$/);

    // Without TRUST_PROXY the client's own X-Forwarded-For does not change its address.
    const spoofed = await postJson(server.url, "/auth/login", { email: late.email, password: late.password }, undefined, {
      "X-Forwarded-For": "198.51.100.7",
    });
    expectLimited(spoofed, await spoofed.text());
  });
});

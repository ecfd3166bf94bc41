import type { Db } from "@server/db/client";
import { createUser, type Permission, type User } from "@server/accounts/users";
import { hashPassword } from "@server/security/password";

const TEST_PASSWORD = "correct horse battery";

/**
 * Test users' password hashes, one per password and test process: real scrypt hashes, but at 1/32 of the server's
 * cost (N = 2^10 instead of 2^15). A sign-in verifies with the parameters its hash stores, so each of the suite's
 * hundreds of sign-ins of a fixture user costs about 4 ms of CPU instead of 0.1–0.2 s. The server's own hashes
 * (sign-up, password changes, the demo admin) keep the full cost, and tests/unit/password.test.ts checks it.
 */
const FIXTURE_COST = { N: 2 ** 10, r: 8, p: 1 };
const fixtureHashes = new Map<string, Promise<string>>();
function fixtureHash(password: string): Promise<string> {
  let hash = fixtureHashes.get(password);
  if (!hash) fixtureHashes.set(password, (hash = hashPassword(password, FIXTURE_COST)));
  return hash;
}

let counter = 0;
export async function createTestUser(
  db: Db,
  overrides: Partial<{ name: string; email: string; password: string; permissions: Permission[]; buckets: string[] | null }> = {},
): Promise<User & { password: string }> {
  counter += 1;
  const password = overrides.password ?? TEST_PASSWORD;
  const user = await createUser(db, {
    name: overrides.name ?? `Test User ${counter}`,
    email: overrides.email ?? `user${counter}-${Date.now()}@example.test`,
    passwordHash: await fixtureHash(password),
    permissions: overrides.permissions ?? ["user"],
    buckets: overrides.buckets ?? null,
  });
  return { ...user, password };
}

/** Signs in through POST /auth/login and returns the session cookie ("name=value"). */
export async function signIn(baseUrl: string, email: string, password = TEST_PASSWORD): Promise<string> {
  const response = await fetch(`${baseUrl}/auth/login`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ email, password }),
  });
  if (response.status !== 200) throw new Error(`sign-in failed: ${response.status} ${await response.text()}`);
  return cookieFrom(response)!;
}

export function cookieFrom(response: Response): string | null {
  const header = response.headers.get("set-cookie");
  return header ? header.split(";")[0]! : null;
}

/**
 * What a browser sends with every state-changing request: the origin of its page. A request that carries the
 * session cookie without Origin, Referer or Sec-Fetch-Site is refused as cross-site (server/security/csrf.ts).
 */
export function sameOrigin(baseUrl: string): { Origin: string } {
  return { Origin: new URL(baseUrl).origin };
}

/** fetch that never follows redirects, so tests see the 302 and its Location. */
export function get(baseUrl: string, path: string, cookie?: string, headers: Record<string, string> = {}) {
  return fetch(`${baseUrl}${path}`, { redirect: "manual", headers: { ...(cookie ? { Cookie: cookie } : {}), ...headers } });
}

export function postForm(
  baseUrl: string,
  path: string,
  fields: Record<string, string>,
  cookie?: string,
  headers: Record<string, string> = {},
) {
  return fetch(`${baseUrl}${path}`, {
    method: "POST",
    redirect: "manual",
    headers: {
      "Content-Type": "application/x-www-form-urlencoded",
      ...(cookie ? { Cookie: cookie, ...sameOrigin(baseUrl) } : {}),
      ...headers,
    },
    body: new URLSearchParams(fields),
  });
}

/** POST with a JSON body (a string is sent as is, to test malformed bodies); never follows redirects. */
export function postJson(baseUrl: string, path: string, body: unknown, cookie?: string, headers: Record<string, string> = {}) {
  return fetch(`${baseUrl}${path}`, {
    method: "POST",
    redirect: "manual",
    headers: { "Content-Type": "application/json", ...(cookie ? { Cookie: cookie, ...sameOrigin(baseUrl) } : {}), ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

/** The attributes of a Set-Cookie header, lower-cased names: { httponly: "", samesite: "Lax", path: "/", … }. */
export function cookieAttributes(response: Response): Record<string, string> {
  const header = response.headers.get("set-cookie");
  if (!header) throw new Error("the response set no cookie");
  const attributes: Record<string, string> = {};
  for (const part of header.split(";").slice(1)) {
    const [name, ...value] = part.trim().split("=");
    attributes[name!.toLowerCase()] = value.join("=");
  }
  return attributes;
}

/**
 * Where a cookie gets on the home page: "signed in" (200), or the Location it
 * is redirected to ("/login" for a dead or missing session).
 */
export async function homeWith(baseUrl: string, cookie: string | undefined): Promise<string> {
  const response = await get(baseUrl, "/", cookie);
  await response.body?.cancel();
  if (response.status === 200) return "signed in";
  return response.headers.get("location") ?? `status ${response.status}`;
}

function decodeEntities(text: string): string {
  return text
    .replace(/&quot;/g, '"')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");
}

/** The text of a page's form-level error box (role="alert" with class form-error), or null. */
export function formErrorText(html: string): string | null {
  const match = /<div class="form-error[^"]*" role="alert">([\s\S]*?)<\/div>/.exec(html);
  return match
    ? decodeEntities(
        match[1]!
          .replace(/<[^>]+>/g, " ")
          .replace(/\s+/g, " ")
          .trim(),
      )
    : null;
}

/** The text of the field error under the input named `field`, or null. */
export function fieldErrorText(html: string, field: string): string | null {
  const match = new RegExp(`<p id="[^"]*-${field}-error" class="field-error" role="alert">([\\s\\S]*?)</p>`).exec(html);
  // Several messages come as one <span class="error-line"> each; the text reads them as one.
  return match ? decodeEntities(match[1]!.replace(/<[^>]+>/g, "")) : null;
}

/** The value attribute of the <input name="…"> (null when it has none, undefined when there is no such input). */
export function inputValue(html: string, name: string): string | null | undefined {
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const input = new RegExp(`<input[^>]*\\bname="${escaped}"[^>]*>`).exec(html)?.[0];
  if (input === undefined) return undefined;
  const value = /\bvalue="([^"]*)"/.exec(input);
  return value ? decodeEntities(value[1]!) : null;
}

/** The N of 'Try again in N minute(s).' in a page or an error text, or null. */
export function retryMinutesIn(text: string): number | null {
  const match = /Too many failed sign-in attempts\. Try again in (\d+) minute\(s\)\./.exec(text);
  return match ? Number(match[1]) : null;
}

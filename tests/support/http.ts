import type { Db } from "../../server/db/client";
import { createUser, type Permission, type User } from "../../server/services/users";

export const TEST_PASSWORD = "correct horse battery";

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
    password,
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

/** fetch that never follows redirects, so tests see the 302 and its Location. */
export function get(baseUrl: string, path: string, cookie?: string, headers: Record<string, string> = {}) {
  return fetch(`${baseUrl}${path}`, { redirect: "manual", headers: { ...(cookie ? { Cookie: cookie } : {}), ...headers } });
}

export function postForm(baseUrl: string, path: string, fields: Record<string, string>, cookie?: string, headers: Record<string, string> = {}) {
  return fetch(`${baseUrl}${path}`, {
    method: "POST",
    redirect: "manual",
    headers: { "Content-Type": "application/x-www-form-urlencoded", ...(cookie ? { Cookie: cookie } : {}), ...headers },
    body: new URLSearchParams(fields),
  });
}

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestUser, sameOrigin, signIn } from "@tests/support/http";
import { startTestServer, type TestServer } from "@tests/support/server";

/*
 * A page's form post whose body cannot be read (a multipart body with no parts, cut off, or not multipart at all
 * under that type) is a 400 with the form's message on the error page, never a 500: every page action reads its
 * form through readForm (server/web/form-post.ts).
 */

let server: TestServer;
let admin: string;
let adminId: string;
let documentId: string;

beforeAll(async () => {
  server = await startTestServer({ seed: true });
  const user = await createTestUser(server.db, { permissions: ["user", "admin", "dev"] });
  admin = await signIn(server.url, user.email, user.password);
  adminId = user.id;
  const row = await server.db.query<{ id: string }>(
    "SELECT c.content_id AS id FROM contents c JOIN buckets b ON b.id = c.bucket_id WHERE b.slug = 'artists' LIMIT 1",
  );
  documentId = row.rows[0]!.id;
});
afterAll(async () => {
  await server.stop();
});

const PAGES: Array<[string, "admin" | "anonymous"]> = [
  ["/signup", "anonymous"],
  ["/password-reset", "anonymous"],
  ["/password-reset/not-a-real-token", "anonymous"],
  ["/profile", "admin"],
  ["/shareables", "admin"],
  ["/b/artists?index", "admin"],
  ["/settings/invite-user", "admin"],
  ["/settings/new-client", "admin"],
  ["/settings/webhooks/new", "admin"],
  ["/settings/buckets/import", "admin"],
  ["/settings/buckets/artists", "admin"],
  ["/settings/buckets/artists/impact", "admin"],
  ["/settings/buckets/artists/impact/stream", "admin"],
  ["/settings/users/{admin}", "admin"],
  ["/b/artists/{document}/history", "admin"],
];

describe("a form post whose body cannot be read", () => {
  it.each(PAGES)("POST %s answers 400 with the form's message", async (pattern, as) => {
    const path = pattern.replace("{admin}", adminId).replace("{document}", documentId);
    const response = await fetch(`${server.url}${path}`, {
      method: "POST",
      redirect: "manual",
      headers: {
        ...sameOrigin(server.url),
        "Content-Type": "multipart/form-data; boundary=xyz",
        ...(as === "admin" ? { Cookie: admin } : {}),
      },
      body: "this is no multipart body",
    });
    expect(response.status).toBe(400);
    expect(await response.text()).toContain("The form could not be read");
  });
});

/**
 * One pipeline, one set of errors: the same bad input posted to the edit form (no JavaScript: the
 * re-rendered page's HTML) and to the JSON API gets the same messages under the same field names.
 * The modal's side is tests/e2e/modal-errors.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Bucket } from "@server/content/buckets";
import { BAD_DOCUMENTS, BAD_INPUT_SCHEMA, pageErrors, shownLikeAForm } from "@tests/support/bad-documents";
import { createTestBucket } from "@tests/support/fixtures";
import { signedInUser } from "@tests/support/fixtures";
import { startTestServer, type TestServer } from "@tests/support/server";
import { sameOrigin } from "@tests/support/http";

let server: TestServer;
let bucket: Bucket;
let cookie: string;

beforeAll(async () => {
  server = await startTestServer();
  bucket = await createTestBucket(server.db, { jsonSchema: BAD_INPUT_SCHEMA, locales: ["en"] });
  ({ cookie } = await signedInUser(server.url, server.db));
});
afterAll(() => server.stop());

const send = (path: string, type: string, body: string) =>
  fetch(`${server.url}${path}`, {
    method: "POST",
    redirect: "manual",
    headers: { "Content-Type": type, Cookie: cookie, ...sameOrigin(server.url) },
    body,
  });

describe("the edit page and the JSON API", () => {
  it.each(BAD_DOCUMENTS.map((bad) => [bad.label, bad] as const))("show the same errors for %s", async (_label, bad) => {
    const api = await send(`/api/v1/buckets/${bucket.slug}/save`, "application/json", bad.json);
    expect([400, 422]).toContain(api.status);
    const { errors } = (await api.json()) as { errors: Record<string, string[]> };
    expect(Object.keys(errors).length).toBeGreaterThan(0);

    const page = await send(`/b/${bucket.slug}/new`, "application/x-www-form-urlencoded", `__contentId=&__baseVersionId=&${bad.form}`);
    expect(page.status).toBe(400);
    expect(pageErrors(await page.text())).toEqual(shownLikeAForm(errors));
  });
});

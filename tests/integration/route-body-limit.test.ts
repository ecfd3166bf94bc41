/**
 * The 1 MiB body limit's exemption is declared by the route (`handle.streamsBody`, core/route-handle.ts) and
 * found through the build's routes (server/web/route-handles.ts), not by URL patterns: a multipart body to a
 * route that streams it passes to the route's own limits; every other body is limited by the server.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Bucket } from "@server/content/buckets";
import { createTestBucket } from "@tests/support/fixtures";
import { signedInUser } from "@tests/support/fixtures";
import { startTestServer, type TestServer } from "@tests/support/server";
import { sameOrigin } from "@tests/support/http";

const TOO_LARGE = "Request body too large: the limit is 1048576 bytes.";
const MIB = 1024 * 1024;

let server: TestServer;
let cookie: string;
let bucket: Bucket;
const DOC_FIELD = { type: "string", _ref: "b-file" };

beforeAll(async () => {
  server = await startTestServer({ env: { MEDIA_WORKERS: "0" } });
  bucket = await createTestBucket(server.db, {
    locales: ["en"],
    jsonSchema: { type: "object", properties: { name: { type: "string" }, doc: DOC_FIELD } },
  });
  ({ cookie } = await signedInUser(server.url, server.db));
});
afterAll(() => server.stop());

/** A multipart body of about 2 MiB: its fields, then a text file. */
function bigForm(fields: Record<string, string>, fileField = "file"): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  form.append(fileField, new Blob(["a".repeat(2 * MIB)], { type: "text/plain" }), "big.txt");
  return form;
}

/** POSTs a body with its Content-Length, or chunked (a stream without a length). */
async function post(path: string, body: FormData | string, options: { chunked?: boolean; type?: string } = {}) {
  let payload: BodyInit = body;
  const headers: Record<string, string> = { Cookie: cookie, ...sameOrigin(server.url) };
  if (typeof body !== "string") {
    const encoded = new Response(body);
    headers["Content-Type"] = encoded.headers.get("content-type")!;
    payload = options.chunked ? encoded.body! : await encoded.arrayBuffer();
  } else headers["Content-Type"] = options.type ?? "application/x-www-form-urlencoded";
  return fetch(`${server.url}${path}`, { method: "POST", redirect: "manual", headers, body: payload, duplex: "half" } as RequestInit);
}

describe("routes whose module declares streamsBody", () => {
  it("take a multipart body over 1 MiB to their own limits: a media upload", async () => {
    const response = await post(
      "/api/v1/media/file/upload",
      bigForm({ bucket: bucket.slug, uid: "u1", properties: JSON.stringify(DOC_FIELD) }),
    );
    expect(response.status, await response.clone().text()).toBe(200);
    expect((await response.json())[0]).toMatchObject({ originalFilename: "big.txt", size: 2 * MIB });
  });

  it.each([
    ["the page", ""],
    ["a single-fetch request", ".data"],
  ])("take a multipart edit form over 1 MiB, chunked too: %s", async (_name, suffix) => {
    for (const chunked of [false, true]) {
      const response = await post(
        `/b/${bucket.slug}/new${suffix}`,
        bigForm({ __contentId: "", __baseVersionId: "", name: "Streamed" }, "__media_file.doc"),
        { chunked },
      );
      expect(response.status, `chunked: ${chunked}`).not.toBe(413);
      expect(response.status, `chunked: ${chunked}`).toBeLessThan(400);
    }
  });

  it("still have their other bodies limited: an urlencoded edit form over 1 MiB", async () => {
    const response = await post(`/b/${bucket.slug}/new`, `name=${"x".repeat(MIB + 1)}`);
    expect(response.status).toBe(413);
    expect(await response.text()).toBe(TOO_LARGE);
  });
});

describe("routes that do not stream their body", () => {
  it.each([
    ["the JSON save API", () => `/api/v1/buckets/${bucket.slug}/save`],
    ["a media route that reads a small JSON body (crop)", () => "/api/v1/media/image/crop/00000000-0000-4000-8000-000000000000"],
    ["an unknown path under /api/v1/media/", () => "/api/v1/media/image/no/such/route"],
    ["a page", () => "/profile"],
  ])("refuse a multipart body over 1 MiB with 413, with or without Content-Length: %s", async (_name, path) => {
    for (const chunked of [false, true]) {
      const response = await post(path(), bigForm({ name: "x" }), { chunked });
      expect(response.status, `chunked: ${chunked}`).toBe(413);
      expect(await response.text()).toBe(TOO_LARGE);
    }
  });
});

/**
 * Messages under a form's fields follow the editor's interface language (docs/architecture.md "Language of
 * messages"): a refused file of the edit form's no-JavaScript post, on an English server, for an editor whose
 * browser asks for Dutch. The interface language is DEFAULT_LOCALE only for whoever did not choose another.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Bucket } from "@server/content/buckets";
import { createTestBucket, signedInUser } from "@tests/support/fixtures";
import { sameOrigin } from "@tests/support/http";
import { pngOfSize } from "@tests/support/media-fixtures";
import { startTestServer, type TestServer } from "@tests/support/server";

let server: TestServer;
let bucket: Bucket;
let cookie: string;
let small: Buffer;

beforeAll(async () => {
  server = await startTestServer({ env: { MEDIA_WORKERS: "0" } });
  bucket = await createTestBucket(server.db, {
    jsonSchema: {
      type: "object",
      required: ["name"],
      properties: { name: { type: "string" }, photo: { type: "string", _ref: "b-image", minWidth: "HD", minHeight: "HD" } },
    },
    locales: ["en"],
  });
  cookie = (await signedInUser(server.url, server.db)).cookie;
  small = await pngOfSize(1000, 700);
});
afterAll(() => server.stop());

function post(language: string) {
  const form = new FormData();
  form.append("__contentId", "");
  form.append("__baseVersionId", "");
  form.append("__media_file.photo", new Blob([new Uint8Array(small)]), "small.png");
  return fetch(`${server.url}/b/${bucket.slug}/new`, {
    method: "POST",
    redirect: "manual",
    headers: { Cookie: cookie, "Accept-Language": language, ...sameOrigin(server.url) },
    body: form,
  });
}

describe("the language of a refused file's message (DEFAULT_LOCALE en)", () => {
  it.each([
    ["nl-NL,nl;q=0.9", "Afbeelding is te smal (1000px), minimale breedte: 1920px", "Dit is een verplicht veld", "Image is too narrow"],
    ["en-US,en;q=0.9", "Image is too narrow (1000px), minimum width: 1920px", "This field is required", "Afbeelding is te smal"],
  ])(
    "Accept-Language %s: the file's and the fields' messages in that language, none in the other",
    async (language, fileMessage, required, other) => {
      const response = await post(language);
      expect(response.status).toBe(422);
      const html = (await response.text()).replaceAll("&#x27;", "'");
      expect(html).toContain(fileMessage);
      expect(html).toContain(required);
      expect(html).not.toContain(other);
    },
  );
});

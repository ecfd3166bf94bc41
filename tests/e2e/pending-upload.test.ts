import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser, open } from "@tests/support/browser";
import { contentIdOf, control, fieldBox, plainText, save, signedInContext, storedDocument } from "@tests/support/content-browser";
import { createTestBucket } from "@tests/support/fixtures";
import { jpegOfSize } from "@tests/support/media-fixtures";
import { startTestServer, type TestServer } from "@tests/support/server";

/*
 * Without JavaScript, a file chosen in a form that fails validation is not lost: the re-rendered form shows it
 * under its field (a pending upload, nothing committed), and saving the corrected form saves it, without
 * choosing the file again.
 */

let server: TestServer;
let browser: Browser;

beforeAll(async () => {
  [server, browser] = await Promise.all([startTestServer({ env: { MEDIA_WORKERS: "0" } }), launchBrowser()]);
});
afterAll(async () => {
  await browser.close();
  await server.stop();
});

describe("without JavaScript", () => {
  it("keeps a file chosen in an invalid form and saves it with the corrected form", async () => {
    const bucket = await createTestBucket(server.db, {
      locales: ["en"],
      jsonSchema: {
        type: "object",
        required: ["name"],
        properties: { name: { type: "string", title: "Name" }, photo: { type: "string", title: "Photo", _ref: "b-image" } },
      },
    });
    const file = path.join(mkdtempSync(path.join(tmpdir(), "vitrine-pending-")), "harbour.jpg");
    writeFileSync(file, await jpegOfSize(1920, 1080));
    const ctx = await signedInContext(browser, server, { javaScriptEnabled: false });
    const page = await ctx.newPage();
    await open(page, `/b/${bucket.slug}/new`);
    await fieldBox(page, "photo").locator('input[type="file"]').setInputFiles(file);

    expect(await save(page)).toBe(400);
    expect(await plainText(fieldBox(page, "name").locator(".field-error"))).toBe("This field is required");
    const pending = fieldBox(page, "photo").locator(".media-pending");
    expect(await plainText(pending.locator(".media-filename"))).toBe("harbour.jpg");
    expect(await plainText(pending.locator(".media-state"))).toBe("Not saved yet: it is saved with the document");
    const { rows: media } = await server.db.query("SELECT 1 FROM media WHERE bucket_id = $1", [bucket.id]);
    expect(media).toEqual([]);

    await control(page, "name").fill("Harbour");
    expect(await save(page)).toBeLessThan(400);
    const { data } = await storedDocument(server, ctx.cookie, bucket.slug, contentIdOf(page));
    expect(data).toMatchObject({ name: "Harbour", photo: await control(page, "photo").inputValue() });
    expect(await plainText(fieldBox(page, "photo").locator(".media-filename"))).toBe("harbour.jpg");
    ctx.expectNoErrors();
    await ctx.close();
  });
});

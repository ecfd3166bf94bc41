import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import { createReadStream, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { libraryBuckets } from "@server/media/library";
import { describeMediaItem } from "@server/media/library-item";
import { createBucket, type Bucket } from "@server/content/buckets";
import { createPublished } from "@tests/support/publishing";
import { createContent, saveVersion } from "@server/content/store";
import { listContents } from "@server/content/listing";
import { addToRelease, createRelease, scheduleRelease } from "@server/content/release-editing";
import { rollbackRelease } from "@server/content/release-rollout";
import { DEMO_BUCKETS } from "@server/demo-content";
import { insertMedia } from "@server/media/store";
import { launchBrowser, newContext } from "@tests/support/browser";
import { readBundle, verifyManifest } from "@tests/support/bundle";
import { deliveryClient } from "@tests/support/delivery";
import { jpegOfSize, videoOf } from "@tests/support/media-fixtures";
import { startTestServer, type TestServer } from "@tests/support/server";

/*
 * examples/exhibit-app, the example client of the delivery API (issue 14): served by a tiny static server on its own
 * origin, it shows demo exhibitions from a live Vitrine (CORS for its origin, signed media URLs) in English and
 * Dutch; then, from an unpacked offline bundle, the same with Vitrine stopped. Its checked-in types are what
 * generate-types.mjs makes from the server's OpenAPI document.
 */

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, "../..");
const APP_DIR = path.join(ROOT, "examples/exhibit-app");
/** The buckets the checked-in types were generated for (src/api.ts). */
const TYPED_BUCKETS = ["exhibitions", "artworks", "artists", "rooms"];

let server: TestServer;
let serverStopped = false;
let browser: Browser;
let staticServer: Server;
let staticUrl: string;
let token: string;
const workDir = mkdtempSync(path.join(tmpdir(), "vitrine-exhibit-app-"));
const bundleDir = path.join(workDir, "bundle");
const buckets = new Map<string, Bucket>();

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json",
  ".jpg": "image/jpeg",
  ".png": "image/png",
  ".webm": "video/webm",
  ".mp4": "video/mp4",
};

/** The example app at /, the unpacked bundle at /bundle/; nothing outside those two folders. */
function serveStatic(): Promise<Server> {
  const httpServer = createServer((request, response) => {
    const pathname = decodeURIComponent(new URL(request.url ?? "/", "http://x").pathname);
    const [root, rest] = pathname.startsWith("/bundle/")
      ? [bundleDir, pathname.slice("/bundle/".length)]
      : [APP_DIR, pathname.slice(1) || "index.html"];
    const file = path.resolve(root, rest);
    const info = file.startsWith(root + path.sep) ? statSync(file, { throwIfNoEntry: false }) : undefined;
    if (!info?.isFile()) {
      response.writeHead(404).end("not found");
      return;
    }
    response.writeHead(200, {
      "Content-Type": TYPES[path.extname(file)] ?? "application/octet-stream",
      "Content-Length": info.size,
      "Cache-Control": "no-store",
    });
    createReadStream(file).pipe(response);
  });
  return new Promise((resolve) => httpServer.listen(0, "127.0.0.1", () => resolve(httpServer)));
}

/** A poster whose library item has its alternative texts (docs/media.md), as an editor writes them on /media/{id}. */
async function describedPoster(bucket: Bucket): Promise<string> {
  const contentId = await demoImage(bucket, 0);
  const buckets = await libraryBuckets(
    server.db,
    { id: "", name: "", email: "", permissions: ["admin"], buckets: null, locale: null },
    "en",
  );
  const errors = await describeMediaItem(server.db, buckets, contentId, {
    alt: { en: "A beach at low tide under a wide sky", nl: "Een strand bij eb onder een wijde lucht" },
    caption: {},
    credits: "",
  });
  expect(errors).toEqual({});
  return contentId;
}

async function demoImage(bucket: Bucket, colour: number) {
  const bytes = await jpegOfSize(480, 300 + colour);
  const storageKey = `${randomUUID()}.jpg`;
  writeFileSync(server.media.storage.pathOf(storageKey), bytes);
  const media = await insertMedia(server.db, {
    kind: "image",
    bucketId: bucket.id,
    storageKey,
    originalFilename: `poster-${colour}.jpg`,
    mimetype: "image/jpeg",
    size: bytes.length,
    width: 480,
    height: 300 + colour,
    details: {},
    createdBy: null,
  });
  return media.contentId;
}

async function demoVideo(bucket: Bucket) {
  const bytes = videoOf({ width: 320, height: 180, fps: 10, seconds: 1, codec: "libvpx-vp9" });
  const storageKey = `${randomUUID()}.webm`;
  writeFileSync(server.media.storage.pathOf(storageKey), bytes);
  const still = `${randomUUID()}.jpg`;
  writeFileSync(server.media.storage.pathOf(still), await jpegOfSize(320, 180));
  const media = await insertMedia(server.db, {
    kind: "video",
    bucketId: bucket.id,
    storageKey,
    originalFilename: "trailer.webm",
    mimetype: "video/webm",
    size: bytes.length,
    width: 320,
    height: 180,
    details: { duration: 1, stillKeys: [still], thumb: { index: 0 } },
    createdBy: null,
  });
  return media.contentId;
}

beforeAll(async () => {
  [server, browser, staticServer] = await Promise.all([startTestServer({ env: { MEDIA_WORKERS: "0" } }), launchBrowser(), serveStatic()]);
  staticUrl = `http://127.0.0.1:${(staticServer.address() as AddressInfo).port}`;
  // The demo's bucket definitions, with demo-like documents that hold a poster and a trailer.
  let position = 0;
  for (const demo of DEMO_BUCKETS.filter(({ bucket }) => TYPED_BUCKETS.includes(bucket.slug)))
    buckets.set(demo.bucket.slug, await createBucket(server.db, { ...demo.bucket, position: position++ }));
  const exhibitions = buckets.get("exhibitions")!;
  const artist = (
    await createPublished(
      server.db,
      buckets.get("artists")!.id,
      { name: "Hendrik Willem Mesdag", biography: { nl: "Zeeschilder", en: "Painter of the sea" } },
      null,
    )
  ).contentId;
  await createPublished(
    server.db,
    exhibitions.id,
    {
      title: { nl: "Licht op het Noorden", en: "Light on the North" },
      subtitle: { nl: "Schilders van de Waddenkust", en: "Painters of the Wadden coast" },
      opensOn: "2026-09-12",
      closesOn: "2027-01-10",
      artist,
      poster: await describedPoster(exhibitions),
      trailer: await demoVideo(exhibitions),
    },
    null,
  );
  await createPublished(
    server.db,
    exhibitions.id,
    {
      title: { nl: "Glas en Vuur", en: "Glass and Fire" },
      subtitle: { nl: "Een eeuw Leerdams glas", en: "A century of Leerdam glass" },
      opensOn: "2027-02-01",
      poster: await demoImage(exhibitions, 20),
    },
    null,
  );
  ({ token } = await deliveryClient(server.db, { read: TYPED_BUCKETS, origins: [staticUrl] }));
  await run(process.execPath, [path.join(APP_DIR, "build.mjs")]);
});

afterAll(async () => {
  await browser.close();
  await new Promise((resolve) => staticServer.close(resolve));
  if (!serverStopped) await server.stop();
  rmSync(workDir, { recursive: true, force: true });
});

async function titles(page: Page): Promise<string[]> {
  return page.locator("article.exhibition h2").allTextContents();
}

/** Every image of the page has loaded (a broken one has no natural width). */
async function expectImagesLoaded(page: Page, count: number) {
  await expect
    .poll(
      () =>
        page
          .locator("article.exhibition img")
          .evaluateAll((images) =>
            images.map((image) => (image as HTMLImageElement).complete && (image as HTMLImageElement).naturalWidth > 0),
          ),
      { timeout: 20_000 },
    )
    .toEqual(Array.from({ length: count }, () => true));
}

async function videoSource(page: Page): Promise<{ src: string; type: string; poster: string }> {
  return page.locator("article.exhibition video").evaluate((video) => {
    const source = video.querySelector("source");
    return { src: source?.src ?? "", type: source?.type ?? "", poster: (video as HTMLVideoElement).poster };
  });
}

describe("the example exhibit app", () => {
  it("has types generated from the server's OpenAPI document (generate-types.mjs)", async () => {
    const response = await fetch(`${server.url}/api/v1/delivery/openapi.json`, { headers: { Authorization: `Bearer ${token}` } });
    expect(response.status).toBe(200);
    const documentFile = path.join(workDir, "openapi.json");
    const typesFile = path.join(workDir, "api.ts");
    writeFileSync(documentFile, await response.text());
    await run(process.execPath, [path.join(APP_DIR, "generate-types.mjs"), "--file", documentFile, "--out", typesFile]);
    const generated = readFileSync(typesFile, "utf8");
    if (process.env.UPDATE_EXHIBIT_TYPES) writeFileSync(path.join(APP_DIR, "src/api.ts"), generated);
    expect(generated, "examples/exhibit-app/src/api.ts is stale: run this test with UPDATE_EXHIBIT_TYPES=1").toBe(
      readFileSync(path.join(APP_DIR, "src/api.ts"), "utf8"),
    );
    expect(generated).toContain("ExhibitionsLocalizedDocument");
  });

  it("shows the exhibitions from the live API in English and in Dutch, with images and a video", async () => {
    const { newPage, expectNoErrors, close } = await newContext(browser, staticUrl);
    try {
      const page = await newPage();
      await page.goto(`/index.html#base=${encodeURIComponent(server.url)}&token=${encodeURIComponent(token)}&locale=en`);
      await expect.poll(() => titles(page), { timeout: 20_000 }).toEqual(["Light on the North", "Glass and Fire"]);
      await expect.poll(() => page.locator("[data-source]").getAttribute("data-source")).toBe("live");
      await expect.poll(() => page.locator("h1").textContent()).toBe("Exhibitions");
      expect(await page.locator("article.exhibition .artist").allTextContents()).toEqual(["By Hendrik Willem Mesdag"]);
      await expectImagesLoaded(page, 2);
      // The library's alternative text in the visitor's language; the title where none is written.
      expect(
        await page.locator("article.exhibition img").evaluateAll((images) => images.map((image) => image.getAttribute("alt"))),
      ).toEqual(["A beach at low tide under a wide sky", "Glass and Fire"]);
      const video = await videoSource(page);
      expect(video.src.startsWith(`${server.url}/api/v1/delivery/media/`)).toBe(true);
      expect(video.type).toBe("video/webm");
      expect(video.poster).toContain("/still-0?");

      await page.getByRole("button", { name: "Nederlands" }).click();
      await expect.poll(() => titles(page)).toEqual(["Licht op het Noorden", "Glas en Vuur"]);
      await expect.poll(() => page.locator("h1").textContent()).toBe("Tentoonstellingen");
      expect(await page.locator("article.exhibition .subtitle").allTextContents()).toEqual([
        "Schilders van de Waddenkust",
        "Een eeuw Leerdams glas",
      ]);
      expect(await page.locator("html").getAttribute("lang")).toBe("nl");
      await expectImagesLoaded(page, 2);
      expect(await page.locator("article.exhibition img").first().getAttribute("alt")).toBe("Een strand bij eb onder een wijde lucht");
      expect(page.url()).toContain("locale=nl");
      expectNoErrors();
    } finally {
      await close();
    }
  });

  it("shows a release's exhibitions once it goes live at its time, and what it showed before after the rollback", async () => {
    const exhibitions = buckets.get("exhibitions")!;
    const glass = (await listContents(server.db, exhibitions.id, { limit: 10 })).find(
      (doc) => (doc.data.title as { en: string }).en === "Glass and Fire",
    )!;
    await saveVersion(server.db, {
      bucketId: exhibitions.id,
      contentId: glass.contentId,
      baseVersionId: glass.versionId,
      data: { ...glass.data, title: { nl: "Glas en Vuur, verlengd", en: "Glass and Fire, extended" } },
      userId: null,
    });
    const sea = await createContent(
      server.db,
      exhibitions.id,
      { title: { nl: "Zee en Zand", en: "Sea and Sand" }, opensOn: "2027-03-20" },
      null,
    );
    const curator = { id: null, name: "Curator" };
    const release = await createRelease(server.db, curator, { name: "Spring" });
    for (const contentId of [glass.contentId, sea.contentId])
      await addToRelease(server.db, curator, release.id, { bucketId: exhibitions.id, contentId });
    const at = new Date(Date.now() + 86_400_000);
    await scheduleRelease(server.db, curator, release.id, at);

    const { newPage, expectNoErrors, close } = await newContext(browser, staticUrl);
    try {
      const page = await newPage();
      const show = async () => {
        await page.goto(`/index.html#base=${encodeURIComponent(server.url)}&token=${encodeURIComponent(token)}&locale=en`);
        await page.reload();
      };
      const shown = async () => (await titles(page)).sort();
      await show();
      await expect.poll(shown, { timeout: 20_000 }).toEqual(["Glass and Fire", "Light on the North"]);
      expect(await server.releases.runOnce(at)).toContain(release.id);
      await show();
      await expect.poll(shown, { timeout: 20_000 }).toEqual(["Glass and Fire, extended", "Light on the North", "Sea and Sand"]);
      await rollbackRelease(server.db, curator, release.id);
      await show();
      await expect.poll(shown, { timeout: 20_000 }).toEqual(["Glass and Fire", "Light on the North"]);
      expectNoErrors();
    } finally {
      await close();
    }
  });

  it("shows the same from an unpacked offline bundle with Vitrine stopped", async () => {
    const response = await fetch(`${server.url}/api/v1/delivery/bundle?buckets=exhibitions,artists&locales=nl,en&populate=1`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(response.status).toBe(200);
    const bundle = await readBundle(response.body!, { into: bundleDir });
    verifyManifest(bundle);
    await server.stop();
    serverStopped = true;
    await expect(fetch(`${server.url}/healthz`)).rejects.toThrow();

    const { newPage, expectNoErrors, close } = await newContext(browser, staticUrl);
    try {
      const page = await newPage();
      const outside: string[] = [];
      page.on("request", (request) => {
        if (!request.url().startsWith(staticUrl)) outside.push(request.url());
      });
      await page.goto("/index.html?bundle=./bundle/#locale=nl");
      await expect.poll(() => titles(page), { timeout: 20_000 }).toEqual(["Licht op het Noorden", "Glas en Vuur"]);
      expect(await page.locator("[data-source]").getAttribute("data-source")).toBe("bundle");
      expect(await page.locator("article.exhibition .artist").allTextContents()).toEqual(["Door Hendrik Willem Mesdag"]);
      await expectImagesLoaded(page, 2);
      // The bundle carries the library's texts: the Dutch alternative text, offline.
      expect(await page.locator("article.exhibition img").first().getAttribute("alt")).toBe("Een strand bij eb onder een wijde lucht");
      const video = await videoSource(page);
      expect(video.src).toMatch(new RegExp(`^${staticUrl}/bundle/media/[0-9a-f-]{36}/original\\.webm$`));
      expect(video.poster).toMatch(/\/bundle\/media\/[0-9a-f-]{36}\/still-0\.jpg$/);
      // The video's file is really there: the element can read its duration.
      await expect
        .poll(() => page.locator("article.exhibition video").evaluate((element) => (element as HTMLVideoElement).readyState), {
          timeout: 20_000,
        })
        .toBeGreaterThan(0);

      await page.getByRole("button", { name: "English" }).click();
      await expect.poll(() => titles(page)).toEqual(["Light on the North", "Glass and Fire"]);
      await expectImagesLoaded(page, 2);
      expect(outside).toEqual([]);
      expectNoErrors();
    } finally {
      await close();
    }
  });
});

import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser, open } from "@tests/support/browser";
import { control, fieldBox, save, signedInContext, submitWith } from "@tests/support/content-browser";
import { createTestBucket } from "@tests/support/fixtures";
import { videoOf } from "@tests/support/media-fixtures";
import { startTestServer, type TestServer } from "@tests/support/server";

/*
 * Spec §4 media polling, in the browser: while a video's jobs run the field asks …/latest every 2 seconds; it
 * stops at completed (the progress goes) and at error (the job's message shows under the field, the progress
 * goes); a lost answer (5xx) is tried again at the next tick. No job runner here (MEDIA_WORKERS=0): the test
 * moves the jobs on in the database, as a runner on another server would. Without JavaScript nothing polls:
 * 'Refresh to see progress' re-renders the form with the progress now, its input kept (issue 36), and once a real
 * runner (ffmpeg) has finished, the refreshed page shows the video and its stills.
 */

let server: TestServer;
let browser: Browser;
const fixtureDir = mkdtempSync(path.join(tmpdir(), "vitrine-polling-"));
const clip = path.join(fixtureDir, "clip.mp4");

beforeAll(async () => {
  writeFileSync(clip, videoOf({ width: 320, height: 240, fps: 25, seconds: 1 }));
  [server, browser] = await Promise.all([startTestServer({ env: { MEDIA_WORKERS: "0" } }), launchBrowser()]);
});
afterAll(async () => {
  await browser.close();
  await server.stop();
  rmSync(fixtureDir, { recursive: true, force: true });
});

/** Uploads the clip into the field and records when the page asks for its latest state. */
async function uploadAndWatch(page: Page) {
  const polls: number[] = [];
  page.on("request", (request) => {
    if (/\/api\/v1\/buckets\/video\/content\/[0-9a-f-]{36}\/latest$/.test(request.url())) polls.push(Date.now());
  });
  // The drop zone's input, not the plain one it replaces once the form has hydrated.
  await fieldBox(page, "clip").locator(".drop-zone").waitFor();
  await fieldBox(page, "clip").locator('.drop-zone input[type="file"]').setInputFiles(clip);
  await expect.poll(() => control(page, "clip").inputValue(), { timeout: 20_000 }).toMatch(/^[0-9a-f-]{36}$/);
  const contentId = await control(page, "clip").inputValue();
  await fieldBox(page, "clip").locator(".job-progress").waitFor();
  return { polls, contentId };
}

const setJobs = (contentId: string, update: string) =>
  server.db.query(`UPDATE jobs SET ${update} WHERE media_id IN (SELECT id FROM media WHERE content_id = $1)`, [contentId]);

/** A signed-in page on a new document of a bucket with one video field. */
async function newClipPage() {
  const bucket = await createTestBucket(server.db, {
    jsonSchema: { type: "object", properties: { clip: { type: "string", title: "Clip", _ref: "b-video", minWidth: 320, minHeight: 240 } } },
    locales: ["en"],
  });
  const ctx = await signedInContext(browser, server);
  const page = await ctx.newPage();
  await open(page, `/b/${bucket.slug}/new`);
  return { ctx, page };
}

const gaps = (times: number[]) => times.slice(1).map((time, index) => time - times[index]!);

describe("polling a video's jobs", () => {
  it("asks every 2 s while processing, tries again after a 503, and stops at error with the job's message", async () => {
    const { ctx, page } = await newClipPage();
    let failNext = 0;
    await page.route(/\/latest$/, (route) => (failNext-- > 0 ? route.fulfill({ status: 503, body: "busy" }) : route.continue()));
    const { polls, contentId } = await uploadAndWatch(page);

    await expect.poll(() => polls.length, { timeout: 15_000 }).toBeGreaterThanOrEqual(3);
    for (const gap of gaps(polls)) {
      expect(gap).toBeGreaterThanOrEqual(1900);
      expect(gap).toBeLessThan(3500);
    }
    failNext = 1;
    const before = polls.length;
    await expect.poll(() => polls.length, { timeout: 10_000 }).toBeGreaterThanOrEqual(before + 2); // the 503, then the next tick
    expect(await fieldBox(page, "clip").locator(".job-progress").count()).toBe(1);

    await setJobs(
      contentId,
      "status = 'failed', error = CASE name WHEN 'transcode' THEN 'Error converting video' ELSE 'Error getting stills from video' END",
    );
    await fieldBox(page, "clip").locator(".field-error", { hasText: "Error converting video" }).waitFor({ timeout: 10_000 });
    expect(await fieldBox(page, "clip").locator(".job-progress").count()).toBe(0);
    const atError = polls.length;
    await page.waitForTimeout(4500);
    expect(polls.length).toBe(atError);
    expect(ctx.errors.filter((error) => !error.includes("503"))).toEqual([]);
    await ctx.close();
  }, 60_000);

  it("stops at completed and clears the progress", async () => {
    const { ctx, page } = await newClipPage();
    const { polls, contentId } = await uploadAndWatch(page);
    await expect.poll(() => polls.length, { timeout: 10_000 }).toBeGreaterThanOrEqual(1);
    expect(await fieldBox(page, "clip").getByRole("button", { name: "Refresh to see progress" }).count()).toBe(0); // it polls instead
    await setJobs(contentId, "status = 'completed', progress = 100");
    await fieldBox(page, "clip").locator('.media-field[data-status="completed"]').waitFor({ timeout: 10_000 });
    expect(await fieldBox(page, "clip").locator(".job-progress").count()).toBe(0);
    const atCompleted = polls.length;
    await page.waitForTimeout(4500);
    expect(polls.length).toBe(atCompleted);
    expect(ctx.errors).toEqual([]);
    await ctx.close();
  }, 60_000);
});

describe("a video's jobs without JavaScript", () => {
  it("'Refresh to see progress' shows the progress now with the input kept, and the finished video with its stills", async () => {
    const bucket = await createTestBucket(server.db, {
      jsonSchema: {
        type: "object",
        properties: {
          name: { type: "string", title: "Name" },
          clip: { type: "string", title: "Clip", _ref: "b-video", minWidth: 320, minHeight: 240 },
        },
      },
      locales: ["en"],
    });
    const ctx = await signedInContext(browser, server, { javaScriptEnabled: false });
    const page = await ctx.newPage();
    await open(page, `/b/${bucket.slug}/new`);
    await control(page, "name").fill("A saved clip");
    await fieldBox(page, "clip").locator('input[type="file"]').setInputFiles(clip);
    await save(page);
    const contentId = await control(page, "clip").inputValue();
    expect(contentId).toMatch(/^[0-9a-f-]{36}$/);
    const field = fieldBox(page, "clip");
    const refresh = field.getByRole("button", { name: "Refresh to see progress" });
    expect(await field.locator(".job-progress .media-progress-percent").textContent()).toBe("0%");

    // The jobs move on (as a runner elsewhere would): the refreshed form shows it, the editor's input kept.
    await control(page, "name").fill("Typed while converting");
    await setJobs(contentId, "progress = 40");
    expect(await submitWith(page, refresh)).toBe(200);
    expect(await field.locator(".job-progress .media-progress-percent").textContent()).toBe("40%");
    expect(await control(page, "name").inputValue()).toBe("Typed while converting");
    expect(await control(page, "clip").inputValue()).toBe(contentId);

    // A real runner converts it with ffmpeg (this file's last test: the others move jobs by hand); once it is done,
    // a refresh shows the video and its stills.
    await setJobs(contentId, "progress = 0");
    server.media.jobs.start();
    const unfinished = async () =>
      (
        await server.db.query(
          `SELECT 1 FROM jobs WHERE status <> 'completed' AND media_id IN (SELECT id FROM media WHERE content_id = $1)`,
          [contentId],
        )
      ).rows.length;
    await expect.poll(unfinished, { timeout: 90_000, interval: 500 }).toBe(0);
    expect(await submitWith(page, refresh)).toBe(200);
    expect(await field.locator(".media-field").getAttribute("data-status")).toBe("completed");
    expect(await refresh.count()).toBe(0);
    expect(await field.locator(".job-progress").count()).toBe(0);
    await field.getByRole("link", { name: "View" }).waitFor();
    await field.locator("details.thumb-fallback summary").click();
    expect(await field.locator("details.thumb-fallback").getByRole("radio").count()).toBe(5);
    expect(await control(page, "name").inputValue()).toBe("Typed while converting");
    expect(ctx.errors).toEqual([]);
    await ctx.close();
  }, 120_000);
});

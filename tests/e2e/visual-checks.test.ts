import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser } from "@tests/support/browser";
import { TOUR, type TourLanguage } from "@tests/support/screen-tour";
import { pageRoutes, startTourServer, Tour } from "@tests/support/tour-walk";
import { axeViolations, dialogOverflow, keysShown, offViewport } from "@tests/support/visual-checks";
import type { TestServer } from "@tests/support/server";

/*
 * Every screen and dialog of the tour (tests/support/screen-tour.ts), in Dutch: axe-core finds no serious or critical
 * violation (at 1280 px), no message key is shown, no dialog's content overflows it (at 1280 and 390 px), and at
 * 390 px nothing leaves the viewport sideways. The rules are in tests/support/visual-checks.ts; `npm run screens`
 * photographs the same tour in both languages.
 *
 * One language, not both: the second visit of every entry was nearly half of the suite's longest file (505 s alone,
 * 277 s without it), and what it could find the Dutch visit or another test finds. Dutch words are the longer ones (every overflow the tour has found
 * was in Dutch or in the data); a message missing in English fails tests/unit/i18n.test.ts; the browser flows run
 * English with JavaScript (docs/testing.md, "The tour in one language").
 */
const CHECKED_LANGUAGE: TourLanguage = "nl";

let server: TestServer;
let browser: Browser;
let tour: Tour;

beforeAll(async () => {
  [server, browser] = await Promise.all([startTourServer(), launchBrowser()]);
  tour = new Tour(server, browser);
});
afterAll(async () => {
  await browser.close();
  await server.stop();
});

describe("the checks themselves", () => {
  it("find a wide element, content sticking out of a dialog and an axe violation, and pass what is allowed", async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    await page.setContent(`<!doctype html><html lang="en"><title>t</title><body><main><h1>Checks</h1>
      <div id="wide" style="width: 500px">wide</div>
      <div style="overflow-x: auto"><table style="width: 900px"><tr><td>a wide table that scrolls in its box</td></tr></table></div>
      <div class="modal" role="dialog" aria-label="d" style="width: 200px; height: 100px"><img alt="" src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" style="width: 300px; height: 20px"></div>
      <div class="fine" role="dialog" aria-label="e" style="width: 200px; overflow-y: auto; height: 50px"><p style="height: 200px">tall but scrolls</p></div>
      <button style="color: #eee; background: #fff"></button><p>form.add</p><input aria-label="media.selectThumbnail"></main></body></html>`);
    const wide = await offViewport(page);
    expect(wide.some((finding) => finding.startsWith("div#wide"))).toBe(true);
    expect(wide.some((finding) => finding.includes("table"))).toBe(false);
    expect((await dialogOverflow(page.locator(".modal"))).join("\n")).toMatch(/img .* sticks out of the dialog .* sideways/);
    expect(await dialogOverflow(page.locator(".fine"))).toEqual([]);
    expect((await axeViolations(page)).join("\n")).toMatch(/critical button-name/);
    expect(await keysShown(page)).toEqual([
      "the message key form.add is shown instead of its text",
      "the message key media.selectThumbnail is shown instead of its text",
    ]);
    await context.close();
  });
});

describe("the tour", () => {
  it("reaches every page module of app/routes.ts", async () => {
    const paths = await Promise.all(
      TOUR.map(async (entry) => (typeof entry.path === "function" ? entry.path(await tour.data(entry)) : entry.path)),
    );
    const routes = await pageRoutes();
    const specific = routes.filter((route) => !route.splat);
    const reached = (patterns: RegExp[]) => paths.some((path) => patterns.some((pattern) => pattern.test(path)));
    const missing = specific.filter((route) => !reached(route.patterns)).map((route) => route.file);
    // A catch-all page (the 404 page) counts only for a path no other page matches.
    const unmatched = paths.filter((path) => !specific.some((route) => route.patterns.some((pattern) => pattern.test(path))));
    if (unmatched.length === 0) missing.push(...routes.filter((route) => route.splat).map((route) => route.file));
    expect(missing).toEqual([]);
    expect(new Set(TOUR.map((entry) => entry.name)).size).toBe(TOUR.length);
  }, 180_000);
});

describe.each(TOUR)("$name", (entry) => {
  it("passes axe (no serious or critical violation), shows no message key, fits its dialog and a 390 px viewport, in Dutch", async () => {
    const findings: string[] = [];
    await tour.visit(entry, CHECKED_LANGUAGE, async (view) => {
      const where = `${view.width} px`;
      const started = Date.now();
      if (view.width === 1280) {
        findings.push(...(await keysShown(view.page)).map((finding) => `${where} ${finding}`));
        const scripted = entry.javaScriptEnabled === false ? await view.scriptedPage() : undefined;
        findings.push(...(await axeViolations(view.page, scripted)).map((finding) => `${where} axe ${finding}`));
      }
      if (view.dialog) findings.push(...(await dialogOverflow(view.dialog)).map((finding) => `${where} dialog: ${finding}`));
      if (view.width === 390) findings.push(...(await offViewport(view.page)).map((finding) => `${where} viewport: ${finding}`));
      if (process.env.TOUR_TIMING) console.log(`${entry.name} ${where}: checks ${Date.now() - started} ms`);
    });
    findings.sort();
    expect(findings.join("\n")).toBe("");
  }, 180_000);
});

import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { it } from "vitest";
import { launchBrowser } from "@tests/support/browser";
import { TOUR } from "@tests/support/screen-tour";
import { startTourServer, Tour, TOUR_LANGUAGES } from "@tests/support/tour-walk";
import { axeViolations, dialogOverflow, offViewport } from "@tests/support/visual-checks";

/*
 * `npm run screens` (scripts/screens.mjs runs this file alone): a PNG of every screen and dialog of the tour, in
 * English and Dutch at 1280 and 390 px, into SCREENS_DIR, and what the checks of tests/e2e/visual-checks.test.ts
 * find, written next to them (findings.txt) instead of failing: the pictures are for looking at.
 */

const OUT = path.resolve(process.env.SCREENS_DIR ?? "screens");
const ONLY = process.env.SCREENS_ONLY ? new RegExp(process.env.SCREENS_ONLY) : null;

it("photographs every screen and dialog", async () => {
  rmSync(OUT, { recursive: true, force: true });
  mkdirSync(OUT, { recursive: true });
  const started = Date.now();
  const [server, browser] = await Promise.all([startTourServer(), launchBrowser()]);
  const tour = new Tour(server, browser);
  const findings: string[] = [];
  let shots = 0;
  try {
    for (const entry of TOUR.filter((candidate) => !ONLY || ONLY.test(candidate.name))) {
      await Promise.all(
        TOUR_LANGUAGES.map((language) =>
          tour
            .visit(entry, language, async (view) => {
              const where = `${entry.name} ${language} ${view.width} px`;
              const file = path.join(OUT, `${entry.name}-${language}-${view.width}.png`);
              if (view.dialog) await view.page.screenshot({ path: file, animations: "disabled" });
              else {
                // The whole page in a viewport as high as it is, so a sticky bar (the form's Save) shows where it
                // rests at the end of the page rather than across the middle of a stitched picture.
                const viewport = view.page.viewportSize()!;
                const height = await view.page.evaluate(() => document.documentElement.scrollHeight);
                await view.page.setViewportSize({ width: viewport.width, height: Math.max(viewport.height, height) });
                await view.page.screenshot({ path: file, animations: "disabled" });
                await view.page.setViewportSize(viewport);
              }
              shots += 1;
              if (view.width === 1280) {
                const scripted = entry.javaScriptEnabled === false ? await view.scriptedPage() : undefined;
                findings.push(...(await axeViolations(view.page, scripted)).map((finding) => `${where} axe ${finding}`));
              }
              if (view.dialog) findings.push(...(await dialogOverflow(view.dialog)).map((finding) => `${where} dialog: ${finding}`));
              if (view.width === 390) findings.push(...(await offViewport(view.page)).map((finding) => `${where} viewport: ${finding}`));
            })
            .catch((error: unknown) => findings.push(`${entry.name} ${language}: could not be shown: ${error instanceof Error ? error.message.split("\n")[0] : String(error)}`)),
        ),
      );
    }
  } finally {
    await browser.close();
    await server.stop();
  }
  findings.sort();
  writeFileSync(path.join(OUT, "findings.txt"), findings.length ? `${findings.join("\n")}\n` : "No findings.\n");
  console.log(`${shots} screenshots in ${Math.round((Date.now() - started) / 1000)} s; ${findings.length} findings${findings.length ? ":\n" + findings.join("\n") : ""}`);
}, 15 * 60_000);

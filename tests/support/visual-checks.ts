import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Locator, Page } from "playwright-core";

/*
 * The visual and accessibility checks run over every screen and dialog of the tour (tests/support/screen-tour.ts):
 * nothing sticks out of the viewport sideways on a phone, no dialog's content overflows the dialog, and axe-core finds
 * no serious or critical violation. Each check answers a list of findings (readable strings), empty when it passes.
 *
 * The rules, precisely:
 * - Horizontal reflow (`offViewport`): every rendered element of <body> (a box wider and higher than 0, not
 *   visibility:hidden) ends at most 1 px right of the viewport's right edge, and the document scrolls no wider than
 *   the viewport. An element is exempt when an ancestor clips or scrolls it sideways (computed overflow-x auto,
 *   scroll, hidden or clip): content inside a scroll container is meant to scroll there (a wide table inside
 *   overflow-x:auto), and clipped content cannot leave the viewport. The container itself is checked like any other
 *   element. Elements moved off-screen to the left on purpose (skip links, visually hidden text) are not looked at:
 *   only the right edge counts.
 * - Dialog overflow (`dialogOverflow`): the dialog's box lies inside the viewport sideways; it does not scroll
 *   sideways (scrollWidth <= clientWidth + 1); every rendered descendant lies inside the dialog's box sideways,
 *   except inside a nested container that scrolls or clips sideways; vertically the same holds unless the dialog
 *   (or an ancestor inside it) scrolls vertically (overflow-y auto or scroll), and a dialog that does not scroll
 *   vertically must also fit the viewport's height.
 * - axe-core (`axeViolations`): axe's default rules on the whole document (with the dialog open), violations of
 *   impact serious or critical only.
 */

/** One pixel of slack for subpixel layout. */
const SLACK = 1;

/** What sticks out of the viewport sideways (see the rules above). */
export async function offViewport(page: Page): Promise<string[]> {
  return page.evaluate((slack) => {
    const width = document.documentElement.clientWidth;
    const findings: string[] = [];
    const scrollWidth = document.documentElement.scrollWidth;
    if (scrollWidth > width + slack) findings.push(`the document scrolls sideways: ${scrollWidth} px wide in a ${width} px viewport`);
    const clipsSideways = (element: Element) => ["auto", "scroll", "hidden", "clip"].includes(getComputedStyle(element).overflowX);
    const describe = (element: Element) => {
      const classes = element.getAttribute("class")?.trim().split(/\s+/).slice(0, 3).join(".");
      const text = element.textContent.replace(/\s+/g, " ").trim().slice(0, 40);
      return `${element.tagName.toLowerCase()}${element.id ? `#${element.id}` : ""}${classes ? `.${classes}` : ""}${text ? ` "${text}"` : ""}`;
    };
    const walk = (element: Element, exempt: boolean) => {
      for (const child of element.children) {
        const style = getComputedStyle(child);
        if (style.display === "none") continue;
        const box = child.getBoundingClientRect();
        const rendered = box.width > 0 && box.height > 0 && style.visibility !== "hidden";
        if (!exempt && rendered && box.right > width + slack) {
          findings.push(`${describe(child)} ends at ${Math.round(box.right)} px, past the ${width} px viewport`);
          continue; // its descendants would only repeat it
        }
        walk(child, exempt || clipsSideways(child));
      }
    };
    walk(document.body, false);
    return findings;
  }, SLACK);
}

/** What overflows the dialog (see the rules above). */
export async function dialogOverflow(dialog: Locator): Promise<string[]> {
  return dialog.first().evaluate((root, slack) => {
    const findings: string[] = [];
    const viewport = { width: document.documentElement.clientWidth, height: window.innerHeight };
    const describe = (element: Element) => {
      const classes = element.getAttribute("class")?.trim().split(/\s+/).slice(0, 3).join(".");
      const text = element.textContent.replace(/\s+/g, " ").trim().slice(0, 40);
      return `${element.tagName.toLowerCase()}${classes ? `.${classes}` : ""}${text ? ` "${text}"` : ""}`;
    };
    const style = getComputedStyle(root);
    const box = root.getBoundingClientRect();
    const scrolls = (value: string) => value === "auto" || value === "scroll";
    const clips = (value: string) => scrolls(value) || value === "hidden" || value === "clip";
    if (box.left < -slack || box.right > viewport.width + slack) {
      findings.push(
        `the dialog (${Math.round(box.left)}–${Math.round(box.right)} px) does not fit the ${viewport.width} px viewport sideways`,
      );
    }
    const scrollsVertically = scrolls(style.overflowY);
    if (!scrollsVertically && (box.top < -slack || box.bottom > viewport.height + slack)) {
      findings.push(
        `the dialog (${Math.round(box.top)}–${Math.round(box.bottom)} px) does not fit the ${viewport.height} px high viewport and does not scroll`,
      );
    }
    if (root.scrollWidth > root.clientWidth + slack)
      findings.push(`the dialog scrolls sideways: content ${root.scrollWidth} px in ${root.clientWidth} px`);
    if (!scrollsVertically && root.scrollHeight > root.clientHeight + slack) {
      findings.push(`the dialog's content is cut off: ${root.scrollHeight} px high in ${root.clientHeight} px`);
    }
    const walk = (element: Element, exemptX: boolean, exemptY: boolean) => {
      for (const child of element.children) {
        const childStyle = getComputedStyle(child);
        if (childStyle.display === "none") continue;
        const rect = child.getBoundingClientRect();
        const rendered = rect.width > 0 && rect.height > 0 && childStyle.visibility !== "hidden";
        if (rendered) {
          if (!exemptX && (rect.left < box.left - slack || rect.right > box.right + slack)) {
            findings.push(
              `${describe(child)} (${Math.round(rect.left)}–${Math.round(rect.right)} px) sticks out of the dialog (${Math.round(box.left)}–${Math.round(box.right)} px) sideways`,
            );
            continue;
          }
          if (!exemptY && (rect.top < box.top - slack || rect.bottom > box.bottom + slack)) {
            findings.push(
              `${describe(child)} (${Math.round(rect.top)}–${Math.round(rect.bottom)} px) sticks out of the dialog (${Math.round(box.top)}–${Math.round(box.bottom)} px) vertically`,
            );
            continue;
          }
        }
        walk(child, exemptX || clips(childStyle.overflowX), exemptY || clips(childStyle.overflowY));
      }
    };
    walk(root, false, scrollsVertically);
    return findings;
  }, SLACK);
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

interface AxeResult {
  violations: Array<{ id: string; impact: string | null; help: string; nodes: Array<{ target: unknown[] }> }>;
}

/**
 * axe-core's violations of impact serious or critical on the page as it is now. Injected through the debugging
 * protocol (not a <script>, which the CSP would refuse). axe needs the page's timers: a page without JavaScript is
 * checked on a copy of its HTML, its scripts removed, loaded in `scriptedPage` at the same URL and size.
 */
export async function axeViolations(page: Page, scriptedPage?: Page): Promise<string[]> {
  let target = page;
  if (scriptedPage) {
    const html = (await page.content()).replace(/<script\b[\s\S]*?<\/script>/gi, "");
    const url = page.url();
    await scriptedPage.setViewportSize(page.viewportSize() ?? { width: 1280, height: 900 });
    await scriptedPage.route(url, (route) => route.fulfill({ status: 200, contentType: "text/html; charset=utf-8", body: html }));
    await scriptedPage.goto(url);
    await scriptedPage.unroute(url);
    target = scriptedPage;
  }
  await target.evaluate(axeSource);
  const result = await target.evaluate(() =>
    (window as unknown as { axe: { run(context: Document, options: object): Promise<AxeResult> } }).axe.run(document, {
      resultTypes: ["violations"],
    }),
  );
  return result.violations
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .map(
      (violation) =>
        `${violation.impact} ${violation.id}: ${violation.help} — ${violation.nodes
          .map((node) => JSON.stringify(node.target))
          .slice(0, 5)
          .join(", ")}${violation.nodes.length > 5 ? ` (+${violation.nodes.length - 5})` : ""}`,
    );
}

/** Every key of the English catalogues (locales/en/*.json), dotted as `t()` names them. */
function catalogueKeys(): Set<string> {
  const keys = new Set<string>();
  const walk = (node: unknown, prefix: string) => {
    if (typeof node !== "object" || node === null) {
      keys.add(prefix.replace(/_(zero|one|two|few|many|other)$/, ""));
      return;
    }
    for (const [key, value] of Object.entries(node)) walk(value, prefix ? `${prefix}.${key}` : key);
  };
  const localesDir = new URL("../../locales/en/", import.meta.url);
  for (const part of ["common", "admin", "media"]) walk(JSON.parse(readFileSync(new URL(`${part}.json`, localesDir), "utf8")), "");
  return keys;
}
let knownKeys: Set<string> | undefined;

/**
 * Message keys shown instead of their text (a key missing from the page's catalogue): in the visible text and in
 * the labels a screen reader reads (aria-label, title, placeholder, alt).
 */
export async function keysShown(page: Page): Promise<string[]> {
  knownKeys ??= catalogueKeys();
  const texts = await page.evaluate(() => {
    const labels = [...document.querySelectorAll("[aria-label], [title], [placeholder], [alt]")].flatMap((element) =>
      ["aria-label", "title", "placeholder", "alt"].map((name) => element.getAttribute(name) ?? ""),
    );
    return [document.body.innerText, ...labels];
  });
  const shown = new Set<string>();
  for (const text of texts) {
    for (const [token] of text.matchAll(/[A-Za-z][\w-]*(?:\.[A-Za-z][\w-]*)+/g)) if (knownKeys.has(token)) shown.add(token);
  }
  return [...shown].sort().map((key) => `the message key ${key} is shown instead of its text`);
}

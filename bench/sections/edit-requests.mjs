// The edit page in a real browser (Debian's Chromium through playwright-core): how many requests it makes and when
// it is usable. Opened cold (a fresh browser context: nothing cached) on an existing demo document of the bucket that
// uses every field kind, the median of several openings. Usable: the top bar and every form of <main> hydrated (React's
// keys on them, the same test as tests/support/browser.ts), so a click or a keystroke is handled by the page.
import { chromium } from "playwright-core";

const BUCKET = "exhibitions";
const MAX_REQUESTS = 20;
const OPENINGS = 5;
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function firstDocumentPath(server, cookie) {
  const response = await fetch(`${server.url}/b/${BUCKET}`, { headers: { Cookie: cookie } });
  const html = await response.text();
  const id = new RegExp(`href="/b/${BUCKET}/([\\w-]+)/latest"`).exec(html)?.[1];
  if (!id) throw new Error(`the overview of ${BUCKET} links no document`);
  return `/b/${BUCKET}/${id}/latest`;
}

/** One cold opening: { requests (by type), usableMs }. */
async function openOnce(browser, server, cookie, pagePath) {
  const name = cookie.slice(0, cookie.indexOf("="));
  const context = await browser.newContext();
  await context.addCookies([{ name, value: cookie.slice(name.length + 1), url: server.url }]);
  const page = await context.newPage();
  const requests = [];
  page.on("request", (request) => requests.push({ url: request.url(), type: request.resourceType() }));
  const started = Date.now();
  await page.goto(`${server.url}${pagePath}`);
  await page.waitForFunction(() => {
    /* global document -- runs in the page */
    const hydrated = (element) => Object.keys(element).some((key) => key.startsWith("__react"));
    const header = document.querySelector("header");
    return header !== null && hydrated(header) && Array.from(document.querySelectorAll("main form")).every(hydrated);
  });
  const usableMs = Date.now() - started;
  // What the page fetches on its own after hydration (the validator, on-demand field kinds) counts too.
  await page.waitForLoadState("networkidle");
  await context.close();
  return { requests, usableMs };
}

export async function editRequests(ctx) {
  const server = await ctx.sharedServer();
  const cookie = await ctx.signIn(server);
  const pagePath = await firstDocumentPath(server, cookie);
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox", "--disable-gpu", "--no-first-run"] });
  try {
    await openOnce(browser, server, cookie, pagePath); // warm the server's caches
    const openings = [];
    for (let i = 0; i < OPENINGS; i++) openings.push(await openOnce(browser, server, cookie, pagePath));
    const last = openings.at(-1);
    const scripts = last.requests.filter((request) => request.type === "script");
    const counts = new Map();
    for (const { type } of last.requests) counts.set(type, (counts.get(type) ?? 0) + 1);
    const byType = [...counts].map(([type, count]) => `${type} ${count}`).join(", ");
    ctx.log(`${pagePath}: ${last.requests.length} requests (${byType})`);
    ctx.log(`scripts: ${scripts.map((request) => new URL(request.url).pathname.replace(/^\/assets\//, "")).join(", ")}`);
    const requests = median(openings.map((opening) => opening.requests.length));
    return [
      {
        name: `edit page requests, cold (${scripts.length} scripts)`,
        value: requests,
        unit: "",
        budget: `≤ ${MAX_REQUESTS}`,
        pass: requests <= MAX_REQUESTS,
      },
      { name: "edit page usable (hydrated), cold, Chromium", value: median(openings.map((opening) => opening.usableMs)), unit: "ms" },
    ];
  } finally {
    await browser.close();
  }
}

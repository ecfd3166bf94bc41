import { chromium, type Browser, type BrowserContext, type Locator, type Page } from "playwright-core";
import { expect } from "vitest";

const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/** The two ways every main flow runs: hydrated React, and plain HTML forms and links. */
export const JS_MODES = [
  { label: "with JavaScript", javaScriptEnabled: true },
  { label: "without JavaScript", javaScriptEnabled: false },
] as const;

/**
 * Each item (a language, say) with one of JS_MODES in turn, as `jsModes` for an inner `describe.each`: a flow runs
 * with and without JavaScript once each rather than once per item and mode (docs/testing.md).
 */
export const withJsModesInTurn = <T extends object>(items: readonly T[]) =>
  items.map((item, index) => ({ ...item, jsModes: [JS_MODES[index % JS_MODES.length]!] }));

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
    ],
  });
}

/** Whether pages of a context run scripts (set by newContext). */
const scriptsEnabled = new WeakMap<BrowserContext, boolean>();

/** The size of a new context's pages (Playwright's default), given back to a page when its context is reused. */
const VIEWPORT = { width: 1280, height: 720 };

/**
 * A context of the browser, with its first page kept for the next test that asks for a context of the same kind.
 * Starting a renderer process is most of what a browser test costs on this machine (a new context and page per
 * visit: 2.5 s and 5 CPU-seconds for two page loads; the same page reused: 0.9 s and 1.8, measured 2026-12-02), so
 * a context is cleaned and handed on rather than closed: cookies, permissions, routes, listeners, extra pages,
 * the viewport and the session storage go; the kept page leaves for a small page of the same server, so its
 * renderer stays (a page of another site, even about:blank, starts a new one). Each test file has its own browser
 * and server, so nothing is handed between files.
 */
interface PooledContext {
  key: string;
  context: BrowserContext;
  errors: string[];
  kept: Page | null;
  busy: boolean;
}

const pools = new WeakMap<Browser, PooledContext[]>();

async function createPooled(browser: Browser, key: string, baseURL: string, options: ContextOptions): Promise<PooledContext> {
  const javaScriptEnabled = options.javaScriptEnabled ?? true;
  const context: BrowserContext = await browser.newContext({
    baseURL,
    javaScriptEnabled,
    locale: options.locale ?? "en-US",
    userAgent: options.userAgent,
  });
  scriptsEnabled.set(context, javaScriptEnabled);
  const pooled: PooledContext = { key, context, errors: [], kept: null, busy: true };
  context.on("weberror", (error) => pooled.errors.push(`page error: ${error.error().message}`));
  context.on("console", (message) => {
    if (message.type() === "error" && !/status of (4\d\d)/.test(message.text())) pooled.errors.push(`console: ${message.text()}`);
  });
  return pooled;
}

/** Cleans a context a test is done with, for the next one; closes it when it cannot be cleaned. */
async function release(pooled: PooledContext, baseURL: string, pool: PooledContext[]): Promise<void> {
  const { context } = pooled;
  try {
    if (pooled.kept?.isClosed()) pooled.kept = null;
    const kept = pooled.kept;
    await Promise.all(
      context
        .pages()
        .filter((page) => page !== kept)
        .map((page) => page.close()),
    );
    await context.unrouteAll({ behavior: "ignoreErrors" });
    await context.clearCookies();
    await context.clearPermissions();
    if (kept) {
      kept.removeAllListeners();
      await kept.unrouteAll({ behavior: "ignoreErrors" });
      // A form with unsaved changes asks before the page is left: leave anyway.
      kept.on("dialog", (dialog) => void dialog.accept().catch(() => undefined));
      await kept.goto(new URL("/healthz", baseURL).href);
      if (scriptsEnabled.get(context)) await kept.evaluate(() => sessionStorage.clear());
      kept.removeAllListeners();
      await kept.setViewportSize(VIEWPORT);
    }
    pooled.errors.length = 0;
    pooled.busy = false;
  } catch {
    pool.splice(pool.indexOf(pooled), 1);
    await context.close().catch(() => undefined);
  }
}

type ContextOptions = { javaScriptEnabled?: boolean; locale?: string; userAgent?: string };

/** What newContext hands a test: the context, its kept page, its errors; `close` hands it on. */
export type ContextLease = Awaited<ReturnType<typeof newContext>>;

/**
 * A browser context with JavaScript on or off: a clean one a finished test left (see PooledContext), else a new
 * one. Unexpected console errors and page errors are collected; call `expectNoErrors` at the end of a test.
 * `close` hands the context on to the next test.
 */
export async function newContext(browser: Browser, baseURL: string, options: ContextOptions = {}) {
  const javaScriptEnabled = options.javaScriptEnabled ?? true;
  const key = JSON.stringify([baseURL, javaScriptEnabled, options.locale ?? "en-US", options.userAgent ?? null]);
  let pool = pools.get(browser);
  if (!pool) pools.set(browser, (pool = []));
  let pooled = pool.find((entry) => !entry.busy && entry.key === key);
  if (pooled) pooled.busy = true;
  else pool.push((pooled = await createPooled(browser, key, baseURL, options)));
  const lease = pooled;
  let closed = false;
  let handedKept = false;
  return {
    context: lease.context,
    errors: lease.errors,
    javaScriptEnabled,
    /** The context's kept page the first time, a new page after that. */
    newPage: async (): Promise<Page> => {
      if (!handedKept && lease.kept && !lease.kept.isClosed()) {
        handedKept = true;
        return lease.kept;
      }
      const page = await lease.context.newPage();
      if (!handedKept) {
        lease.kept = page;
        handedKept = true;
      }
      return page;
    },
    expectNoErrors: () => expect(lease.errors).toEqual([]),
    close: async () => {
      if (closed) return;
      closed = true;
      await release(lease, baseURL, pool);
    },
  };
}

/**
 * Waits until the page a navigation led to is the one on screen and ready:
 * - the document has loaded, with or without JavaScript (pages are streamed, and a check made as soon as a new
 *   page's first elements appear could read a document whose rest is still arriving);
 * - with JavaScript, React has hydrated it (the top bar and every form of the page carry React's internal keys), so
 *   clicks take the client-side path and typing lands in hydrated fields (a field typed into before its form is
 *   hydrated is read by the form as its starting value);
 * - with JavaScript, React Router has no navigation in flight and <main> shows the router's location (app/root.tsx
 *   marks it after each commit): the router goes idle and the URL changes before React commits the new page (a
 *   transition), and a busy machine can keep the previous page on screen a while.
 */
export async function waitForHydration(page: Page): Promise<void> {
  await page.waitForLoadState("load");
  // A context made without these helpers (browser.newContext) runs scripts, as Playwright's default is.
  if (!runsScripts(page)) return;
  await page.waitForFunction(() => {
    const hydrated = (element: Element) => Object.keys(element).some((key) => key.startsWith("__react"));
    const header = document.querySelector("header.top-bar");
    if (header === null || !hydrated(header) || !Array.from(document.querySelectorAll("main form")).every(hydrated)) return false;
    type Router = { state: { navigation: { state: string }; location: { key: string } } };
    const router = (window as unknown as { __reactRouterDataRouter?: Router }).__reactRouterDataRouter;
    if (!router) return true;
    const shown = document.querySelector<HTMLElement>("main.page")?.dataset.locationKey;
    return router.state.navigation.state === "idle" && shown === router.state.location.key;
  });
}

/** Whether the page's context runs scripts (set by the context helpers here). */
export const runsScripts = (page: Page): boolean => scriptsEnabled.get(page.context()) ?? true;

/** page.goto, then waits for hydration when scripts run. Returns the response. */
export async function open(page: Page, path: string) {
  const response = await page.goto(path);
  await waitForHydration(page);
  return response;
}

/** Waits until the locator is visible and returns its text, whitespace collapsed. */
export async function textOf(locator: Locator, timeout = 10_000): Promise<string> {
  await locator.first().waitFor({ state: "visible", timeout });
  return ((await locator.first().textContent()) ?? "").replace(/\s+/g, " ").trim();
}

/** The path and query of the page's current URL. */
export function pathOf(page: Page): string {
  const url = new URL(page.url());
  return url.pathname + url.search;
}

/** Waits until the page's path (and query) is exactly `path`. */
export async function waitForPath(page: Page, path: string, timeout = 10_000): Promise<void> {
  await page.waitForURL((url) => url.pathname + url.search === path, { timeout });
}

/** Signs in through the /login form, as a person would. */
export async function signInThroughForm(page: Page, email: string, password: string, path = "/login") {
  await open(page, path);
  await submitLogin(page, email, password);
  await waitForHydration(page);
}

/** Fills and submits the login form on the current page (English or Dutch labels), without waiting for an outcome. */
export async function submitLogin(page: Page, email: string, password: string) {
  await page.locator('input[name="email"]').fill(email);
  await page.locator('input[name="password"]').fill(password);
  await Promise.all([
    page.waitForURL((url) => url.pathname !== "/login"),
    page.locator('main form[method="post"] button[type="submit"]').click(),
  ]);
}

/**
 * Fills and submits the login form expecting to stay on /login. Waits (up to
 * a few seconds) for the form error to read `expected`, then returns what it
 * reads, so that a wrong message fails the test with the actual text.
 */
export async function failLogin(page: Page, email: string, password: string, expected: string): Promise<string> {
  await page.locator('input[name="email"]').fill(email);
  await page.locator('input[name="password"]').fill(password);
  const response = page.waitForResponse((response) => response.request().method() === "POST");
  response.catch(() => undefined); // a failed click below must not leave this rejection unhandled
  await page.locator('main form[method="post"] button[type="submit"]').click();
  await response;
  await page.waitForLoadState();
  await waitForHydration(page);
  const errorBox = page.locator(".form-error");
  await page
    .waitForFunction((text) => document.querySelector(".form-error")?.textContent.includes(text) ?? false, expected, { timeout: 5_000 })
    .catch(() => undefined);
  if ((await errorBox.count()) === 0) return `(no form error; at ${pathOf(page)})`;
  return ((await errorBox.first().textContent()) ?? "").replace(/\s+/g, " ").trim();
}

/** Opens the user menu (a <details>: works without JavaScript) and returns its items' texts. */
export async function openUserMenu(page: Page): Promise<string[]> {
  const menu = page.locator("details.user-menu");
  if (!(await menu.evaluate((details: HTMLDetailsElement) => details.open))) await menu.locator("summary").click();
  await menu.getByRole("menuitem").first().waitFor({ state: "visible" });
  return (await menu.getByRole("menuitem").allTextContents()).map((text) => text.trim());
}

/** Signs out through the user menu's 'Signout' link (or its Dutch 'Afmelden'). */
export async function signOutThroughMenu(page: Page, label = "Signout") {
  await openUserMenu(page);
  await Promise.all([
    page.waitForURL((url) => url.pathname === "/login"),
    page.locator("details.user-menu").getByRole("menuitem", { name: label, exact: true }).click(),
  ]);
  await waitForHydration(page);
}

/** The text of the first match right now (whitespace collapsed), or null when there is none; never waits. */
async function currentText(locator: Locator): Promise<string | null> {
  if ((await locator.count()) === 0) return null;
  return ((await locator.first().textContent()) ?? "").replace(/\s+/g, " ").trim();
}

/**
 * Waits (up to `timeout`) until the first match reads `expected`; fails with
 * what it reads instead. For pages that change after a client-side navigation.
 */
export async function expectTextSoon(locator: Locator, expected: string, timeout = 10_000): Promise<void> {
  await expect.poll(() => currentText(locator), { timeout }).toBe(expected);
}

/** The visible texts and hrefs of the links inside `scope` (none when `scope` matches nothing). */
export async function linksIn(scope: Locator): Promise<Array<{ text: string; href: string }>> {
  if ((await scope.count()) === 0) return [];
  return scope
    .first()
    .locator("a[href]")
    .evaluateAll((links) =>
      links.map((link) => ({
        text: (link as HTMLElement).innerText.replace(/\s+/g, " ").trim(),
        href: link.getAttribute("href") ?? "",
      })),
    );
}

/** The top bar's bucket navigation (a <nav> named "Buckets"). */
export function topBarBucketNav(page: Page): Locator {
  return page.locator("header").getByRole("navigation", { name: "Buckets" });
}

/**
 * Clicks `target` and waits until the page's path (and query) is `path`, then for hydration. With JavaScript the
 * URL changes before the new page is shown (it may still be fetching its messages), so wait for something of the
 * new page, such as its heading, before typing into it.
 */
export async function clickTo(page: Page, target: Locator, path: string, timeout = 10_000): Promise<void> {
  await Promise.all([waitForPath(page, path, timeout), target.click()]);
  await waitForHydration(page);
}

/**
 * Signs in through /login, then waits until the page it leads to shows `heading` as its main <h1>: with
 * JavaScript the URL changes before the new page has rendered, so checks right after sign-in need this.
 */
export async function signInTo(page: Page, email: string, password: string, heading = "Content"): Promise<void> {
  await signInThroughForm(page, email, password);
  await expectTextSoon(page.locator("main h1"), heading);
}

/** Clicks a button that posts its form and waits for the page that answers (a navigation without JavaScript, a fetch with it), hydrated. */
export async function submitAndWait(page: Page, button: Locator): Promise<void> {
  const response = page.waitForResponse((candidate) => candidate.request().method() === "POST");
  response.catch(() => undefined);
  await button.click();
  await response;
  await page.waitForLoadState();
  await waitForHydration(page);
}

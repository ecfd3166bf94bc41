import type { Browser, BrowserContext, Locator, Page } from "playwright-core";
import { catalogues } from "@core/catalogues";
import { newContext, waitForHydration, type ContextLease } from "./browser";
import { createTestUser, signIn } from "./http";
import type { TourData, TourEntry, TourLanguage, TourRole, TourSetup, TourStep } from "./screen-tour";
import { startTestServer, type TestServer } from "./server";

/** Every message, all the catalogue's parts (core/catalogue-parts.ts). */
const en = catalogues.en!;
const nl = catalogues.nl!;

/*
 * Walks the tour (tests/support/screen-tour.ts): one browser context per entry and language at a time (cleaned between
 * entries by tests/support/browser.ts, so no entry sees another's session preferences), the page opened at the first
 * width, the entry's dialog opened, then each width in turn (the same page resized) handed to `look`. Shared by `npm run screens` and tests/e2e/visual-checks.test.ts.
 */

export const TOUR_LANGUAGES: TourLanguage[] = ["en", "nl"];
export const TOUR_WIDTHS = [1280, 390] as const;
const HEIGHT: Record<number, number> = { 1280: 900, 390: 844 };

/** The demo admin the tour's server seeds (startTourServer in the callers). */
export const TOUR_ADMIN = { email: "admin@vitrine.local", password: "tour-admin-password" };

export interface TourView {
  entry: TourEntry;
  language: TourLanguage;
  width: number;
  page: Page;
  /** The entry's dialog box, when it has one. */
  dialog: Locator | null;
  /** A scripted page of the same context, for checks that need scripts on a page without them. */
  scriptedPage(): Promise<Page>;
}

const CATALOGUES = { en, nl } as const;

function translate(language: TourLanguage, key: string, params: Record<string, string | number> = {}): string {
  let value: unknown = CATALOGUES[language];
  for (const part of key.split(".")) value = (value as Record<string, unknown> | undefined)?.[part];
  if (typeof value !== "string") throw new Error(`no message ${key} in ${language}`);
  return value.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(params[name] ?? `{{${name}}}`));
}

/** Signs in the tour's admin and an editor once per server; runs setups once each. */
export class Tour {
  private readonly memo = new Map<string, Promise<unknown>>();
  private readonly cookies = new Map<TourRole, Promise<string | null>>();
  private readonly adminUser: Promise<{ id: string; cookie: string }>;

  constructor(
    readonly server: TestServer,
    readonly browser: Browser,
  ) {
    this.adminUser = (async () => {
      const cookie = await signIn(server.url, TOUR_ADMIN.email, TOUR_ADMIN.password);
      const { rows } = await server.db.query<{ id: string }>("SELECT id FROM users WHERE email = $1", [TOUR_ADMIN.email]);
      return { id: rows[0]!.id, cookie };
    })();
  }

  private once<T>(key: string, make: () => Promise<T>): Promise<T> {
    let value = this.memo.get(key) as Promise<T> | undefined;
    if (!value) {
      value = make();
      this.memo.set(key, value);
    }
    return value;
  }

  private cookie(role: TourRole): Promise<string | null> {
    let cookie = this.cookies.get(role);
    if (!cookie) {
      cookie =
        role === "anonymous"
          ? Promise.resolve(null)
          : role === "admin"
            ? this.adminUser.then((admin) => admin.cookie)
            : createTestUser(this.server.db, { name: "Eva Editor", permissions: ["user"] }).then((user) =>
                signIn(this.server.url, user.email, user.password),
              );
      this.cookies.set(role, cookie);
    }
    return cookie;
  }

  /** The entry's setup data (made once). */
  async data(entry: TourEntry): Promise<TourData> {
    if (!entry.setup) return {};
    const setup: TourSetup = {
      server: this.server,
      db: this.server.db,
      admin: await this.adminUser,
      once: (key, make) => this.once(key, make),
    };
    return this.once(`entry:${entry.name}`, () => entry.setup!(setup));
  }

  /** Opens the entry in `language`, then hands each width to `look`. Closes its context in any case. */
  async visit(
    entry: TourEntry,
    language: TourLanguage,
    look: (view: TourView) => Promise<void>,
    widths: readonly number[] = TOUR_WIDTHS,
  ): Promise<void> {
    const clock = Date.now();
    const lap = (what: string) => process.env.TOUR_TIMING && console.log(`${entry.name} ${language}: ${what} at ${Date.now() - clock} ms`);
    const data = await this.data(entry);
    lap("setup");
    const cookie = await this.cookie(entry.as);
    const ctx = await newContext(this.browser, this.server.url, {
      javaScriptEnabled: entry.javaScriptEnabled ?? true,
      locale: language === "nl" ? "nl-NL" : "en-US",
      userAgent: entry.userAgent,
    });
    const context: BrowserContext = ctx.context;
    let scriptedCtx: ContextLease | null = null;
    try {
      if (cookie) {
        const [name, ...value] = cookie.split("=");
        await context.addCookies([{ name: name!, value: value.join("="), url: this.server.url }]);
      }
      const page = await ctx.newPage();
      await page.setViewportSize({ width: widths[0]!, height: HEIGHT[widths[0]!] ?? 900 });
      const path = typeof entry.path === "function" ? entry.path(data) : entry.path;
      const response = await page.goto(path);
      const expected = entry.status ?? 200;
      if (response?.status() !== expected) throw new Error(`${path} answered ${response?.status()}, expected ${expected}`);
      lap("loaded");
      await waitForHydration(page);
      lap("hydrated");
      await page
        .locator(entry.ready ?? "main h1, h1")
        .first()
        .waitFor({ state: "visible", timeout: 15_000 });
      const step: TourStep = { page, data, language, t: (key, params) => translate(language, key, params) };
      if (entry.open) await entry.open(step);
      const dialog = entry.dialog ? page.locator(entry.dialog).first() : null;
      if (dialog) await dialog.waitFor({ state: "visible" });
      let scripted: Page | null = null;
      for (const width of widths) {
        await page.setViewportSize({ width, height: HEIGHT[width] ?? 900 });
        lap(`resize ${width}`);
        if (entry.javaScriptEnabled ?? true) await settled(page);
        else await page.waitForLoadState("load");
        lap(`settled ${width}`);
        await look({
          entry,
          language,
          width,
          page,
          dialog,
          scriptedPage: async () => {
            if (!scripted) {
              scriptedCtx = await newContext(this.browser, this.server.url, { locale: language === "nl" ? "nl-NL" : "en-US" });
              scripted = await scriptedCtx.newPage();
            }
            return scripted;
          },
        });
      }
      // An uncaught error or a console error (a module run before one it imports, a failed hydration) fails the visit.
      if (ctx.errors.length) throw new Error(`${path} in ${language}: ${ctx.errors.join("; ")}`);
    } finally {
      await (scriptedCtx as ContextLease | null)?.close();
      await ctx.close();
    }
  }
}

/** Waits until images have loaded and fonts and layout have settled after a resize. */
async function settled(page: Page): Promise<void> {
  await page
    .waitForFunction(() => [...document.images].every((image) => image.complete), undefined, { timeout: 10_000 })
    .catch(() => undefined);
  await page.evaluate(() => document.fonts.ready.then(() => undefined)).catch(() => undefined);
  // Two frames: the resize's layout and paint are done.
  await page
    .evaluate(() => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))))
    .catch(() => undefined);
}

/** The tour's server: the built server on a fresh database, seeded with the demo content and the tour's admin. */
export function startTourServer(): Promise<TestServer> {
  return startTestServer({ seed: true, env: { ADMIN_EMAIL: TOUR_ADMIN.email, ADMIN_PASSWORD: TOUR_ADMIN.password } });
}

/** Every page module of app/routes.ts (legacy redirects, logout and the API left out) and a pattern of its paths. */
export async function pageRoutes(): Promise<Array<{ file: string; patterns: RegExp[]; splat: boolean }>> {
  const routes: RouteNode[] = (await import("~/routes")).default;
  const byFile = new Map<string, RegExp[]>();
  const splats = new Set<string>();
  const walk = (nodes: RouteNode[], prefix: string) => {
    for (const node of nodes) {
      const path = node.index ? prefix : [prefix, node.path ?? ""].filter(Boolean).join("/");
      if (node.children?.length) {
        walk(node.children, path); // a layout: its children are the pages
        continue;
      }
      if (!node.file.endsWith(".tsx") || node.file.startsWith("routes/legacy/") || node.file === "routes/logout.tsx") continue;
      if (path.split("/").includes("*")) splats.add(node.file);
      const pattern = path
        .split("/")
        .filter(Boolean)
        .map((segment) =>
          segment === "*" ? "/.*" : segment.startsWith(":") ? (segment.endsWith("?") ? "(?:/[^/]+)?" : "/[^/]+") : `/${segment}`,
        )
        .join("");
      byFile.set(node.file, [...(byFile.get(node.file) ?? []), new RegExp(`^${pattern || "/"}/?(?:\\?.*)?$`)]);
    }
  };
  walk(routes, "");
  return [...byFile].map(([file, patterns]) => ({ file, patterns, splat: splats.has(file) }));
}

interface RouteNode {
  path?: string;
  index?: boolean;
  file: string;
  children?: RouteNode[];
}

import type { Browser, Locator, Page } from "playwright-core";
import type { Permission } from "@server/accounts/users";
import { newContext, waitForHydration } from "./browser";
import { createTestUser, get, signIn } from "./http";
import type { TestServer } from "./server";

/* Helpers for the browser tests of the generic content form (tests/e2e/content-*.test.ts). */

/**
 * A browser context (JavaScript on or off) with a fresh user already signed in:
 * the session cookie comes from POST /auth/login, so each test skips the login page.
 */
export async function signedInContext(
  browser: Browser,
  server: TestServer,
  options: { javaScriptEnabled?: boolean; permissions?: Permission[]; locale?: string } = {},
) {
  const user = await createTestUser(server.db, { permissions: options.permissions ?? ["user"] });
  const cookie = await signIn(server.url, user.email, user.password);
  const ctx = await newContext(browser, server.url, { javaScriptEnabled: options.javaScriptEnabled, locale: options.locale });
  const [name, ...value] = cookie.split("=");
  await ctx.context.addCookies([{ name: name!, value: value.join("="), url: server.url }]);
  return { ...ctx, user, cookie };
}

/** The bucket form on the page. */
export const bucketForm = (page: Page) => page.locator("form.bucket-form");

/** The form control named `name` (Conform's names: rooms[0].name, title.nl). */
export const control = (page: Page, name: string) => bucketForm(page).locator(`[name="${name}"]`);

/** The field wrapper of `name` (its label, input, counter and errors). */
export const fieldBox = (page: Page, name: string) => bucketForm(page).locator(`[data-field="${name}"]`);

/** Waits until field `name` shows `expected` in red under it. */
export async function waitForFieldError(page: Page, name: string, expected: string, timeout = 10_000): Promise<void> {
  await fieldBox(page, name).locator(":scope > .field-error", { hasText: expected }).first().waitFor({ state: "visible", timeout });
}

/**
 * Clicks a button that submits the bucket form (Save, or a list intent
 * without JavaScript) and waits until the resulting page has settled: the
 * POST answered, the document loaded and, with scripts, hydrated.
 */
export async function submitWith(page: Page, button: Locator): Promise<number | null> {
  const response = page.waitForResponse((candidate) => candidate.request().method() === "POST", { timeout: 15_000 });
  response.catch(() => undefined);
  await button.click();
  const answered = await response;
  await page.waitForLoadState("load");
  await settle(page);
  return answered.status();
}

/** Waits until the page has loaded, hydrated and shows the router's location (see waitForHydration). */
export const settle = waitForHydration;

/** Clicks Save (or its Dutch 'Opslaan') and waits for the outcome; returns the POST's status. */
export function save(page: Page): Promise<number | null> {
  return submitWith(page, bucketForm(page).locator(".form-actions button[type=submit]"));
}

/** The contentId of the document the page edits, read from the URL /{b or a screen}/{slug}/{contentId}/latest. */
export function contentIdOf(page: Page): string {
  const match = /^\/[a-z-]+\/[^/]+\/([0-9a-f-]{36})\/latest/.exec(new URL(page.url()).pathname);
  if (!match) throw new Error(`not on a document page: ${page.url()}`);
  return match[1]!;
}

/** The latest stored version of a document through the JSON API (what exhibit apps read). */
export async function storedDocument(server: TestServer, cookie: string, slug: string, contentId: string) {
  const response = await get(server.url, `/api/v1/buckets/${slug}/content/${contentId}/latest`, cookie);
  if (response.status !== 200) throw new Error(`GET document: ${response.status} ${await response.text()}`);
  const { _id, contentId: _contentId, ...data } = (await response.json()) as Record<string, unknown>;
  return { versionId: _id as string, data };
}

/** Values of the bucket form's named controls as a browser would submit them. */
export async function formValues(page: Page): Promise<Record<string, string>> {
  return bucketForm(page).evaluate((form: HTMLFormElement) => {
    const out: Record<string, string> = {};
    for (const [key, value] of new FormData(form)) if (!key.startsWith("__")) out[key] = typeof value === "string" ? value : value.name;
    return out;
  });
}

/** Counts the POST requests a page sends from now on. */
export function countPosts(page: Page): { readonly count: number } {
  const counter = { count: 0 };
  page.on("request", (request) => {
    if (request.method() === "POST") counter.count += 1;
  });
  return counter;
}

/** The text of the first match (visible or not), whitespace collapsed. */
export async function plainText(locator: Locator): Promise<string> {
  return ((await locator.first().textContent({ timeout: 5_000 })) ?? "").replace(/\s+/g, " ").trim();
}

/** Every error the form shows, keyed by the field it is under ("form" for the form-level ones). */
export async function shownErrors(page: Page): Promise<Record<string, string>> {
  return page.evaluate(() => {
    const out: Record<string, string> = {};
    for (const element of document.querySelectorAll(".field-error, .form-error")) {
      const owner = element.closest("[data-field]")?.getAttribute("data-field") ?? "form";
      out[owner] = ((out[owner] ? `${out[owner]} ` : "") + element.textContent).replace(/\s+/g, " ").trim();
    }
    return out;
  });
}

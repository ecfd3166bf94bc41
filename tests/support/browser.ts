import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { expect } from "vitest";

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

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

/**
 * A browser context with JavaScript on or off. Unexpected console errors and
 * page errors are collected; call `expectNoErrors` at the end of a test.
 */
export async function newContext(
  browser: Browser,
  baseURL: string,
  options: { javaScriptEnabled?: boolean; locale?: string; userAgent?: string } = {},
) {
  const context: BrowserContext = await browser.newContext({
    baseURL,
    javaScriptEnabled: options.javaScriptEnabled ?? true,
    locale: options.locale ?? "en-US",
    userAgent: options.userAgent,
  });
  const errors: string[] = [];
  context.on("weberror", (error) => errors.push(`page error: ${error.error().message}`));
  context.on("console", (message) => {
    if (message.type() === "error" && !/status of (4\d\d)/.test(message.text())) errors.push(`console: ${message.text()}`);
  });
  return {
    context,
    errors,
    newPage: (): Promise<Page> => context.newPage(),
    expectNoErrors: () => expect(errors).toEqual([]),
    close: () => context.close(),
  };
}

/** Signs in through the /login form, as a person would. */
export async function signInThroughForm(page: Page, email: string, password: string, path = "/login") {
  await page.goto(path);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await Promise.all([page.waitForURL((url) => url.pathname !== "/login"), page.getByRole("button", { name: "Sign in" }).click()]);
}

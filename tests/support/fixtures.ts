import type { Db } from "../../server/db/client";
import { createBucket, type Bucket } from "../../server/services/buckets";
import type { Permission } from "../../server/services/users";
import { createTestUser, get, signIn } from "./http";

let counter = 0;

/** A bucket with a unique slug (lower case, URL-safe); override any field. */
export function createTestBucket(db: Db, overrides: Partial<Omit<Bucket, "id">> & { position?: number } = {}): Promise<Bucket> {
  counter += 1;
  const slug = overrides.slug ?? `fixture-${counter}-${Date.now().toString(36)}`;
  return createBucket(db, {
    slug,
    name: overrides.name ?? `Fixture Bucket ${counter}`,
    singleton: false,
    private: false,
    collectionName: slug,
    locales: ["en", "nl"],
    jsonSchema: { type: "object", properties: { title: { type: "string", title: "Title" } } },
    ...overrides,
  });
}

/** A new user with these permissions (default: user), signed in; returns the user and the session cookie. */
export async function signedInUser(
  url: string,
  db: Db,
  overrides: { name?: string; permissions?: Permission[]; buckets?: string[] | null } = {},
) {
  const user = await createTestUser(db, overrides);
  const cookie = await signIn(url, user.email, user.password);
  return { user, cookie };
}

/** GET a page and return its status and HTML (never follows redirects). */
export async function page(url: string, path: string, cookie?: string, headers: Record<string, string> = {}) {
  const response = await get(url, path, cookie, headers);
  return { response, status: response.status, location: response.headers.get("location"), html: await response.text() };
}

/** The hrefs and texts of the links inside the top bar's bucket <nav>, or null when there is no such nav. */
export function topBarBucketLinks(html: string): Array<{ href: string; text: string }> | null {
  const nav = /<nav[^>]*class="bucket-links"[^>]*>([\s\S]*?)<\/nav>/.exec(html);
  if (!nav) return null;
  return linksIn(nav[1]!);
}

/** The links of the home page's bucket list, or [] when it shows none. */
export function homeBucketLinks(html: string): Array<{ href: string; text: string }> {
  const list = /<ul class="bucket-grid">([\s\S]*?)<\/ul>/.exec(html);
  return list ? linksIn(list[1]!) : [];
}

/** The <header class="top-bar"> element's HTML. */
export function topBar(html: string): string {
  const match = /<header class="top-bar">([\s\S]*?)<\/header>/.exec(html);
  if (!match) throw new Error("the page has no top bar");
  return match[1]!;
}

function linksIn(fragment: string): Array<{ href: string; text: string }> {
  return [...fragment.matchAll(/<a[^>]*href="([^"]*)"[^>]*>([\s\S]*?)<\/a>/g)].map((match) => ({
    href: match[1]!,
    text: decode(match[2]!.replace(/<[^>]+>/g, " ").replace(/\s+/g, " ").trim()),
  }));
}

export function decode(text: string): string {
  return text
    .replace(/&quot;/g, '"')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");
}

/** The big status code and message of the error page, or null when the page is not an error page. */
export function errorPage(html: string): { status: string; message: string } | null {
  const status = /<h1 class="error-status">([^<]*)<\/h1>/.exec(html);
  const message = /<p class="error-message">([^<]*)<\/p>/.exec(html);
  return status && message ? { status: status[1]!, message: decode(message[1]!) } : null;
}

/** The <html lang> of a page. */
export function htmlLang(html: string): string | null {
  return /<html[^>]*\blang="([^"]*)"/.exec(html)?.[1] ?? null;
}

export const IE9_UA = "Mozilla/5.0 (compatible; MSIE 9.0; Windows NT 6.1; Trident/5.0)";
export const IE10_UA = "Mozilla/5.0 (compatible; MSIE 10.0; Windows NT 6.2; Trident/6.0)";
export const IE11_UA = "Mozilla/5.0 (Windows NT 10.0; Trident/7.0; rv:11.0) like Gecko";
export const CHROME_UA =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36";
export const EDGE_UA =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36 Edg/126.0.0.0";
export const FIREFOX_UA = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:127.0) Gecko/20100101 Firefox/127.0";
export const SAFARI_UA =
  "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15";

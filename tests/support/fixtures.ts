import path from "node:path";
import type { RootData } from "~/lib/root-data";
import type { RunningServer, StartOptions } from "@server/app";
import type { Db } from "@server/db/client";
import { createBucket, type Bucket } from "@server/content/buckets";
import { changeDocumentCountSql } from "@server/content/document-counts";
import type { Permission } from "@server/accounts/users";
import { createTestUser, get, signIn } from "./http";
import { TEST_SESSION_SECRET } from "./server";

let counter = 0;

/**
 * `count` documents of a bucket in one statement (a thousand saves through the app would take minutes), with their
 * search text and the bucket's count. `dataSql`: each document's data, an SQL jsonb expression over its number `n`.
 */
export async function seedDocuments(db: Db, bucketId: string, count: number, dataSql: string): Promise<void> {
  await db.query(
    `WITH numbered AS MATERIALIZED (
       SELECT gen_random_uuid() AS content_id, gen_random_uuid() AS version_id, ${dataSql} AS data
       FROM generate_series(1, $2::int) AS n
     ), new_contents AS (
       INSERT INTO contents (content_id, bucket_id, latest_version_id, search_text)
       SELECT content_id, $1, version_id, document_search_text(data) FROM numbered
     )
     INSERT INTO versions (version_id, content_id, data) SELECT version_id, content_id, data FROM numbered`,
    [bucketId, count],
  );
  await db.query(changeDocumentCountSql("$1::uuid", "$2::int"), [bucketId, count]);
}

/**
 * The test bucket: a unique slug (lower case, URL-safe), locales nl then en (nl is the default active locale)
 * and one text property, title. Override any field; `position` orders it in navigation.
 */
export function createTestBucket(
  db: Db,
  overrides: Partial<Omit<Bucket, "id" | "schemaVersionId">> & { position?: number } = {},
): Promise<Bucket> {
  counter += 1;
  const slug = overrides.slug ?? `fixture-${counter}-${Date.now().toString(36)}`;
  return createBucket(db, {
    slug,
    name: overrides.name ?? `Fixture Bucket ${counter}`,
    singleton: false,
    private: false,
    collectionName: slug,
    locales: ["nl", "en"],
    jsonSchema: { type: "object", properties: { title: { type: "string", title: "Title" } } },
    ...overrides,
  });
}

const mediaBuckets = new WeakMap<Db, Map<string, Promise<Bucket>>>();

/**
 * A bucket whose image, video and file fields all follow `rules` (schema attributes such as maxFilesize or
 * enableCrop): media calls take their rules from the bucket's schema, never from the client. One bucket per
 * set of rules and database.
 */
export function mediaRulesBucket(db: Db, rules: Record<string, unknown> = {}): Promise<Bucket> {
  const byRules = mediaBuckets.get(db) ?? new Map<string, Promise<Bucket>>();
  mediaBuckets.set(db, byRules);
  const key = JSON.stringify(rules);
  let bucket = byRules.get(key);
  if (!bucket) {
    const field = (ref: string) => ({ type: "string", title: ref, _ref: ref, ...rules });
    bucket = createTestBucket(db, {
      jsonSchema: {
        type: "object",
        properties: { title: { type: "string", title: "Title" }, image: field("b-image"), video: field("b-video"), file: field("b-file") },
      },
    });
    byRules.set(key, bucket);
  }
  return bucket;
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
    text: decode(
      match[2]!
        .replace(/<[^>]+>/g, " ")
        .replace(/\s+/g, " ")
        .trim(),
    ),
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
export const CHROME_UA = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36";
export const EDGE_UA =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36 Edg/126.0.0.0";
export const FIREFOX_UA = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:127.0) Gecko/20100101 Firefox/127.0";
export const SAFARI_UA =
  "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15";

/** The root loader's data (the client state of spec §4) exactly as the first render ships it to the browser. */
export async function clientState(html: string): Promise<RootData> {
  const { UNSAFE_decodeViaTurboStream: decodeTurboStream } = await import("react-router");
  const chunks = [...html.matchAll(/streamController\.enqueue\(("(?:[^"\\]|\\.)*")\)/g)].map((match) => JSON.parse(match[1]!) as string);
  if (chunks.length === 0) throw new Error("the page carries no router data");
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new TextEncoder().encode(chunks.join("")));
      controller.close();
    },
  });
  const decoded = await decodeTurboStream(body, globalThis);
  await decoded.done;
  const state = (decoded.value as { loaderData?: { root?: RootData } }).loaderData?.root;
  if (!state) throw new Error("the page carries no root data");
  return state;
}

/** The nonce of the script-src of a response's Content-Security-Policy, or null. */
export function cspNonce(response: Response): string | null {
  return /script-src[^;]*'nonce-([^']+)'/.exec(response.headers.get("content-security-policy") ?? "")?.[1] ?? null;
}

/** The nonce attribute of every <script> element of a page (null for a script without one). */
export function scriptNonces(html: string): Array<string | null> {
  return [...html.matchAll(/<script\b([^>]*)>/g)].map((match) => /\bnonce="([^"]*)"/.exec(match[1]!)?.[1] ?? null);
}

/** The page's <title> text, or null. */
export function pageTitle(html: string): string | null {
  const match = /<title>([^<]*)<\/title>/.exec(html);
  return match ? decode(match[1]!) : null;
}

/** The content of <meta name="…">, or null. */
export function metaContent(html: string, name: string): string | null {
  const match = new RegExp(`<meta name="${name}" content="([^"]*)"`).exec(html);
  return match ? decode(match[1]!) : null;
}

/** The built server module (the bundle npm test builds), for tests that start servers themselves. */
async function loadBuild(): Promise<{
  startServer(options: StartOptions): Promise<RunningServer>;
  loadConfig(env: NodeJS.ProcessEnv): RunningServer["config"];
}> {
  return import(/* @vite-ignore */ path.resolve(process.env.VITRINE_BUILD_DIR ?? "build", "server/index.js"));
}

/**
 * The built server opening its own database from DATABASE_URL or DATA_DIR (as `npm start` does), rather than
 * being handed one: its errors then come from the bundle's own database client. Needs DATA_DIR in env.
 */
export async function startBuiltServer(env: Record<string, string>, options: { seed?: boolean } = {}): Promise<RunningServer> {
  const built = await loadBuild();
  const config = built.loadConfig({
    PORT: "0",
    HOST: "127.0.0.1",
    SESSION_SECRET: TEST_SESSION_SECRET,
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? "silent",
    ...env,
  });
  return built.startServer({ config, seed: options.seed ?? false });
}

/** The database, counting the statements sent through it (a test of how many round trips a lookup takes). */
export function countingStatements(db: Db): { db: Db; statements: string[] } {
  const statements: string[] = [];
  return {
    statements,
    db: {
      ...db,
      query: (sql, params) => (statements.push(sql), db.query(sql, params)),
      transaction: (fn) => db.transaction(fn),
      close: () => db.close(),
    },
  };
}

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestBucket, decode, htmlLang, page, signedInUser } from "@tests/support/fixtures";
import { startTestServer, type TestServer } from "@tests/support/server";

/*
 * Issue 36: the interface's hints pointed at repository files (docs/screens.md, docs/webhooks.md) and the support page
 * listed docs/*.md; they now explain in a sentence and link to /help, which the server renders in both languages.
 */

const REPOSITORY_PATH = /\b(?:docs|app|core|server|tests)\/[\w./-]+\.\w+|\.md\b/;
const LANGUAGES = { en: "en-US", nl: "nl-NL" } as const;

let server: TestServer;
let admin: string;
let bucketSlug: string;

beforeAll(async () => {
  server = await startTestServer();
  admin = (await signedInUser(server.url, server.db, { name: "Helen Help", permissions: ["user", "admin"] })).cookie;
  bucketSlug = (await createTestBucket(server.db, { slug: `help-${Date.now().toString(36)}`, name: "Help bucket" })).slug;
});
afterAll(() => server.stop());

/** The text a reader sees (tags and the scripts' data left out). */
const visibleText = (html: string) => decode(html.replace(/<script\b[\s\S]*?<\/script>/g, "").replace(/<[^>]+>/g, " "));

/** The /help links of a page, with their anchors. */
const helpLinks = (html: string) => [...html.matchAll(/href="(\/help(?:#[\w-]+)?)"/g)].map((match) => match[1]!);

describe.each(Object.entries(LANGUAGES))("in %s", (language, acceptLanguage) => {
  const get = (path: string, cookie?: string) => page(server.url, path, cookie, { "Accept-Language": acceptLanguage });

  it("the pages that pointed at repository files name none, and link to /help sections that exist", async () => {
    const help = await get("/help");
    expect(help.status).toBe(200);
    expect(htmlLang(help.html)).toBe(language);
    const ids = new Set([...help.html.matchAll(/\sid="([\w-]+)"/g)].map((match) => match[1]));

    const pages: Array<[string, string | undefined, string[]]> = [
      ["/support", undefined, ["/help#screens", "/help#webhooks", "/help#guides"]],
      ["/support", admin, ["/help#screens", "/help#webhooks", "/help#guides"]],
      ["/settings/webhooks", admin, ["/help#webhooks"]],
      ["/settings/webhooks/new", admin, ["/help#webhooks"]],
      [`/settings/buckets/${bucketSlug}`, admin, ["/help#screens"]],
    ];
    for (const [path, cookie, expected] of pages) {
      const { status, html } = await get(path, cookie);
      expect(status, path).toBe(200);
      expect(visibleText(html).match(REPOSITORY_PATH)?.[0] ?? null, path).toBeNull();
      const links = helpLinks(html);
      expect(links, path).toEqual(expect.arrayContaining(expected));
      for (const link of links) {
        const [target, anchor] = link.split("#");
        expect((await get(target!, cookie)).status, link).toBe(200);
        if (anchor) expect(ids.has(anchor), link).toBe(true);
      }
    }
    expect(visibleText(help.html).match(REPOSITORY_PATH)?.[0] ?? null).toBeNull();
  });
});

it("explains the screens and the webhook signature in the interface language", async () => {
  const english = visibleText((await page(server.url, "/help", undefined, { "Accept-Language": "en-US" })).html);
  expect(english).toContain("Learning-environment sessions (dle-sessies)");
  expect(english).toContain("Vitrine-Signature");
  expect(english).toContain('createHmac("sha256", secret)');
  const dutch = visibleText((await page(server.url, "/help", undefined, { "Accept-Language": "nl-NL" })).html);
  expect(dutch).toContain("Elke bucket wordt bewerkt op een scherm");
  expect(dutch).toContain("Weiger het verzoek als t meer dan 5 minuten");
});

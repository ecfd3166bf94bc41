import { listReleases } from "@server/content/releases";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createImportRun } from "@server/content/import-documents";
import { createInvitation } from "@server/accounts/invitations";
import { createResetToken } from "@server/accounts/password-reset";
import { createContent } from "@server/content/store";
import { createWebhook } from "@server/webhooks/store";
import { createTestBucket, htmlLang, page, pageTitle, signedInUser } from "@tests/support/fixtures";
import { postForm } from "@tests/support/http";
import { startTestServer, type TestServer } from "@tests/support/server";
import { pageRoutes } from "@tests/support/tour-walk";

/* Issue 36: every page's <title> is "{page} · Vitrine", in the interface language, error pages included. */

const LANGUAGES = { en: "en-US", nl: "nl-NL" } as const;
const TITLE = /^.+ · Vitrine$/;

interface Visit {
  path: string;
  as: "admin" | "anonymous" | "outsider";
  status?: number;
}

let server: TestServer;
const cookies: Record<Visit["as"], string | undefined> = { admin: undefined, anonymous: undefined, outsider: undefined };
/** One visit per page module of app/routes.ts, keyed by the module's file (a module that serves two routes: a visit to each). */
let visits: Record<string, Visit | Visit[]>;

beforeAll(async () => {
  server = await startTestServer({ seed: true });
  const stamp = Date.now().toString(36);
  const admin = await signedInUser(server.url, server.db, { name: "Title Tess", permissions: ["user", "admin", "dev"] });
  cookies.admin = admin.cookie;
  cookies.outsider = (await signedInUser(server.url, server.db, { name: "Outside Otto", permissions: [] })).cookie;

  const bucket = await createTestBucket(server.db, { slug: `titles-${stamp}`, name: "Title bucket" });
  const singleton = await createTestBucket(server.db, { slug: `titles-one-${stamp}`, name: "Title singleton", singleton: true });
  const schema = { type: "object", properties: { title: { type: "string", title: "Title" } } };
  const lessons = await createTestBucket(server.db, {
    slug: `titles-dle-${stamp}`,
    name: "Title lessons",
    screen: "dle-content",
    jsonSchema: schema,
  });
  const document = await createContent(server.db, bucket.id, { title: "Titled document" }, admin.user.id);
  const lesson = await createContent(server.db, lessons.id, { title: "Titled lesson" }, admin.user.id);
  const demo = async (screen: string) => {
    const { rows } = await server.db.query<{ slug: string; contentId: string; versionId: string }>(
      `SELECT b.slug, c.content_id AS "contentId", c.latest_version_id AS "versionId"
         FROM buckets b JOIN contents c ON c.bucket_id = b.id WHERE b.screen = $1 ORDER BY b.slug LIMIT 1`,
      [screen],
    );
    if (!rows[0]) throw new Error(`the demo content has no ${screen} document`);
    return rows[0];
  };
  const [trend, sessions, dleSessions, environment] = await Promise.all([
    demo("trend"),
    demo("sessies"),
    demo("dle-sessies"),
    demo("dle-content"),
  ]);
  const [demoRelease] = await listReleases(server.db);
  const { code } = await createInvitation(server.db, {});
  const { token: resetToken } = await createResetToken(server.db, admin.user.id);
  const webhook = await createWebhook(server.db, admin.user, {
    url: "https://example.org/hook",
    events: ["document.saved"],
    bucketSlugs: null,
    secret: "s".repeat(32),
  });
  const shared = await postForm(
    server.url,
    "/shareables",
    { intent: "create", expiry: "7", version: "latest", bucket: bucket.slug, contentId: document.contentId },
    admin.cookie,
  );
  const shareToken = /\/shareables\/([A-Za-z0-9_-]+)"/.exec(await shared.text())?.[1];
  if (!shareToken) throw new Error(`no shareable link made (${shared.status})`);

  const importRun = await createImportRun(server.db, {
    bucket,
    user: admin.user,
    dryRun: true,
    format: "csv",
    filePath: "/nonexistent/import.csv",
    fileName: "artworks.csv",
    settings: { mapping: {}, key: null },
  });
  const doc = `${bucket.slug}/${document.contentId}`;
  visits = {
    "routes/home.tsx": { path: "/", as: "admin" },
    "routes/login.tsx": { path: "/login", as: "anonymous" },
    "routes/signup.tsx": { path: `/signup?code=${encodeURIComponent(code)}`, as: "anonymous" },
    "routes/no-access.tsx": { path: "/no-access", as: "outsider" },
    "routes/password-reset/request.tsx": { path: "/password-reset", as: "anonymous" },
    "routes/password-reset/token.tsx": { path: `/password-reset/${resetToken}`, as: "anonymous" },
    "routes/profile.tsx": { path: "/profile", as: "admin" },
    "routes/style.tsx": { path: "/style", as: "admin" },
    "routes/support.tsx": { path: "/support", as: "admin" },
    "routes/help.tsx": { path: "/help", as: "anonymous" },
    "routes/shareables/list.tsx": { path: "/shareables", as: "admin" },
    "routes/shareables/view.tsx": { path: `/shareables/${shareToken}`, as: "anonymous" },
    "routes/settings/index.tsx": { path: "/settings", as: "admin" },
    "routes/settings/invite-user.tsx": { path: "/settings/invite-user", as: "admin" },
    "routes/settings/new-client.tsx": { path: "/settings/new-client", as: "admin" },
    "routes/settings/buckets.tsx": { path: "/settings/buckets", as: "admin" },
    "routes/settings/bucket-import.tsx": { path: "/settings/buckets/import", as: "admin" },
    "routes/settings/bucket.tsx": { path: `/settings/buckets/${bucket.slug}`, as: "admin" },
    "routes/settings/users.tsx": { path: "/settings/users", as: "admin" },
    "routes/settings/user-edit.tsx": { path: `/settings/users/${admin.user.id}`, as: "admin" },
    "routes/settings/webhooks.tsx": { path: "/settings/webhooks", as: "admin" },
    "routes/settings/webhook-new.tsx": { path: "/settings/webhooks/new", as: "admin" },
    "routes/settings/webhook.tsx": { path: `/settings/webhooks/${webhook.id}`, as: "admin" },
    "routes/settings/bucket-impact.tsx": { path: `/settings/buckets/${bucket.slug}/impact`, as: "admin" },
    "routes/bucket-overview.tsx": { path: `/b/${bucket.slug}`, as: "admin" },
    "routes/bucket-edit/new.tsx": { path: `/b/${bucket.slug}/new`, as: "admin" },
    "routes/bucket-edit/singleton.tsx": { path: `/b/${singleton.slug}/edit`, as: "admin" },
    "routes/bucket-edit/duplicate.tsx": { path: `/b/${bucket.slug}/duplicate/${document.contentId}/latest`, as: "admin" },
    "routes/bucket-edit/latest.tsx": { path: `/b/${doc}/latest`, as: "admin" },
    "routes/bucket-history/history.tsx": { path: `/b/${doc}/history`, as: "admin" },
    "routes/bucket-history/compare.tsx": { path: `/b/${doc}/compare`, as: "admin" },
    "routes/bucket-publish/publish.tsx": { path: `/b/${doc}/publish`, as: "admin" },
    "routes/bucket-release/add.tsx": { path: `/b/${doc}/release`, as: "admin" },
    "routes/bucket-review/review.tsx": { path: `/b/${doc}/review`, as: "admin" },
    "routes/releases/list.tsx": { path: "/releases", as: "admin" },
    "routes/media/library.tsx": { path: "/media", as: "admin" },
    "routes/search.tsx": { path: "/search?q=Titled", as: "admin" },
    "routes/bucket-transfer/import.tsx": { path: `/b/${bucket.slug}/import`, as: "admin" },
    "routes/bucket-transfer/import-run.tsx": { path: `/b/${bucket.slug}/import/${importRun.id}`, as: "admin" },
    "routes/bucket-bulk/bulk.tsx": { path: `/b/${bucket.slug}/bulk?action=set&scope=all`, as: "admin" },
    "routes/bucket-transfer/translations.tsx": { path: `/b/${bucket.slug}/translations`, as: "admin" },
    "routes/releases/release.tsx": { path: `/releases/${demoRelease!.id}`, as: "admin" },
    "routes/bucket-edit/version.tsx": { path: `/b/${doc}/${document.versionId}`, as: "admin" },
    "../specialised-screens/dle-content/new.tsx": { path: `/dle-content/${lessons.slug}/new`, as: "admin" },
    "../specialised-screens/dle-content/edit.tsx": [
      { path: `/dle-content/${environment.slug}/edit`, as: "admin" },
      { path: `/dle-content/${lessons.slug}/${lesson.contentId}/${lesson.versionId}`, as: "admin" },
    ],
    "../specialised-screens/dle-sessies/overview.tsx": { path: `/dle-sessies/${dleSessions.slug}`, as: "admin" },
    "../specialised-screens/dle-sessies/new.tsx": { path: `/dle-sessies/${dleSessions.slug}/new`, as: "admin" },
    "../specialised-screens/dle-sessies/edit.tsx": {
      path: `/dle-sessies/${dleSessions.slug}/${dleSessions.contentId}/${dleSessions.versionId}`,
      as: "admin",
    },
    "../specialised-screens/sessies/overview.tsx": { path: `/sessies/${sessions.slug}`, as: "admin" },
    "../specialised-screens/sessies/new.tsx": { path: `/sessies/${sessions.slug}/new`, as: "admin" },
    "../specialised-screens/sessies/edit.tsx": {
      path: `/sessies/${sessions.slug}/${sessions.contentId}/${sessions.versionId}`,
      as: "admin",
    },
    "../specialised-screens/trend/new.tsx": { path: `/trend/${trend.slug}/new`, as: "admin" },
    "../specialised-screens/trend/edit.tsx": { path: `/trend/${trend.slug}/${trend.contentId}/${trend.versionId}`, as: "admin" },
    "routes/not-found.tsx": { path: `/no-such-page-${stamp}`, as: "admin", status: 404 },
  };
}, 180_000);
afterAll(() => server.stop());

/** The page's title in a language, after checking the page answered as expected in that language. */
async function titleOf(visit: Visit, language: keyof typeof LANGUAGES): Promise<string | null> {
  const { status, html } = await page(server.url, visit.path, cookies[visit.as], { "Accept-Language": LANGUAGES[language] });
  expect(status, `${visit.path} ${language}`).toBe(visit.status ?? 200);
  expect(htmlLang(html), `${visit.path} ${language}`).toBe(language);
  return pageTitle(html);
}

describe("page titles", () => {
  it("visits every page module of app/routes.ts", async () => {
    expect((await pageRoutes()).map((route) => route.file).sort()).toEqual(Object.keys(visits).sort());
  });

  it.each(Object.keys(LANGUAGES) as Array<keyof typeof LANGUAGES>)(
    "titles every page '{page} · Vitrine' in %s",
    async (language) => {
      const wrong: string[] = [];
      for (const [file, visit] of Object.entries(visits).flatMap(([file, each]) => [each].flat().map((one) => [file, one] as const))) {
        const title = await titleOf(visit, language);
        if (!title || !TITLE.test(title) || title.startsWith("· ")) wrong.push(`${file} (${visit.path}): ${JSON.stringify(title)}`);
      }
      expect(wrong).toEqual([]);
    },
    120_000,
  );

  it("puts each page's own part in the interface language", async () => {
    const expected: Array<[string, string, string]> = [
      ["routes/home.tsx", "Content · Vitrine", "Inhoud · Vitrine"],
      ["routes/login.tsx", "Sign in · Vitrine", "Inloggen · Vitrine"],
      ["routes/bucket-edit/new.tsx", "New document · Vitrine", "Nieuw document · Vitrine"],
      ["routes/not-found.tsx", "Page not found · Vitrine", "Pagina niet gevonden · Vitrine"],
      ["routes/releases/list.tsx", "Releases · Vitrine", "Releases · Vitrine"],
      ["routes/media/library.tsx", "Media library · Vitrine", "Mediabibliotheek · Vitrine"],
      ["routes/search.tsx", "Search: Titled · Vitrine", "Zoeken: Titled · Vitrine"],
      ["routes/bucket-transfer/import-run.tsx", "Check of artworks.csv · Vitrine", "Controle van artworks.csv · Vitrine"],
      ["routes/bucket-bulk/bulk.tsx", "Change a field in Title bucket · Vitrine", "Een veld wijzigen in Title bucket · Vitrine"],
      ["routes/bucket-transfer/translations.tsx", "Translations of Title bucket · Vitrine", "Vertalingen van Title bucket · Vitrine"],
      ["routes/releases/release.tsx", "Spring opening · Vitrine", "Spring opening · Vitrine"],
      ["routes/bucket-edit/latest.tsx", "Titled document · Vitrine", "Titled document · Vitrine"],
    ];
    for (const [file, english, dutch] of expected) {
      const visit = visits[file] as Visit;
      expect([file, await titleOf(visit, "en"), await titleOf(visit, "nl")]).toEqual([file, english, dutch]);
    }
  });
});

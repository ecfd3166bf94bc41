import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { getRelease, listReleases } from "@server/content/releases";
import { exhibitTimeZone } from "@server/content/release-editing";
import { instantToZonedTime } from "@core/zoned-time";
import { afterAll, describe, expect, it } from "vitest";
import { DEMO_BUCKETS } from "@server/demo-content";
import { fieldKind } from "@core/form/field-kind";
import { schemaNodes } from "@core/schema/walk";
import { get, signIn } from "@tests/support/http";
import { startTestServer, type TestServer } from "@tests/support/server";

/*
 * The first start's demo content (server/seed.ts): the demo schemas use every field kind of references and
 * sub-forms, the video cases and the trend select; trends get images, cases videos (with their jobs) when ffmpeg is
 * there, and the demo still starts without it.
 */

const servers: TestServer[] = [];
const emptyPath = mkdtempSync(path.join(tmpdir(), "vitrine-no-ffmpeg-"));
afterAll(async () => {
  await Promise.all(servers.map((server) => server.stop()));
  rmSync(emptyPath, { recursive: true, force: true });
});

const ADMIN = { ADMIN_EMAIL: "demo@example.test", ADMIN_PASSWORD: "correct horse battery" };

async function mediaOf(server: TestServer, slug: string, field: string) {
  const { rows } = await server.db.query<{ value: string | null; kind: string | null; jobs: number }>(
    `SELECT v.data->>$2 AS value, m.kind, (SELECT count(*)::int FROM jobs j WHERE j.media_id = m.id) AS jobs
     FROM contents c JOIN buckets b ON b.id = c.bucket_id JOIN versions v ON v.version_id = c.latest_version_id
     LEFT JOIN media m ON m.content_id::text = v.data->>$2
     WHERE b.slug = $1`,
    [slug, field],
  );
  return rows;
}

describe("demo content", () => {
  it("uses a reference select and list, popup and inline sub-forms, the video cases and the trend select", () => {
    const kinds = new Set<string>();
    const renderers = new Set<string>();
    for (const demo of DEMO_BUCKETS) {
      for (const { node } of schemaNodes(demo.bucket.jsonSchema)) {
        const kind = fieldKind(node);
        if (kind) kinds.add(kind);
        if (typeof node.renderer === "string") renderers.add(node.renderer);
      }
    }
    for (const kind of ["reference", "referenceList", "popup", "videoCases", "trendSelect", "trendList", "image", "video", "file"])
      expect(kinds, kind).toContain(kind);
    expect(renderers).toContain("inline");
  });

  it("gives the trends images and the cases videos with their jobs, and shows the cases as clip cards", async () => {
    const server = await startTestServer({ seed: true, env: ADMIN });
    servers.push(server);
    expect(server.media.ffmpeg).not.toBeNull();
    // The demo goes live: every document's newest version is published (docs/publishing.md), but the one new artwork
    // of the demo's release, scheduled a week ahead at 10:00 in the exhibits' time zone.
    const states = await server.db.query<{ drafts: number; published: number }>(
      `SELECT count(*) FILTER (WHERE published_version_id IS DISTINCT FROM latest_version_id)::int AS drafts,
              count(*) FILTER (WHERE published_version_id = latest_version_id)::int AS published FROM contents`,
    );
    expect(states.rows[0]!.drafts).toBe(1);
    expect(states.rows[0]!.published).toBeGreaterThan(10);
    const [release] = await listReleases(server.db);
    expect(release).toMatchObject({ name: "Spring opening", state: "scheduled", itemCount: 1 });
    const local = instantToZonedTime(release!.scheduledAt!, exhibitTimeZone());
    expect(local.slice(11)).toBe("10:00");
    const days = (release!.scheduledAt!.getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(5.9);
    expect(days).toBeLessThan(7.5);
    const [item] = (await getRelease(server.db, release!.id)).items;
    expect(item).toMatchObject({ title: "Duinen bij Schoorl", document: { state: "scheduled", publishedVersionId: null } });
    const trends = await mediaOf(server, "trends", "image");
    expect(trends).toHaveLength(4);
    for (const trend of trends) expect(trend).toMatchObject({ kind: "image", jobs: 0 });
    const cases = await mediaOf(server, "cases", "thumbnail");
    expect(cases).toHaveLength(4);
    for (const item of cases) expect(item).toMatchObject({ kind: "video", jobs: 2 });

    const cookie = await signIn(server.url, ADMIN.ADMIN_EMAIL, ADMIN.ADMIN_PASSWORD);
    const { rows } = await server.db.query<{ id: string }>(
      "SELECT c.content_id AS id FROM contents c JOIN buckets b ON b.id = c.bucket_id WHERE b.slug = 'sessions' LIMIT 1",
    );
    const html = await (await get(server.url, `/sessies/sessions/${rows[0]!.id}/latest`, cookie)).text();
    expect(html).toContain('class="clip-cards"');
    expect(html).toMatch(/class="clip-card"[^>]*data-case="[0-9a-f-]{36}"/);
    expect(html).toContain("trend-select-plain");

    // The demo trends name each other (their contentIds chosen before seeding) and show who uses them.
    const related = await server.db.query<{ id: string; title: string; related: string[] }>(
      `SELECT c.content_id AS id, v.data->'title'->>'en' AS title, v.data->'related' AS related
       FROM contents c JOIN buckets b ON b.id = c.bucket_id JOIN versions v ON v.version_id = c.latest_version_id WHERE b.slug = 'trends'`,
    );
    const byTitle = Object.fromEntries(related.rows.map((row) => [row.title, row]));
    expect(byTitle["Light and water"]!.related).toEqual([byTitle["Green cities"]!.id, byTitle["Slow looking"]!.id]);
    const trendPage = await (await get(server.url, `/trend/trends/${byTitle["Light and water"]!.id}/latest`, cookie)).text();
    expect(trendPage).toContain(`href="/trend/trends/${byTitle["Green cities"]!.id}/latest"`);
    expect(trendPage).toMatch(/href="\/sessies\/sessions\/[0-9a-f-]{36}\/latest"/);
  });

  it("starts without ffmpeg: the cases have no video", async () => {
    const server = await startTestServer({ seed: true, env: { ...ADMIN, PATH: emptyPath } });
    servers.push(server);
    expect(server.media.ffmpeg).toBeNull();
    const cases = await mediaOf(server, "cases", "thumbnail");
    expect(cases).toHaveLength(4);
    for (const item of cases) expect(item).toMatchObject({ value: null, kind: null });
    expect((await mediaOf(server, "trends", "image")).every((trend) => trend.kind === "image")).toBe(true);
  });
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Bucket } from "@server/content/buckets";
import { ACTIVITY_SQL } from "@server/admin/activity";
import { createInvitation } from "@server/accounts/invitations";
import { createApiClient, revokeApiClient } from "@server/accounts/api-clients";
import { findUserByEmail } from "@server/accounts/users";
import { createTestBucket, decode, page, seedDocuments, signedInUser } from "@tests/support/fixtures";
import { postForm, sameOrigin } from "@tests/support/http";
import { startTestServer, type TestServer } from "@tests/support/server";

/*
 * The activity log on /settings (issue 36): invitations used, documents created, saved and deleted (creates and
 * saves read from versions, merged by time), and each row's subject a link to what it names while that exists.
 */

let server: TestServer;
let admin: Awaited<ReturnType<typeof signedInUser>>;
let bucket: Bucket;
let counter = 0;
const unique = (label: string) => `${label}-${++counter}-${Date.now().toString(36)}`;

/** A page's visible text: tags removed, entities decoded, whitespace collapsed. */
const textOf = (html: string) =>
  decode(
    html
      .replace(/<script[\s\S]*?<\/script>/g, " ")
      .replace(/<!--[\s\S]*?-->/g, "")
      .replace(/<[^>]+>/g, " "),
  ).replace(/\s+/g, " ");

/** The activity table's rows, each as its text and the href of its subject link (null: plain text). */
function activityRows(html: string): Array<{ text: string; href: string | null }> {
  const table = html.match(/<table class="content-table activity-table">[\s\S]*?<\/table>/)?.[0] ?? "";
  return [...table.matchAll(/<tr>([\s\S]*?)<\/tr>/g)].slice(1).map((match) => ({
    text: textOf(match[1]!).trim(),
    href:
      match[1]!
        .match(/<a[^>]*class="activity-subject"[^>]*href="([^"]*)"|<a[^>]*href="([^"]*)"[^>]*class="activity-subject"/)
        ?.slice(1)
        .find(Boolean) ?? null,
  }));
}

async function logRows(locale = "en") {
  const { status, html } = await page(server.url, "/settings", admin.cookie, { "Accept-Language": locale });
  expect(status).toBe(200);
  return activityRows(html);
}

function api(path: string, init: RequestInit = {}) {
  return fetch(`${server.url}${path}`, {
    ...init,
    headers: { "Content-Type": "application/json", Cookie: admin.cookie, ...sameOrigin(server.url) },
  });
}

beforeAll(async () => {
  server = await startTestServer({ env: { ALLOW_SIGNUP: "true" } });
  admin = await signedInUser(server.url, server.db, { name: "Ada Admin", permissions: ["user", "admin"] });
  const slug = unique("paintings");
  bucket = await createTestBucket(server.db, {
    slug,
    collectionName: slug,
    name: "Paintings",
    names: { nl: "Schilderijen" },
    jsonSchema: { type: "object", properties: { title: { type: "string", translate: true }, year: { type: "integer" } } },
  });
});
afterAll(() => server.stop());

describe("/settings: the activity log", () => {
  it("logs a document's create and save (from its versions) with who, its title and bucket, linked to the version", async () => {
    const title = unique("Zeegezicht");
    const created = await (
      await api(`/api/v1/buckets/${bucket.slug}/save`, {
        method: "POST",
        body: JSON.stringify({ content: { title: { en: `${title} (en)`, nl: `${title} (nl)` } }, collection: bucket.collectionName }),
      })
    ).json();
    const saved = await (
      await api(`/api/v1/buckets/${bucket.slug}/save`, {
        method: "POST",
        body: JSON.stringify({ content: { ...created, year: 1881 }, collection: bucket.collectionName }),
      })
    ).json();
    expect(saved.contentId).toBe(created.contentId);

    const rows = await logRows();
    expect(rows[0]).toMatchObject({
      text: expect.stringContaining(`Ada Admin Document saved ${title} (en) in Paintings`),
      href: `/b/${bucket.slug}/${created.contentId}/${saved._id}`,
    });
    expect(rows[1]).toMatchObject({
      text: expect.stringContaining(`Ada Admin Document created ${title} (en) in Paintings`),
      href: `/b/${bucket.slug}/${created.contentId}/${created._id}`,
    });
    // In Dutch: the translated title and the bucket's name follow the interface language.
    const dutch = await logRows("nl");
    expect(dutch[0]!.text).toContain(`Ada Admin Document opgeslagen ${title} (nl) in Schilderijen`);
    expect(dutch[1]!.text).toContain(`Ada Admin Document aangemaakt ${title} (nl) in Schilderijen`);
  });

  it("logs a document's delete with its title (its versions are gone): plain text, not a dead link", async () => {
    const title = unique("Weggooien");
    const created = await (
      await api(`/api/v1/buckets/${bucket.slug}/save`, {
        method: "POST",
        body: JSON.stringify({ content: { title: { en: title, nl: `${title} nl` } }, collection: bucket.collectionName }),
      })
    ).json();
    const response = await postForm(
      server.url,
      `/b/${bucket.slug}?index`,
      { intent: "delete", contentId: created.contentId, versionId: created._id },
      admin.cookie,
    );
    expect(response.status).toBe(302);

    const rows = await logRows();
    expect(rows[0]).toEqual({ text: expect.stringContaining(`Ada Admin Document deleted ${title} in Paintings`), href: null });
    // The create went with the document's versions: only the delete is left of it.
    expect(rows.filter((row) => row.text.includes(title))).toHaveLength(1);
    const { rows: recorded } = await server.db.query(
      "SELECT actor_id, area, action, subject, details FROM admin_activity WHERE area = 'document' AND details->>'contentId' = $1",
      [created.contentId],
    );
    expect(recorded).toEqual([
      {
        actor_id: admin.user.id,
        area: "document",
        action: "deleted",
        subject: `${title} nl`,
        details: {
          bucket: bucket.slug,
          bucketId: bucket.id,
          contentId: created.contentId,
          versionId: created._id,
          title: { en: title, nl: `${title} nl` },
        },
      },
    ]);
    expect((await logRows("nl"))[0]!.text).toContain(`Document verwijderd ${title} nl in Schilderijen`);
  });

  it("logs a document deleted through the JSON API", async () => {
    const title = unique("Per API");
    const created = await (
      await api(`/api/v1/buckets/${bucket.slug}/save`, {
        method: "POST",
        body: JSON.stringify({ content: { title: { en: title } }, collection: bucket.collectionName }),
      })
    ).json();
    expect((await api(`/api/v1/buckets/${bucket.slug}/content/${created.contentId}/${created._id}`, { method: "DELETE" })).status).toBe(
      204,
    );
    expect((await logRows())[0]).toEqual({ text: expect.stringContaining(`Ada Admin Document deleted ${title} in Paintings`), href: null });
  });

  it("logs an invitation used: the new user, linked to their page", async () => {
    const { code } = await createInvitation(server.db, { permissions: ["user"] });
    const email = `${unique("invited")}@activity.example.test`;
    const response = await postForm(server.url, "/signup", {
      name: "Ines Invited",
      email,
      password: "a-long-enough-password",
      invitationCode: code,
    });
    expect(response.status).toBe(302);
    const user = (await findUserByEmail(server.db, email))!;
    expect((await logRows())[0]).toEqual({
      text: expect.stringContaining(`Ines Invited Invitation used ${email}`),
      href: `/settings/users/${user.id}`,
    });
    expect((await logRows("nl"))[0]!.text).toContain(`Ines Invited Uitnodiging gebruikt ${email}`);
  });

  it("links an admin change's subject while it exists and shows it as plain text once it is gone", async () => {
    const kept = await createTestBucket(server.db);
    const gone = await createTestBucket(server.db);
    const { client } = await createApiClient(server.db, admin.user, {
      name: unique("Kiosk"),
      readBuckets: [],
      writeBuckets: [],
      expiresAt: null,
    });
    for (const slug of [kept.slug, gone.slug]) {
      await server.db.query(
        "INSERT INTO admin_activity (actor_id, actor_name, area, action, subject) VALUES ($1, 'Ada Admin', 'bucket', 'created', $2)",
        [admin.user.id, slug],
      );
    }
    await server.db.query("DELETE FROM buckets WHERE id = $1", [gone.id]);
    await revokeApiClient(server.db, admin.user, client.id);

    const rows = await logRows();
    const row = (needle: string) => rows.find((candidate) => candidate.text.includes(needle));
    expect(row(`Bucket created ${kept.slug}`)!.href).toBe(`/settings/buckets/${kept.slug}`);
    expect(row(`Bucket created ${gone.slug}`)!.href).toBeNull();
    // A revoked client is still listed in the settings.
    expect(row(`API client revoked ${client.name}`)!.href).toBe(`/settings/new-client#client-${client.id}`);
    expect(row(`API client created ${client.name}`)!.href).toBe(`/settings/new-client#client-${client.id}`);
  });

  it("reads the versions' side by an index scan at thousands of versions (no sort of the table)", async () => {
    const seeded = await createTestBucket(server.db);
    await seedDocuments(server.db, seeded.id, 3000, "jsonb_build_object('title', 'Seeded ' || n)");
    await server.db.query("ANALYZE versions, admin_activity");
    const { rows } = await server.db.query<{ "QUERY PLAN": string }>(
      `EXPLAIN ${ACTIVITY_SQL.replaceAll("$1", "26").replaceAll("$2", "50")}`,
    );
    const plan = rows.map((row) => row["QUERY PLAN"]).join("\n");
    expect(plan).toContain("Index Scan using versions_created_idx on versions");
    expect(plan).not.toMatch(/Seq Scan on versions/);
  });
});

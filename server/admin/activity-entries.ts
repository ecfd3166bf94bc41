import type { Queryable } from "@server/db/client";
import type { LinkedBucket } from "@server/content/buckets";
import type { Activity, ActivityArea } from "./activity";
import type { Locale } from "@core/locales";
import { bucketName } from "@core/content/bucket-name";
import { documentPath } from "@core/content/screens";
import { documentTitle, titleText } from "@core/content/title";

/** One row of the log as the page shows it: its subject links to what it names while that still exists. */
export interface ActivityEntry {
  id: string;
  actorName: string | null;
  area: ActivityArea;
  action: string;
  subject: string;
  /** Where the subject is shown in the settings (or the editor); null when it is gone. */
  href: string | null;
  /** A document's bucket, by its name in the interface language (its slug once the bucket is gone). */
  bucket: string | null;
  changed: string[];
  createdAt: Date;
}

/** What still exists of the things a page of the log names, looked up once per kind. */
interface Existing {
  buckets: LinkedBucket[];
  users: Array<{ id: string; email: string }>;
  openInvitations: Set<string>;
  clients: Set<string>;
  webhooks: Set<string>;
}

const text = (value: unknown): string | null => (typeof value === "string" && value ? value : null);
const detail = (row: Activity, key: string) => text(row.details[key]);

async function findExisting(db: Queryable, rows: Activity[]): Promise<Existing> {
  const ids = (area: ActivityArea) =>
    rows
      .filter((row) => row.area === area)
      .map((row) => detail(row, "id"))
      .filter((id): id is string => id !== null);
  const bucketSlugs = rows.filter((row) => row.area === "bucket" || row.area === "schema").map((row) => row.subject);
  const bucketIds = rows
    .filter((row) => row.area === "document")
    .map((row) => detail(row, "bucketId"))
    .filter((id): id is string => id !== null);
  const userIds = [
    ...ids("user"),
    ...rows.map((row) => (row.area === "invitation" ? detail(row, "userId") : null)).filter((id): id is string => id !== null),
  ];
  const userEmails = rows.filter((row) => row.area === "user" && !detail(row, "id")).map((row) => row.subject.toLowerCase());
  const [buckets, users, invitations, clients, webhooks] = await Promise.all([
    db.query<LinkedBucket>(
      `SELECT id, slug, name, names, singleton, screen, json_schema AS "jsonSchema", locales FROM buckets
       WHERE id = ANY ($1::uuid[]) OR slug = ANY ($2::text[])`,
      [bucketIds, bucketSlugs],
    ),
    db.query<{ id: string; email: string }>("SELECT id, email FROM users WHERE id = ANY ($1::uuid[]) OR lower(email) = ANY ($2::text[])", [
      userIds,
      userEmails,
    ]),
    db.query<{ id: string }>(
      "SELECT id FROM invitations WHERE id = ANY ($1::uuid[]) AND used_at IS NULL AND revoked_at IS NULL AND expires_at > now()",
      [ids("invitation")],
    ),
    db.query<{ id: string }>("SELECT id FROM api_clients WHERE id = ANY ($1::uuid[])", [ids("client")]),
    db.query<{ id: string }>("SELECT id FROM webhooks WHERE id = ANY ($1::uuid[])", [ids("webhook")]),
  ]);
  const idSet = (result: { rows: Array<{ id: string }> }) => new Set(result.rows.map((row) => row.id));
  return {
    buckets: buckets.rows,
    users: users.rows,
    openInvitations: idSet(invitations),
    clients: idSet(clients),
    webhooks: idSet(webhooks),
  };
}

/** A user's page: by the id recorded, or by email for rows recorded before ids were. */
function userHref(existing: Existing, id: string | null, email: string): string | null {
  const user = id
    ? existing.users.find((candidate) => candidate.id === id)
    : existing.users.find((candidate) => candidate.email.toLowerCase() === email.toLowerCase());
  return user ? `/settings/users/${encodeURIComponent(user.id)}` : null;
}

function hrefOf(row: Activity, existing: Existing): string | null {
  const id = detail(row, "id");
  switch (row.area) {
    case "bucket":
    case "schema":
      return existing.buckets.some((bucket) => bucket.slug === row.subject) ? `/settings/buckets/${encodeURIComponent(row.subject)}` : null;
    case "user":
      return userHref(existing, id, row.subject);
    case "invitation":
      if (row.action === "used") return userHref(existing, detail(row, "userId"), row.subject);
      return id && existing.openInvitations.has(id) ? "/settings/invite-user" : null;
    case "client":
      return id && existing.clients.has(id) ? `/settings/new-client#client-${id}` : null;
    case "webhook":
      return id && existing.webhooks.has(id) ? `/settings/webhooks/${encodeURIComponent(id)}` : null;
    case "document": {
      // A create or save is listed from its version, so the document still exists; a deleted one is gone for good.
      const bucket = existing.buckets.find((candidate) => candidate.id === detail(row, "bucketId"));
      const contentId = detail(row, "contentId");
      return row.data && bucket && contentId ? documentPath(bucket, contentId, detail(row, "versionId") ?? undefined) : null;
    }
  }
}

/** A document's title in the interface language (a translated title's other locales after it). */
function documentSubject(row: Activity, bucket: LinkedBucket | undefined, locale: Locale): string {
  const locales = [locale, ...(bucket?.locales ?? [])];
  if (row.data) return bucket ? documentTitle(row.data, bucket.jsonSchema, locales) : "";
  return titleText(row.details.title, locales) || row.subject;
}

/** A page of the log with each subject's text and link, in the interface language. */
export async function activityEntries(db: Queryable, rows: Activity[], locale: Locale): Promise<ActivityEntry[]> {
  const existing = await findExisting(db, rows);
  return rows.map((row) => {
    const bucket = row.area === "document" ? existing.buckets.find((candidate) => candidate.id === detail(row, "bucketId")) : undefined;
    return {
      id: row.id,
      actorName: row.actorName,
      area: row.area,
      action: row.action,
      subject: row.area === "document" ? documentSubject(row, bucket, locale) : row.subject,
      href: hrefOf(row, existing),
      bucket: row.area === "document" ? (bucket ? bucketName(bucket, locale) : detail(row, "bucket")) : null,
      changed: Array.isArray(row.details.changed) ? row.details.changed.filter((field): field is string => typeof field === "string") : [],
      createdAt: row.createdAt,
    };
  });
}

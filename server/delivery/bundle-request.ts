import type { ApiClient } from "@server/accounts/api-clients";
import type { Queryable } from "@server/db/client";
import { isUuid } from "@core/ids";
import { invalidParameter, Problem } from "./problem";
import { parsePopulate } from "./query";
import { requireClientBucket, type DeliveryBucket } from "./read";
import { requestedView, type DeliveryView } from "./view";

/*
 * What an offline bundle is asked for (docs/bundles.md): its query parameters checked (buckets, locales, populate,
 * since), and the recorded state of an earlier bundle that `since` names.
 */

export const MAX_BUNDLE_BUCKETS = 50;

/** What a bundle holds, as asked. */
export interface BundleRequest {
  buckets: DeliveryBucket[];
  /** null: every locale, the stored per-locale objects (one file per document). */
  locales: string[] | null;
  populate: number;
  since: BundleRecord | null;
  /** Published versions, or a preview (version=newest, release=…: view.ts). */
  view: DeliveryView;
}

/** The state an app has after unpacking a bundle (and those it was made since). */
export interface BundleState {
  documents: Record<string, { bucket: string; versionId: string; files: Record<string, string> }>;
  media: Record<string, { id: string; files: Record<string, string> }>;
}

export interface BundleRecord extends BundleState {
  id: string;
  clientId: string;
  buckets: string[];
  locales: string[] | null;
  populate: number;
}

const listParameter = (text: string | null) =>
  text === null
    ? null
    : [
        ...new Set(
          text
            .split(",")
            .map((part) => part.trim())
            .filter(Boolean),
        ),
      ];

const BUNDLE_COLUMNS = `id, client_id AS "clientId", buckets, locales, populate, documents, media`;

export async function findBundle(db: Queryable, id: string): Promise<BundleRecord | null> {
  const { rows } = await db.query<BundleRecord>(`SELECT ${BUNDLE_COLUMNS} FROM delivery_bundles WHERE id = $1`, [id]);
  return rows[0] ?? null;
}

const sameSet = (a: readonly string[] | null, b: readonly string[] | null) =>
  a === null || b === null ? a === b : a.length === b.length && [...a].sort().join(",") === [...b].sort().join(",");

/** The bundle's query parameters (buckets, locales, populate, since), each refused with a clear problem. */
export async function parseBundleRequest(db: Queryable, client: ApiClient, url: URL): Promise<BundleRequest> {
  // A client without preview asking for one is refused (403) before anything else.
  const view = await requestedView(db, client, url);
  const slugs = listParameter(url.searchParams.get("buckets"));
  if (!slugs?.length || slugs.length > MAX_BUNDLE_BUCKETS) {
    throw invalidParameter("buckets", "bundles.problems.buckets", {
      value: url.searchParams.get("buckets") ?? "",
      max: MAX_BUNDLE_BUCKETS,
    });
  }
  const buckets: DeliveryBucket[] = [];
  for (const slug of slugs) {
    const bucket = await requireClientBucket(db, client, slug);
    if (!buckets.some((other) => other.bucket.id === bucket.bucket.id)) buckets.push(bucket);
  }
  const locales = listParameter(url.searchParams.get("locales"));
  if (locales !== null) {
    for (const { bucket } of buckets) {
      const unknown = locales.length ? locales.find((locale) => !bucket.locales.includes(locale)) : "";
      if (unknown !== undefined)
        throw invalidParameter("locales", "bundles.problems.locales", {
          value: unknown,
          bucket: bucket.slug,
          locales: bucket.locales.join(", "),
        });
    }
  }
  const populate = parsePopulate(url);
  const sinceText = url.searchParams.get("since");
  let since: BundleRecord | null = null;
  if (sinceText !== null) {
    if (!isUuid(sinceText)) throw invalidParameter("since", "bundles.problems.sinceMalformed", { value: sinceText });
    since = await findBundle(db, sinceText.toLowerCase());
    // Another client's bundle is as unknown as one that never existed.
    if (!since || since.clientId !== client.id)
      throw new Problem(404, "not-found", "bundles.problems.sinceUnknown", { value: sinceText }, { parameter: "since" });
    const slugsNow = buckets.map(({ bucket }) => bucket.slug);
    if (!sameSet(since.buckets, slugsNow) || !sameSet(since.locales, locales) || since.populate !== populate) {
      throw invalidParameter("since", "bundles.problems.sinceMismatch", {
        value: sinceText,
        buckets: since.buckets.join(","),
        locales: since.locales?.join(",") ?? "",
        populate: since.populate,
      });
    }
  }
  return { buckets, locales, populate, since, view };
}

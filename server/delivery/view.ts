import type { ApiClient } from "@server/accounts/api-clients";
import type { Queryable } from "@server/db/client";
import type { ReleaseState } from "@core/content/release";
import { isUuid } from "@core/ids";
import { invalidParameter, Problem } from "./problem";

/*
 * Which version of each document the delivery API answers (docs/delivery.md, "Preview"):
 *   published  the published version (a document with none is not there): every client, and the default
 *   newest     the newest version, drafts included (version=newest)
 *   release    what a release will show (release={id}): its documents at their release version (the chosen one, or
 *              the newest), every other document as published
 * Only a client with `preview` may ask for newest or a release (403 otherwise). A published release's documents are
 * simply live: release={id} of one answers the published view (still as a preview answer); a rolled-back one 404s.
 *
 * The published view is the default path and costs nothing here: without `version` or `release` in the query the
 * request never comes past the two lookups of requestedView.
 */

export type DeliveryView =
  | { kind: "published" }
  | { kind: "newest" }
  | { kind: "release"; releaseId: string; state: Extract<ReleaseState, "open" | "scheduled" | "published"> };

export const PUBLISHED_VIEW: DeliveryView = Object.freeze({ kind: "published" });

/** Whether an answer is a preview: private to its client, never stored by a shared cache, with ETags of its own. */
export const isPreview = (view: DeliveryView | undefined): boolean => view !== undefined && view.kind !== "published";

/** What tells a preview answer from the published one (and one preview from another) in its ETag. */
export const viewKey = (view: DeliveryView): string =>
  view.kind === "release" ? `release ${view.releaseId} ${view.state === "published" ? "live" : "pending"}` : view.kind;

/** Whether the query asks for a preview at all (cheap: what the published path checks). */
export const asksPreview = (url: URL): boolean => url.searchParams.has("version") || url.searchParams.has("release");

/**
 * The view a request asks for: published unless `version=newest` or `release={id}`. A client without preview asking
 * for either gets 403; a bad value 400 naming the parameter; an unknown or rolled-back release 404.
 */
export async function requestedView(db: Queryable, client: ApiClient, url: URL): Promise<DeliveryView> {
  if (!asksPreview(url)) return PUBLISHED_VIEW;
  const version = url.searchParams.get("version");
  const release = url.searchParams.get("release");
  if (version !== null && version !== "published" && version !== "newest")
    throw invalidParameter("version", "delivery.problems.invalidParameter.version", { value: version });
  if (release === null && version !== "newest") return PUBLISHED_VIEW;
  if (!client.preview) throw new Problem(403, "forbidden", "delivery.problems.forbidden.preview");
  if (release === null) return { kind: "newest" };
  if (version !== null) throw invalidParameter("version", "delivery.problems.invalidParameter.versionWithRelease");
  if (!isUuid(release)) throw invalidParameter("release", "delivery.problems.invalidParameter.release", { value: release });
  const { rows } = await db.query<{ id: string; state: ReleaseState }>(`SELECT id, state FROM releases WHERE id = $1`, [release]);
  const found = rows[0];
  if (!found) throw new Problem(404, "not-found", "delivery.problems.notFound.release", { value: release }, { parameter: "release" });
  if (found.state === "rolled_back")
    throw new Problem(404, "not-found", "delivery.problems.notFound.releaseRolledBack", { value: release }, { parameter: "release" });
  return { kind: "release", releaseId: found.id, state: found.state };
}

/**
 * The SQL of a preview view over `contents c`: `from` joins the version shown as `v` (a document with none shown has
 * no row), `version` and `time` are its version id and its updatedAt. `param` adds a parameter and names it.
 * (The published view keeps its own constant statements in store.ts; this is only for the preview.)
 */
export function previewSql(view: DeliveryView, param: (value: unknown) => string): { from: string; version: string; time: string } {
  if (view.kind === "newest")
    return {
      from: "contents c JOIN versions v ON v.version_id = c.latest_version_id",
      version: "c.latest_version_id",
      time: "c.updated_at",
    };
  if (view.kind === "release" && view.state !== "published") {
    // A document in the release shows its release version (the chosen one, or its newest), saved at v.created_at.
    return {
      from: `contents c LEFT JOIN release_items ri ON ri.release_id = ${param(view.releaseId)}::uuid AND ri.content_id = c.content_id
        JOIN versions v ON v.version_id = CASE WHEN ri.content_id IS NULL THEN c.published_version_id ELSE coalesce(ri.version_id, c.latest_version_id) END`,
      version: "v.version_id",
      time: "CASE WHEN ri.content_id IS NULL THEN c.published_at ELSE v.created_at END",
    };
  }
  return {
    from: "contents c JOIN versions v ON v.version_id = c.published_version_id",
    version: "c.published_version_id",
    time: "c.published_at",
  };
}

import { findWhereUsed } from "@server/content/where-used";
import { requireBucketAccess } from "@server/web/guards";
import type { WhereUsed } from "@core/content/references";
import type { BucketEditData } from "~/routes/bucket-edit/edit.server";
import type { AppLoadContext } from "react-router";

/** What the trend screen adds to the edit page's data: which documents refer to the trend (none for a new one). */
export interface TrendScreenData {
  whereUsed: WhereUsed | null;
}

/**
 * The sessions and other documents that name this trend (server/content/where-used.ts): links to those in buckets
 * the user may see, the others only counted. Read after the generic loader's guards, with the bucket's own.
 */
export async function loadTrendScreen(
  args: { request: Request; context: AppLoadContext; params: { bucket?: string } },
  base: BucketEditData,
): Promise<TrendScreenData> {
  if (!base.contentId) return { whereUsed: null };
  const { user, bucket } = await requireBucketAccess(args.request, args.context, args.params.bucket);
  return {
    whereUsed: await findWhereUsed(args.context.db, user, {
      collection: bucket.collectionName,
      contentId: base.contentId,
      locale: base.messageLocale,
    }),
  };
}
